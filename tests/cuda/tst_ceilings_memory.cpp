// The hierarchical roofline's memory microbenchmarks (ceilings_memory.h), without a GPU: NVRTC
// builds both for every architecture the runner supports, and the PTX keeps exactly the loads the
// bandwidth figures count (128-bit L2-only global loads; 128-bit volatile shared loads, eight an
// iteration), without spills. tst_ceilings_gpu measures them on a GPU.
#include "ceilings_memory.h"
#include "nvrtc_compiler.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope::runner;

class TestCeilingsMemory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_cache.isValid()); }

    void benchmarksCompile_data()
    {
        QTest::addColumn<int>("arch");
        for (int arch : {75, 80, 86, 89, 90, 100})
            QTest::addRow("sm_%d", arch) << arch;
    }
    void benchmarksCompile()
    {
        QFETCH(int, arch);
        const NvrtcCompiler compiler(m_cache.path());

        NvrtcProgram l2 = l2BandwidthProgram(arch);
        l2.needPtx = true;
        QVERIFY(!l2.archSpecific && !l2.withKernelHeaders);
        const CompiledKernel l2Kernel = compiler.compile(l2);
        // Only ld.global.cg (L2, never L1) and 128-bit: every load is 16 bytes of L2 traffic.
        QVERIFY2(l2Kernel.ptx.contains("ld.global.cg.v4.f32"), l2Kernel.ptx.constData());
        QVERIFY2(!QString::fromLatin1(l2Kernel.ptx)
                      .contains(QRegularExpression(QStringLiteral("ld\\.global\\.(?!cg\\.v4)"))),
                 l2Kernel.ptx.constData());
        QVERIFY2(!l2Kernel.ptxas.found || l2Kernel.ptxas.spillStoreBytes == 0, qPrintable(l2Kernel.log));

        NvrtcProgram shared = sharedBandwidthProgram(arch);
        shared.needPtx = true;
        const CompiledKernel sharedKernel = compiler.compile(shared);
        // Eight 128-bit shared loads an iteration, each kept (volatile): the loop may be unrolled,
        // never a load dropped or merged.
        const qsizetype loads = sharedKernel.ptx.count("ld.volatile.shared.v4.f32");
        QVERIFY2(loads >= 8 && loads % 8 == 0, qPrintable(QString::number(loads)));
        QVERIFY2(!sharedKernel.ptxas.found || sharedKernel.ptxas.spillStoreBytes == 0,
                 qPrintable(sharedKernel.log));
        // 16 KiB of static shared memory a block: eight blocks of 256 threads fit every SM since sm_75.
        if (sharedKernel.ptxas.found)
            QCOMPARE(sharedKernel.ptxas.staticSmemBytes, 16384);
    }

    // About a third of the L2: it stays in L2 between passes however the hardware splits it
    // (Hopper's two partitions of 30 MB each on the H200). Loads a thread: a multiple of four (the
    // kernel loads four at a time, unchecked), never fewer than four.
    void l2BufferIsAThirdOfTheL2_data()
    {
        QTest::addColumn<double>("l2Bytes");
        QTest::addColumn<long long>("threads");
        QTest::addColumn<int>("loads");
        const double mib = 1024.0 * 1024.0;
        QTest::newRow("H200") << 60 * mib << 132LL * 2048 << 4;    // 4.85 -> 4: 17.3 MB of 20
        QTest::newRow("small grid") << 60 * mib << 1000LL << 1308; // 1310.72 -> 1308
        QTest::newRow("T4") << 4 * mib << 40LL * 1024 << 4;        // 2.1 -> at least 4: 2.6 MB of 4
        QTest::newRow("no L2 size") << 0.0 << 1000LL << 128;       // 2 MiB: 131 -> 128
        QTest::newRow("negative L2 size") << -1.0 << 1000LL << 128;
    }
    void l2BufferIsAThirdOfTheL2()
    {
        QFETCH(double, l2Bytes);
        QFETCH(long long, threads);
        QFETCH(int, loads);
        const int perThread = l2LoadsPerThread(l2Bytes, threads);
        QCOMPARE(perThread, loads);
        QCOMPARE(perThread % 4, 0);
        if (perThread > 4) // more than the minimum: within the third
            QVERIFY(double(perThread) * double(threads) * 16 <=
                    (l2Bytes > 0 ? l2Bytes : 2 * 1024 * 1024 * 3.0) / 3);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestCeilingsMemory)
#include "tst_ceilings_memory.moc"
