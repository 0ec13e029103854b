// Occupancy as CUDA's occupancy calculator computes it, against hand-worked cases.
#include "gpu_specs.h"

#include <QtTest>

using namespace gemmscope;

class TstOccupancy : public QObject {
    Q_OBJECT

private slots:
    void knownGpus()
    {
        QStringList keys;
        for (const auto &g : gemmscope::knownGpus())
            keys << QString::fromStdString(g.key);
        QCOMPARE(keys, (QStringList{"t4", "a100", "h100", "h200", "b200"}));
        QCOMPARE(findGpu("t4")->fp32Tflops, 8.1);
        QCOMPARE(findGpu("t4")->dramGBs, 320.0);
        QCOMPARE(findGpu("h200")->sms, 132);
        QCOMPARE(findGpuForArch(90)->key, std::string("h200"));
        QCOMPARE(findGpuForArch(75)->key, std::string("t4"));
        QCOMPARE(findGpuForArch(12), nullptr);
        // The clock-derived peak the reference quotes: 132 SMs x 128 lanes x 2 x 1.98 GHz.
        const auto *h = findGpu("h200");
        QVERIFY(qAbs(h->sms * 128 * 2 * h->smClockMHz / 1e6 - h->fp32Tflops) < 0.1);
    }

    // "sm_ 90" and "sm_90\0..." were read as sm_90 (QString::toInt skips blanks).
    void architectureStringsParseStrictly_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("arch"); // 0: refused
        QTest::newRow("sm_90") << QByteArray("sm_90") << 90;
        QTest::newRow("sm_75") << QByteArray("sm_75") << 75;
        QTest::newRow("sm_100") << QByteArray("sm_100") << 100;
        QTest::newRow("blank inside") << QByteArray("sm_ 90") << 0;
        QTest::newRow("blank after") << QByteArray("sm_90 ") << 0;
        QTest::newRow("blank before") << QByteArray(" sm_90") << 0;
        QTest::newRow("NUL and more") << QByteArray("sm_90\0garbage", 13) << 0;
        QTest::newRow("leading zero") << QByteArray("sm_090") << 0;
        QTest::newRow("sign") << QByteArray("sm_+90") << 0;
        QTest::newRow("suffix") << QByteArray("sm_90a") << 0;
        QTest::newRow("one digit") << QByteArray("sm_9") << 0;
        QTest::newRow("too long") << QByteArray("sm_9000") << 0;
        QTest::newRow("INT_MAX") << QByteArray("sm_2147483647") << 0;
        QTest::newRow("upper case") << QByteArray("SM_90") << 0;
        QTest::newRow("empty") << QByteArray() << 0;
    }
    void architectureStringsParseStrictly()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, arch);
        const std::optional<int> parsed =
            parseSmArch(std::string_view(text.constData(), size_t(text.size())));
        QCOMPARE(parsed.value_or(0), arch);
    }

    void cases_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("smem");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<OccupancyLimiter>("limiter");
        // 256 threads x 64 regs: 2048 regs/warp, 8 warps per 16K-register sub-partition, 32 warps: 4 blocks.
        QTest::newRow("h200 64 regs") << "h200" << 256 << 64 << 4096 << 4 << OccupancyLimiter::Registers;
        // 234 regs -> 7488 -> 7680 per warp; 2 warps per partition; 8 warps = 1 block of 8 warps.
        QTest::newRow("h200 step 8") << "h200" << 256 << 234 << 24576 << 1 << OccupancyLimiter::Registers;
        // 32 regs: 64 warps fit by registers; threads cap at 2048 = 8 blocks of 256.
        QTest::newRow("h200 naive") << "h200" << 256 << 32 << 0 << 8 << OccupancyLimiter::Threads;
        // Shared memory: (49152 + 1024) rounded to 128 = 50176; 233472 / 50176 = 4 blocks.
        QTest::newRow("h200 smem") << "h200" << 64 << 32 << 49152 << 4 << OccupancyLimiter::SharedMemory;
        // T4: 1024 threads per SM, 16 blocks: one-warp blocks are capped by the block limit.
        QTest::newRow("t4 tiny blocks") << "t4" << 32 << 16 << 0 << 16 << OccupancyLimiter::Blocks;
        QTest::newRow("t4 32x32 tile") << "t4" << 1024 << 32 << 8192 << 1 << OccupancyLimiter::Threads;
        QTest::newRow("too many registers") << "h200" << 128 << 300 << 0 << 0 << OccupancyLimiter::Registers;
    }
    void cases()
    {
        QFETCH(QString, gpu);
        QFETCH(int, threads);
        QFETCH(int, registers);
        QFETCH(int, smem);
        QFETCH(int, blocks);
        QFETCH(OccupancyLimiter, limiter);
        const auto o = computeOccupancy(*findGpu(gpu.toStdString()), threads, registers, smem);
        QCOMPARE(o.blocksPerSm, blocks);
        QCOMPARE(o.limiter, limiter);
        QCOMPARE(o.activeWarps, blocks * ((threads + 31) / 32));
        QVERIFY(!o.explanation.empty());
    }

    // wgmma_tma_tf32 256x128x4: 197696 B of dynamic shared memory and 168 registers
    // each allow one block of 288 threads. Both bind; shared memory, of which the block takes 85 %
    // of the SM (registers: 74 %), is named first, and the sentence names both.
    void tiedLimitsAreAllNamed()
    {
        const auto o = computeOccupancy(*findGpu("h200"), 288, 168, 197696);
        QCOMPARE(o.blocksPerSm, 1);
        QCOMPARE(o.limiter, OccupancyLimiter::SharedMemory);
        QCOMPARE(
            QString::fromStdString(o.explanation),
            QStringLiteral("1 block(s) of 288 threads per SM on NVIDIA H200 SXM, limited by shared memory "
                           "(197696 bytes per block) and registers (168 per thread)"));
        // Without the shared memory, registers alone.
        const auto alone = computeOccupancy(*findGpu("h200"), 288, 168, 0);
        QCOMPARE(alone.limiter, OccupancyLimiter::Registers);
        QVERIFY(!QString::fromStdString(alone.explanation).contains(QStringLiteral("shared memory")));
    }

    void unknownRegistersLeaveRegisterLimitOut()
    {
        const auto o = computeOccupancy(*findGpu("h200"), 256, 0, 0);
        QCOMPARE(o.blocksPerSm, 8);
        QCOMPARE(o.fraction, 1.0);
    }

    void impossibleBlock()
    {
        const auto o = computeOccupancy(*findGpu("h200"), 2048, 32, 0);
        QCOMPARE(o.blocksPerSm, 0);
        QVERIFY(QString::fromStdString(o.explanation).contains("cannot launch"));
    }
};

QTEST_APPLESS_MAIN(TstOccupancy)
#include "tst_occupancy.moc"
