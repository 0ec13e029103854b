// The hierarchical roofline on a real GPU: the ceilings job's L2 and shared-memory
// bandwidths lie between the DRAM bandwidth and the hardware's limits (L2 roof between the DRAM
// and shared roofs), an old cache gets them measured once, and a run with counters reports every
// level's bytes and intensity in the order the hardware guarantees.
// Without a GPU every test skips with the runner's own no_gpu sentence.
#include "../support/runner_process.h"
#include "ceilings.h"
#include "ceilings_memory.h"
#include "gpu_device.h"
#include "stage_catalog.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;

namespace {

const QStringList kFinal{QStringLiteral("result"), QStringLiteral("error"), QStringLiteral("ceilings")};

QJsonObject paramsJson(const ParamValues &params)
{
    QJsonObject o;
    for (const auto &[k, v] : params)
        o.insert(QString::fromStdString(k), v);
    return o;
}

QJsonObject countersRun(const QString &id, const Preset &preset, long long size)
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("run")},
        {QStringLiteral("id"), id},
        {QStringLiteral("stage"), QString::fromStdString(stageInfo(preset.stage).key)},
        {QStringLiteral("params"), paramsJson(preset.params)},
        {QStringLiteral("size"), QJsonObject{{"m", double(size)}, {"n", double(size)}, {"k", double(size)}}},
        {QStringLiteral("timing"),
         QJsonObject{{"warmup", 1}, {"budget_ms", 0}, {"min_reps", 2}, {"max_reps", 2}}},
        {QStringLiteral("counters"), true}};
}

} // namespace

