// The ceilings cache (one JSON file per GPU): what it keeps, and when the runner measures the TF32
// roof again instead of trusting it — without a GPU (the measurement itself is tst_runner_gpu's).
#include "ceilings.h"
#include "ceilings_memory.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope::runner;

namespace {

DeviceInfo deviceOfArch(int arch)
{
    DeviceInfo device;
    device.spec.name = "Test GPU";
    device.spec.arch = arch;
    device.spec.sms = 132;
    device.uuid = QStringLiteral("GPU-0000-test");
    return device;
}

Ceilings measuredWith(const char *kernel, double tf32)
{
    Ceilings c;
    c.fmaTflops = 64.2;
    c.dramGBs = 4100;
    c.measuredAt = QStringLiteral("2026-12-01T10:00:00Z");
    c.tf32Tflops = tf32;
    c.tf32Kernel = QString::fromLatin1(kernel);
    return c;
}

} // namespace

class TestCeilingsCache : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTripKeepsTheTf32Kernel()
    {
        const DeviceInfo hopper = deviceOfArch(90);
        const QString path = ceilingsCachePath(m_dir.path(), hopper);
        QVERIFY(path.contains(QStringLiteral("GPU-0000-test")));
        storeCeilings(path, hopper, measuredWith(kTf32WgmmaPeakKernel, 471.5));
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->fmaTflops, 64.2);
        QCOMPARE(loaded->dramGBs, 4100.0);
        QCOMPARE(loaded->tf32Tflops, 471.5);
        QCOMPARE(loaded->tf32Kernel, QString::fromLatin1(kTf32WgmmaPeakKernel));
        QVERIFY(!tf32NeedsMeasuring(*loaded, hopper)); // measured the way this device measures
    }

    // The device picks the kernel: wgmma on sm_90 exactly, mma.sync on every other TF32 device.
    void eachDeviceMeasuresWithItsKernel()
    {
        QCOMPARE(QString::fromLatin1(tf32PeakKernel(90)), QString::fromLatin1(kTf32WgmmaPeakKernel));
        for (int arch : {80, 86, 89, 100, 120})
            QCOMPARE(QString::fromLatin1(tf32PeakKernel(arch)), QString::fromLatin1(kTf32MmaPeakKernel));
        QVERIFY(tf32PeakProgram(90).archSpecific);
        QVERIFY(!tf32PeakProgram(89).archSpecific);
        QVERIFY(!tf32PeakProgram(100).archSpecific);
    }

    // A Hopper cache measured with mma.sync (~65 % of what wgmma reaches) must not stand for ever:
    // the job measures the TF32 roof again. Elsewhere mma.sync is the kernel and the cache holds.
    void hopperMmaSyncCacheIsMeasuredAgain()
    {
        const QString path = m_dir.filePath(QStringLiteral("mma.json"));
        storeCeilings(path, deviceOfArch(90), measuredWith(kTf32MmaPeakKernel, 323));
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->tf32Kernel, QString::fromLatin1(kTf32MmaPeakKernel));
        QVERIFY(tf32NeedsMeasuring(*loaded, deviceOfArch(90)));
        for (int arch : {80, 86, 89, 100})
            QVERIFY2(!tf32NeedsMeasuring(*loaded, deviceOfArch(arch)), qPrintable(QString::number(arch)));
        // And the other way round: a wgmma figure is not the roof of a device that cannot run wgmma.
        QVERIFY(tf32NeedsMeasuring(measuredWith(kTf32WgmmaPeakKernel, 470), deviceOfArch(100)));
    }

    // A file written before the kernel's name was stored: its TF32 peak was mma.sync's, so it is
    // read as such; a Hopper measures again, an Ampere keeps it.
    void fileWithoutKernelNameWasMmaSync()
    {
        const QString path = m_dir.filePath(QStringLiteral("old.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"fma_tflops", 64.2},
                                          {"dram_gbs", 4100.0},
                                          {"measured_at", "2026-11-30T10:00:00Z"},
                                          {"tf32_tflops", 323.0}})
                    .toJson());
        f.close();
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->tf32Tflops, 323.0);
        QCOMPARE(loaded->tf32Kernel, QString::fromLatin1(kTf32MmaPeakKernel));
        QVERIFY(tf32NeedsMeasuring(*loaded, deviceOfArch(90)));
        QVERIFY(!tf32NeedsMeasuring(*loaded, deviceOfArch(80)));
    }

    // No TF32 peak in the cache: measured where the device has TF32, never on sm_75.
    void missingTf32IsMeasuredWhereItExists()
    {
        const Ceilings none = measuredWith("", 0);
        QVERIFY(tf32NeedsMeasuring(none, deviceOfArch(80)));
        QVERIFY(tf32NeedsMeasuring(none, deviceOfArch(90)));
        QVERIFY(!tf32NeedsMeasuring(none, deviceOfArch(75)));
        const QString path = m_dir.filePath(QStringLiteral("t4.json"));
        Ceilings t4 = measuredWith("", 0);
        t4.tf32Unavailable = tf32Unavailable(deviceOfArch(75));
        QVERIFY(!t4.tf32Unavailable.isEmpty());
        storeCeilings(path, deviceOfArch(75), t4);
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->tf32Tflops, 0.0);
        QVERIFY(loaded->tf32Kernel.isEmpty());
        QCOMPARE(loaded->tf32Unavailable, t4.tf32Unavailable);
    }

    // The hierarchical roofline's L2 and shared-memory bandwidths are kept with the benchmark that
    // measured them; a cache of this runner's benchmark is trusted as it is.
    void roundTripKeepsTheMemoryLevels()
    {
        const DeviceInfo hopper = deviceOfArch(90);
        const QString path = m_dir.filePath(QStringLiteral("levels.json"));
        Ceilings c = measuredWith(kTf32WgmmaPeakKernel, 471.5);
        c.l2GBs = 10250.5;
        c.sharedGBs = 33100.25;
        c.memoryBenchmark = QString::fromLatin1(kMemoryBenchmark);
        storeCeilings(path, hopper, c);
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->l2GBs, 10250.5);
        QCOMPARE(loaded->sharedGBs, 33100.25);
        QCOMPARE(loaded->memoryBenchmark, QString::fromLatin1(kMemoryBenchmark));
        QVERIFY(!memoryLevelsNeedMeasuring(*loaded));
        QVERIFY(!tf32NeedsMeasuring(*loaded, hopper));
    }

    // A cache file from before the memory levels (no l2_gbs, shared_gbs, memory_benchmark) still
    // loads with every figure it has; only the two levels are to be measured.
    void fileWithoutMemoryLevelsLoads()
    {
        const QString path = m_dir.filePath(QStringLiteral("before-levels.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"fma_tflops", 64.2},
                                          {"dram_gbs", 4100.0},
                                          {"measured_at", "2026-12-01T10:00:00Z"},
                                          {"tf32_tflops", 471.5},
                                          {"tf32_kernel", kTf32WgmmaPeakKernel}})
                    .toJson());
        f.close();
        const std::optional<Ceilings> loaded = loadCeilings(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->fmaTflops, 64.2);
        QCOMPARE(loaded->tf32Tflops, 471.5);
        QCOMPARE(loaded->l2GBs, 0.0);
        QCOMPARE(loaded->sharedGBs, 0.0);
        QVERIFY(memoryLevelsNeedMeasuring(*loaded));
        QVERIFY(!tf32NeedsMeasuring(*loaded, deviceOfArch(90)));
        // Stored without them, a file names no level (nothing to mistake for a measurement).
        storeCeilings(path, deviceOfArch(90), *loaded);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!written.contains(QStringLiteral("l2_gbs")));
        QVERIFY(!written.contains(QStringLiteral("shared_gbs")));
        QVERIFY(!written.contains(QStringLiteral("memory_benchmark")));
    }

    // Figures of another version of the benchmarks (or of none), or only one of the two: measured
    // again, never shown beside this runner's as if they were the same measurement.
    void otherMemoryBenchmarkIsMeasuredAgain()
    {
        Ceilings c = measuredWith(kTf32WgmmaPeakKernel, 471.5);
        c.l2GBs = 10250;
        c.sharedGBs = 33100;
        c.memoryBenchmark = QString::fromLatin1(kMemoryBenchmark);
        QVERIFY(!memoryLevelsNeedMeasuring(c));
        Ceilings other = c;
        other.memoryBenchmark = QStringLiteral("l2:ld.global.v4.f32;v0");
        QVERIFY(memoryLevelsNeedMeasuring(other));
        other.memoryBenchmark.clear();
        QVERIFY(memoryLevelsNeedMeasuring(other));
        Ceilings half = c;
        half.sharedGBs = 0;
        QVERIFY(memoryLevelsNeedMeasuring(half));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCeilingsCache)
#include "tst_ceilings_cache.moc"
