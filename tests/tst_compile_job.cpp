// The Compile action's report (Ctrl+B) through the runner's compile-only mode, which needs no GPU:
// the architecture actually built, all the shared memory a block holds (static and dynamic) and
// every resource that limits the blocks per SM (tf32-wgmma-tma was reported as "sm_90",
// "0 B shared memory per block" and "limited by registers" while it holds 193 KiB of dynamic
// shared memory, which alone allows one block per SM).
#include "compile_job.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace gemmscope;

class TestCompileJob : public QObject {
    Q_OBJECT
private slots:
    void tmaStageReportsItsDynamicSharedMemoryAndSm90a()
    {
        if (qEnvironmentVariableIsEmpty("GEMMSCOPE_RUNNER"))
            QSKIP("Built without the CUDA Toolkit: there is no runner to compile with.");
        const Preset *preset = findPreset("tf32-wgmma-tma");
        QVERIFY(preset);
        CompileJob job;
        QSignalSpy finished(&job, &CompileJob::finished);
        QSignalSpy failed(&job, &CompileJob::failed);
        QString whyNot;
        QVERIFY2(job.start(preset->stage, preset->params, ProblemSize{8192, 4096, 6144},
                           QStringLiteral("sm_90"), &whyNot),
                 qPrintable(whyNot));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 240000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const QString summary = finished.first().at(1).toString();

        // The architecture NVRTC was given: wgmma and TMA exist on sm_90a alone.
        QVERIFY2(summary.startsWith(QStringLiteral("sm_90a: ")), qPrintable(summary));
        // 4 stages x (256 + 128) rows x 32 floats, 1 KiB of alignment, 8 mbarriers: 197696 B.
        const QRegularExpressionMatch kib =
            QRegularExpression(QStringLiteral("([0-9.]+) KiB \\(0 B static \\+ ([0-9]+) B dynamic\\) shared "
                                              "memory per block"))
                .match(summary);
        QVERIFY2(kib.hasMatch(), qPrintable(summary));
        QVERIFY2(kib.captured(1).toDouble() >= 193.0, qPrintable(summary));
        QCOMPARE(kib.captured(2).toInt(), 197696);
        // One block per SM, and shared memory is what holds it there (registers tie).
        QVERIFY2(
            summary.contains(QStringLiteral("; 1 block(s) per SM, 14 % occupancy (limited by shared memory")),
            qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("and registers")), qPrintable(summary));
    }

    void summaryOfAStaticOnlyKernel()
    {
        protocol::CompiledInfo compiled;
        compiled.arch = QStringLiteral("sm_80");
        compiled.registers = 64;
        compiled.staticSmemBytes = 4096;
        protocol::OccupancyInfo occupancy;
        occupancy.blocksPerSm = 4;
        occupancy.fraction = 0.5;
        occupancy.limiter = OccupancyLimiter::Registers;
        occupancy.explanation = QStringLiteral(
            "4 block(s) of 256 threads per SM on NVIDIA A100, limited by registers (64 per thread)");
        compiled.occupancy = occupancy;
        QCOMPARE(CompileJob::summary(compiled),
                 QStringLiteral(
                     "sm_80: 64 registers per thread, no spills, 4.0 KiB (4096 B) shared memory per "
                     "block; 4 block(s) per SM, 50 % occupancy (limited by registers (64 per thread))"));
    }

    void builtArchitectureNamesTheSuffix()
    {
        QCOMPARE(CompileJob::builtArchitecture(StageId("wgmma_tma_tf32"), QStringLiteral("sm_90")),
                 QStringLiteral("sm_90a"));
        QCOMPARE(CompileJob::builtArchitecture(StageId("wgmma_tf32"), QStringLiteral("sm_90")),
                 QStringLiteral("sm_90a"));
        QCOMPARE(CompileJob::builtArchitecture(StageId::Coalesced, QStringLiteral("sm_90")),
                 QStringLiteral("sm_90"));
    }
};

QTEST_MAIN(TestCompileJob)
#include "tst_compile_job.moc"