class TestCeilingsGpu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        QVERIFY(m_cache.isValid());
        m_runner = std::make_unique<RunnerProcess>(m_cache.path()); // a cache of its own: measured here
        m_ready = m_runner->start();
        GEMMSCOPE_REQUIRE_GPU_RUNNER(m_ready);
    }

    // The test: the L2 roof lies between the DRAM and the shared roofs. Each figure is
    // positive and under a generous physical bound: an SM's L1/shared SRAM delivers at most 128
    // bytes a clock (every architecture since Volta), so no level can pass 2 x 128 B x SMs x the
    // nominal (boost) clock.
    void l2RoofLiesBetweenDramAndShared()
    {
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                                   {QStringLiteral("id"), QStringLiteral("c1")},
                                   {QStringLiteral("refresh"), true}});
        const QJsonObject c = m_runner->waitFor(QStringLiteral("c1"), kFinal);
        QVERIFY2(c.value(QStringLiteral("event")).toString() == QStringLiteral("ceilings"),
                 qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
        const double dram = c.value(QStringLiteral("dram_gbs")).toDouble();
        const double l2 = c.value(QStringLiteral("l2_gbs")).toDouble();
        const double shared = c.value(QStringLiteral("shared_gbs")).toDouble();
        const QJsonObject gpu = m_ready.value(QStringLiteral("gpu")).toObject();
        const double sms = gpu.value(QStringLiteral("sms")).toDouble();
        const double clockMhz = gpu.value(QStringLiteral("sm_clock_mhz")).toDouble();
        const double bound = 2 * 128.0 * sms * clockMhz * 1e6 / 1e9; // GB/s
        qInfo("ceilings on %s: DRAM %.0f GB/s, L2 %.0f GB/s, shared %.0f GB/s (bound %.0f GB/s)",
              qPrintable(gpu.value(QStringLiteral("name")).toString()), dram, l2, shared, bound);
        QVERIFY(sms > 0 && clockMhz > 0);
        QVERIFY2(dram > 0 && l2 > 0 && shared > 0,
                 qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
        QVERIFY2(dram < l2, qPrintable(QStringLiteral("DRAM %1 GB/s, L2 %2 GB/s").arg(dram).arg(l2)));
        QVERIFY2(l2 < shared, qPrintable(QStringLiteral("L2 %1 GB/s, shared %2 GB/s").arg(l2).arg(shared)));
        QVERIFY2(shared < bound,
                 qPrintable(QStringLiteral("shared %1 GB/s, bound %2").arg(shared).arg(bound)));

        // Asked again without refresh: the cached figures, the same.
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                                   {QStringLiteral("id"), QStringLiteral("c2")}});
        const QJsonObject cached = m_runner->waitFor(QStringLiteral("c2"), kFinal);
        QCOMPARE(cached.value(QStringLiteral("cached")).toBool(), true);
        QCOMPARE(cached.value(QStringLiteral("l2_gbs")).toDouble(), l2);
        QCOMPARE(cached.value(QStringLiteral("shared_gbs")).toDouble(), shared);
    }

    // A cache written before the memory levels: only they are measured, once; the rest is kept.
    void oldCacheGetsTheMemoryLevels()
    {
        QTemporaryDir cacheDir;
        QVERIFY(cacheDir.isValid());
        const QJsonObject gpu = m_ready.value(QStringLiteral("gpu")).toObject();
        runner::DeviceInfo device;
        device.spec.name = gpu.value(QStringLiteral("name")).toString().toStdString();
        device.uuid = gpu.value(QStringLiteral("uuid")).toString();
        const int arch = runner::parseArch(gpu.value(QStringLiteral("arch")).toString());
        QJsonObject old{{"fma_tflops", 12.5}, {"dram_gbs", 1000.0}, {"measured_at", "2026-11-30T10:00:00Z"}};
        if (arch >= 80) { // with this device's TF32 roof, so that only the memory levels are missing
            old.insert(QStringLiteral("tf32_tflops"), 3.25);
            old.insert(QStringLiteral("tf32_kernel"), QString::fromLatin1(runner::tf32PeakKernel(arch)));
        }
        const QString path = runner::ceilingsCachePath(cacheDir.path(), device);
        QFile stale(path);
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write(QJsonDocument(old).toJson());
        stale.close();

        RunnerProcess fresh(cacheDir.path());
        QCOMPARE(fresh.start().value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        fresh.send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                               {QStringLiteral("id"), QStringLiteral("c")}});
        const QJsonObject c = fresh.waitFor(QStringLiteral("c"), kFinal);
        QCOMPARE(c.value(QStringLiteral("event")).toString(), QStringLiteral("ceilings"));
        QCOMPARE(c.value(QStringLiteral("cached")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("fma_tflops")).toDouble(), 12.5); // kept
        QCOMPARE(c.value(QStringLiteral("dram_gbs")).toDouble(), 1000.0);
        if (arch >= 80)
            QCOMPARE(c.value(QStringLiteral("tf32_tflops")).toDouble(), 3.25);
        QVERIFY(c.value(QStringLiteral("l2_gbs")).toDouble() > 0);
        QVERIFY(c.value(QStringLiteral("shared_gbs")).toDouble() > 0);
        const std::optional<runner::Ceilings> stored = runner::loadCeilings(path);
        QVERIFY(stored);
        QCOMPARE(stored->l2GBs, c.value(QStringLiteral("l2_gbs")).toDouble());
        QCOMPARE(stored->memoryBenchmark, QString::fromLatin1(runner::kMemoryBenchmark));
    }

    // A run with counters reports the L1 and shared bytes and the L1/shared intensity beside the L2
    // and DRAM ones. What is asserted is what the hardware guarantees for these kernels:
    // - L1 bytes >= compulsory bytes: every byte of A and B reaches an SM, and every byte of C leaves
    //   it, through an L1 (LSU) request; these kernels use no TMA.
    // - L2 bytes >= DRAM bytes: DRAM moves a sector only to fill an L2 miss or write back a dirty
    //   line, each on behalf of an L2 request; with every access whole, coalesced 32-byte sectors
    //   (7680 is a multiple of every tile) no request fetches more than it asked for.
    // - L1 + shared bytes >= L2 bytes holds NOT in general (a kernel reading global memory straight
    //   into registers, with no reuse in L1, has L1 bytes near its L2 request bytes, and Hopper's L2
    //   also counts requests forwarded between its two partitions). worklog-3 and worklog-8 stage every
    //   global byte through shared memory and read it back 16 times (4x4 and 12x12 outputs a thread):
    //   their shared bytes alone are ~16x the global bytes they load, so it holds for them by far.
    void countersReportEveryLevel()
    {
        constexpr long long size = 7680; // 40 x 192 = 120 x 64: every tile of both kernels is full
        const double flops = 2.0 * double(size) * double(size) * double(size);
        const double compulsory = 4.0 * 3.0 * double(size) * double(size); // A, B read, C written (FP32)
        for (const char *key : {"worklog-3", "worklog-8"}) {
            const QString id = QStringLiteral("hw-") + QLatin1String(key);
            m_runner->send(countersRun(id, *findPreset(key), size));
            const QJsonObject answer = m_runner->waitFor(id, kFinal, 900000);
            QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                     qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
            const QJsonObject c = answer.value(QStringLiteral("counters")).toObject();
            QVERIFY2(!c.isEmpty(), "a run with counters must carry a counters object");
            if (c.value(QStringLiteral("error")).isString())
                QSKIP(qPrintable(QStringLiteral("counters unavailable: ") + c.value("error").toString()));
            const double dram = c.value(QStringLiteral("dram_read_bytes")).toDouble() +
                                c.value(QStringLiteral("dram_write_bytes")).toDouble();
            const double l2 = c.value(QStringLiteral("l2_bytes")).toDouble();
            const double l1 = c.value(QStringLiteral("l1_bytes")).toDouble();
            const double shared = c.value(QStringLiteral("shared_bytes")).toDouble();
            const double l1Intensity = c.value(QStringLiteral("l1_intensity")).toDouble();
            qInfo("%s: DRAM %.0f MB, L2 %.0f MB, L1 %.0f MB, shared %.0f MB; intensity DRAM %.2f, L2 %.2f, "
                  "L1/shared %.3f FLOP/B",
                  key, dram / 1e6, l2 / 1e6, l1 / 1e6, shared / 1e6,
                  c.value(QStringLiteral("dram_intensity")).toDouble(),
                  c.value(QStringLiteral("l2_intensity")).toDouble(), l1Intensity);
            const QJsonObject metrics = c.value(QStringLiteral("metrics")).toObject();
            QCOMPARE(metrics.value(QStringLiteral("l1tex__t_bytes.sum")).toDouble(), l1);
            QCOMPARE(metrics.value(QStringLiteral("sm__sass_data_bytes_mem_shared.sum")).toDouble(), shared);
            QVERIFY2(shared > 0, key); // both kernels stage their tiles in shared memory
            QVERIFY(qFuzzyCompare(l1Intensity, flops / (l1 + shared)));
            QVERIFY2(l1 >= compulsory, qPrintable(QStringLiteral("%1: L1 %2 < compulsory %3")
                                                      .arg(QLatin1String(key))
                                                      .arg(l1)
                                                      .arg(compulsory)));
            QVERIFY2(
                l2 >= dram,
                qPrintable(QStringLiteral("%1: L2 %2 < DRAM %3").arg(QLatin1String(key)).arg(l2).arg(dram)));
            QVERIFY2(l1 + shared >= l2, qPrintable(QStringLiteral("%1: L1+shared %2 < L2 %3")
                                                       .arg(QLatin1String(key))
                                                       .arg(l1 + shared)
                                                       .arg(l2)));
        }
    }

private:
    QTemporaryDir m_cache;
    std::unique_ptr<RunnerProcess> m_runner;
    QJsonObject m_ready;
};

QTEST_GUILESS_MAIN(TestCeilingsGpu)
#include "tst_ceilings_gpu.moc"
