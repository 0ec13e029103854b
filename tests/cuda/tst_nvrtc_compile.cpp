// NVRTC compilation of every stage for the architectures CI cares about, without a GPU.
#include "ceilings.h"
#include "nvrtc_compiler.h"
#include "ptxas_log.h"
#include "runner_error.h"
#include "stage_catalog.h"
#include "stage_program.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;
using namespace gemmscope::runner;

class TestNvrtcCompile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_cache.isValid()); }

    void compilesEveryPreset_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("arch");
        for (const Preset &p : presets()) {
            const StageInfo &stage = stageInfo(p.stage);
            if (stage.isLibrary)
                continue;
            for (int arch : {75, 80, 90})
                if (archViolation(stage, arch).empty())
                    QTest::addRow("%s/sm_%d", p.key.c_str(), arch) << QString::fromStdString(p.key) << arch;
        }
    }
    void compilesEveryPreset()
    {
        QFETCH(QString, preset);
        QFETCH(int, arch);
        const Preset *p = findPreset(preset.toStdString());
        QVERIFY(p);
        const StageInfo &stage = stageInfo(p->stage);
        const NvrtcCompiler compiler(m_cache.path());
        CompiledKernel kernel;
        try {
            kernel = compiler.compile(stageProgram(stage, p->params, arch));
        } catch (const RunnerError &e) {
            QFAIL(qPrintable(e.message() + QStringLiteral("\n") + e.log()));
        }
        QVERIFY(kernel.cubin.size() > 64);
        QVERIFY2(kernel.cubin.startsWith("\x7f"
                                         "ELF"),
                 "NVRTC must return a CUBIN (ELF), not PTX");
        QVERIFY(!kernel.loweredName.isEmpty());
        QVERIFY2(kernel.cubin.contains(kernel.loweredName.toUtf8()),
                 "the CUBIN holds the lowered kernel name");
        QVERIFY2(kernel.ptxas.found, qPrintable(kernel.log));
        QVERIFY(kernel.ptxas.registers > 0);
        QVERIFY(kernel.ptxas.registers <= 255);
        QVERIFY2(kernel.log.contains(QStringLiteral("bytes spill stores")), qPrintable(kernel.log));
        QVERIFY(kernel.ptxas.spillStoreBytes >= 0 && kernel.ptxas.spillLoadBytes >= 0);
        // The analytic model's shared memory must be the compiled kernel's.
        const LaunchGeometry geometry = launchGeometry(stage.id, p->params, ProblemSize{});
        QCOMPARE(kernel.ptxas.staticSmemBytes, geometry.staticSmemBytes);
    }

    // The tensor-core stages compile to the instructions they are named after: mma.sync m16n8k8
    // TF32 (sm_80 and sm_90) and, built for sm_90a, wgmma.mma_async reading shared-memory
    // descriptors. A plain sm_90 build of wgmma would be refused by ptxas.
    void tensorCoreStagesUseTheirInstructions_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("arch");
        QTest::addColumn<QString>("instruction");
        QTest::newRow("mma/sm_80") << "tf32-mma" << 80
                                   << "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
        QTest::newRow("mma/sm_90") << "tf32-mma" << 90 << "ldmatrix.sync.aligned.m8n8.x4.shared.b16";
        QTest::newRow("wgmma/sm_90a")
            << "tf32-wgmma" << 90 << "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32";
    }
    void tensorCoreStagesUseTheirInstructions()
    {
        QFETCH(QString, preset);
        QFETCH(int, arch);
        QFETCH(QString, instruction);
        const Preset *p = findPreset(preset.toStdString());
        QVERIFY(p);
        NvrtcProgram program = stageProgram(stageInfo(p->stage), p->params, arch);
        program.needPtx = true;
        QTemporaryDir fresh;
        const CompiledKernel kernel = NvrtcCompiler(fresh.path()).compile(program);
        QVERIFY2(kernel.ptx.contains(instruction.toUtf8()), qPrintable(instruction));
        if (stageInfo(p->stage).archSpecific)
            QVERIFY(kernel.ptx.contains(".target sm_90a"));
    }

    // The persistent stage (sm_90a): its wgmma takes A from four 32-bit registers, B is rounded with
    // cvt.rna on its way into them, the producer warpgroup hands registers to the consumers with
    // setmaxnreg, and ptxas keeps every accumulator and fragment in registers: no spill, and no
    // wgmma serialised for want of registers (ptxas says so in its log: C7511, C7512).
    void persistentStageKeepsItsPipeline_data()
    {
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("wgmma");
        QTest::addColumn<int>("consumerRegisters");
        QTest::addColumn<int>("launchRegisters");
        QTest::newRow("preset 256x128") << "BM=256 BN=128 STAGES=4 A_ROUNDING=0 CLUSTER=1"
                                        << "m64n256k8" << 232 << 168;
        QTest::newRow("256x128, A rounded in shared memory")
            << "BM=256 BN=128 STAGES=4 A_ROUNDING=1 CLUSTER=1"
            << "m64n256k8" << 232 << 168;
        QTest::newRow("256x64") << "BM=256 BN=64 STAGES=4 A_ROUNDING=1 CLUSTER=1"
                                << "m64n256k8" << 232 << 232;
        QTest::newRow("64x256") << "BM=64 BN=256 STAGES=4 A_ROUNDING=0 CLUSTER=1"
                                << "m64n64k8" << 104 << 96;
        QTest::newRow("256x128 in 2-block clusters") << "BM=256 BN=128 STAGES=4 A_ROUNDING=0 CLUSTER=2"
                                                     << "m64n256k8" << 232 << 168;
    }
    void persistentStageKeepsItsPipeline()
    {
        QFETCH(QString, params);
        QFETCH(QString, wgmma);
        QFETCH(int, consumerRegisters);
        QFETCH(int, launchRegisters);
        const StageInfo &stage = *findStage("wgmma_persistent_tf32");
        ParamValues values;
        for (const QString &pair : params.split(QLatin1Char(' '))) {
            const QStringList kv = pair.split(QLatin1Char('='));
            values[kv[0].toStdString()] = kv[1].toInt();
        }
        QVERIFY(violations(stage.id, values, ProblemSize{}).empty());
        NvrtcProgram program = stageProgram(stage, values, 90);
        program.needPtx = true;
        QTemporaryDir fresh;
        const CompiledKernel kernel = NvrtcCompiler(fresh.path()).compile(program);
        const QString ptx = QString::fromUtf8(kernel.ptx);
        const QRegularExpression registerA(
            QStringLiteral("wgmma\\.mma_async\\.sync\\.aligned\\.%1\\.f32\\.tf32\\.tf32[^;]*\\}, \\{%r")
                .arg(wgmma));
        QVERIFY2(ptx.count(registerA) >= 4, qPrintable(wgmma));
        QVERIFY(ptx.contains(QStringLiteral("cvt.rna.tf32.f32")));
        QVERIFY(ptx.contains(QStringLiteral("setmaxnreg.dec.sync.aligned.u32 40")));
        QVERIFY(ptx.contains(QStringLiteral("setmaxnreg.inc.sync.aligned.u32 %1").arg(consumerRegisters)));
        QVERIFY(ptx.contains(QStringLiteral("cp.async.bulk.tensor.2d")));
        QVERIFY2(kernel.ptxas.found, qPrintable(kernel.log));
        QCOMPARE(kernel.ptxas.spillStoreBytes, 0);
        QCOMPARE(kernel.ptxas.spillLoadBytes, 0);
        QVERIFY2(!kernel.log.contains(QStringLiteral("serialized")), qPrintable(kernel.log));
        // The launch's share, which the producer's setmaxnreg.dec must free enough of.
        QCOMPARE(kernel.ptxas.registers, launchRegisters);
    }

    // The transpose that runs before a transposedB stage builds wherever such a stage can run.
    void transposeCompiles()
    {
        QVERIFY(findStage("wgmma_tf32")->transposedB);
        for (int arch : {75, 80, 90}) {
            QTemporaryDir fresh;
            const CompiledKernel kernel = NvrtcCompiler(fresh.path()).compile(transposeProgram(arch));
            QVERIFY2(kernel.cubin.startsWith("\x7f"
                                             "ELF"),
                     qPrintable(QString::number(arch)));
            QVERIFY(kernel.ptxas.found && kernel.ptxas.staticSmemBytes == 32 * 33 * 4);
        }
    }

    void wgmmaIsRefusedOffHopper()
    {
        const StageInfo &stage = *findStage("wgmma_tf32");
        QCOMPARE(nvrtcArchitecture(stage, 90), std::string("sm_90a"));
        QVERIFY(archViolation(stage, 90).empty());
        for (int arch : {80, 89, 100}) {
            bool refused = false;
            try {
                requireValidConfig(stage, defaultParams(stage.id), ProblemSize{}, arch);
            } catch (const RunnerError &e) {
                refused = e.kind() == ErrorKind::InvalidConfig &&
                          e.message().contains(QStringLiteral("sm_90a")) &&
                          e.message().contains(QStringLiteral("sm_%1").arg(arch));
            }
            QVERIFY2(refused, qPrintable(QString::number(arch)));
        }
    }

    // The TF32 roof's microbenchmark builds where TF32 exists and NVRTC refuses it for sm_75, which
    // is why the runner skips it there with tf32Unavailable(). sm_90 (Hopper) measures with wgmma,
    // built for sm_90a; sm_80, 86, 89 and 100 (which has no wgmma) with mma.sync.
    void tf32PeakBenchmarkCompiles_data()
    {
        QTest::addColumn<int>("arch");
        QTest::addColumn<bool>("compiles");
        QTest::addColumn<QString>("kernel");
        const QString mma = QString::fromLatin1(kTf32MmaPeakKernel);
        QTest::newRow("sm_75") << 75 << false << mma;
        QTest::newRow("sm_80") << 80 << true << mma;
        QTest::newRow("sm_89") << 89 << true << mma;
        QTest::newRow("sm_90") << 90 << true << QString::fromLatin1(kTf32WgmmaPeakKernel);
        QTest::newRow("sm_100") << 100 << true << mma;
    }
    void tf32PeakBenchmarkCompiles()
    {
        QFETCH(int, arch);
        QFETCH(bool, compiles);
        QFETCH(QString, kernel);
        QCOMPARE(QString::fromLatin1(tf32PeakKernel(arch)), kernel);
        NvrtcProgram program = tf32PeakProgram(arch);
        QCOMPARE(program.arch, arch);
        program.needPtx = true;
        const NvrtcCompiler compiler(m_cache.path());
        DeviceInfo device;
        device.spec.arch = arch;
        QCOMPARE(tf32Unavailable(device).isEmpty(), compiles);
        const bool wgmma = kernel == QLatin1String(kTf32WgmmaPeakKernel);
        try {
            const CompiledKernel compiled = compiler.compile(program);
            QVERIFY2(compiles, "sm_75 has no TF32, yet the benchmark compiled");
            QVERIFY2(!compiled.ptxas.found || compiled.ptxas.spillStoreBytes == 0, qPrintable(compiled.log));
            if (wgmma) {
                // Built for sm_90a (wgmma exists there alone) from the stages' wgmma_ops.cuh; groups of
                // four back-to-back m64n256k8, every one kept, however far the loop is unrolled.
                QVERIFY(compiled.ptx.contains(".target sm_90a"));
                const qsizetype wgmmas =
                    compiled.ptx.count("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32");
                QVERIFY2(wgmmas >= 4 && wgmmas % 4 == 0, qPrintable(QString::number(wgmmas)));
                QVERIFY(compiled.ptx.contains("wgmma.wait_group.sync.aligned 1"));
                QVERIFY(!compiled.ptx.contains("mma.sync"));
                // ptxas serialises wgmma it cannot pipeline, and says so: that would halve the roof.
                QVERIFY2(!compiled.log.contains(QStringLiteral("serialized")), qPrintable(compiled.log));
                // 128 accumulators a thread: one block (two warpgroups) an SM, no more registers than
                // two warpgroups may hold.
                QVERIFY2(compiled.ptxas.registers > 128 && compiled.ptxas.registers <= 255,
                         qPrintable(compiled.log));
            } else {
                // Eight independent mma.sync chains per iteration, every one kept (asm volatile); the
                // compiler may unroll the loop (NVRTC 13: x4 plus a remainder of one), never drop one.
                const qsizetype mmas =
                    compiled.ptx.count("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
                QVERIFY2(mmas >= 8 && mmas % 8 == 0, qPrintable(QString::number(mmas)));
                QVERIFY(!compiled.ptx.contains("wgmma"));
            }
        } catch (const RunnerError &e) {
            QVERIFY2(!compiles, qPrintable(e.message() + QLatin1Char('\n') + e.log()));
        }
    }

    void brokenSourceGivesCompileErrorWithLog()
    {
        NvrtcProgram program;
        program.mainSource =
            "#include \"common.cuh\"\n__global__ void broken(float *p) { p[0] = undefined_name; }\n";
        program.nameExpression = QStringLiteral("broken");
        program.arch = 80;
        const NvrtcCompiler compiler(m_cache.path());
        try {
            compiler.compile(program);
            QFAIL("a broken source compiled");
        } catch (const RunnerError &e) {
            QCOMPARE(e.kind(), ErrorKind::CompileError);
            QVERIFY2(e.log().contains(QStringLiteral("undefined_name")), qPrintable(e.log()));
            QVERIFY(e.message().contains(QStringLiteral("broken")));
        }
    }

    void secondCompileIsCacheHit()
    {
        QTemporaryDir fresh;
        const NvrtcCompiler compiler(fresh.path());
        const Preset *p = findPreset("worklog-3");
        QVERIFY(p);
        const NvrtcProgram program = stageProgram(stageInfo(p->stage), p->params, 90);
        const CompiledKernel first = compiler.compile(program);
        const CompiledKernel second = compiler.compile(program);
        QVERIFY(!first.cacheHit);
        QVERIFY(second.cacheHit);
        QCOMPARE(second.cubin, first.cubin);
        QCOMPARE(second.loweredName, first.loweredName);
        QCOMPARE(second.ptxas.registers, first.ptxas.registers);
        // The trace build is a different program and must not hit the plain build's entry.
        const CompiledKernel trace =
            compiler.compile(stageProgram(stageInfo(p->stage), p->params, 90, StageBuild::TraceOwner));
        QVERIFY(!trace.cacheHit);
        QVERIFY(trace.cubin != first.cubin);
        // So is the scalar-shared build (its inner-loop reads cannot be merged into LDS.128).
        const CompiledKernel scalar =
            compiler.compile(stageProgram(stageInfo(p->stage), p->params, 90, StageBuild::ScalarShared));
        QVERIFY(!scalar.cacheHit);
        QVERIFY(scalar.cubin != first.cubin);
        QCOMPARE(scalar.ptxas.staticSmemBytes, first.ptxas.staticSmemBytes);
    }

    // Every ladder preset also compiles in the scalar-shared build the counter comparison uses.
    void scalarSharedBuildCompiles()
    {
        QTemporaryDir fresh;
        const NvrtcCompiler compiler(fresh.path());
        for (const Preset &p : presets()) {
            if (stageInfo(p.stage).isLibrary)
                continue;
            const CompiledKernel k =
                compiler.compile(stageProgram(stageInfo(p.stage), p.params, 90, StageBuild::ScalarShared));
            QVERIFY2(!k.cubin.isEmpty(), p.key.c_str());
            QVERIFY2(k.ptxas.registers > 0, p.key.c_str());
        }
    }

    void unknownBuildIsRefused()
    {
        bool refused = false;
        try {
            stageBuild(QStringLiteral("fast"));
        } catch (const RunnerError &e) {
            refused =
                e.kind() == ErrorKind::InvalidConfig && e.message().contains(QStringLiteral("scalar_shared"));
        }
        QVERIFY(refused);
        QCOMPARE(stageBuild(QString()), StageBuild::Release);
        QCOMPARE(stageBuild(QStringLiteral("release")), StageBuild::Release);
        QCOMPARE(stageBuild(QStringLiteral("scalar_shared")), StageBuild::ScalarShared);
    }

    void parsesPtxasLog_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("lowered");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("spillStores");
        QTest::addColumn<int>("spillLoads");
        QTest::addColumn<int>("stack");
        QTest::addColumn<int>("smem");
        const QString two = QStringLiteral(
            "ptxas info    : 0 bytes gmem\n"
            "ptxas info    : Compiling entry function '_Z1av' for 'sm_90'\n"
            "ptxas info    : Function properties for _Z1av\n"
            "ptxas         .     8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
            "ptxas info    : Used 255 registers, used 1 barriers, 8 bytes cumulative stack size, 36864 bytes "
            "smem\n"
            "ptxas info    : Compiling entry function '_Z1bv' for 'sm_90'\n"
            "ptxas info    : Function properties for _Z1bv\n"
            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
            "ptxas info    : Used 40 registers, 360 bytes cmem[0]\n");
        QTest::newRow("first of two") << two << "_Z1av" << 255 << 4 << 12 << 8 << 36864;
        QTest::newRow("second of two, no smem") << two << "_Z1bv" << 40 << 0 << 0 << 0 << 0;
        QTest::newRow("unnamed takes first") << two << "" << 255 << 4 << 12 << 8 << 36864;
    }
    void parsesPtxasLog()
    {
        QFETCH(QString, log);
        QFETCH(QString, lowered);
        const PtxasInfo info = parsePtxasLog(log, lowered);
        QVERIFY(info.found);
        QTEST(info.registers, "registers");
        QTEST(info.spillStoreBytes, "spillStores");
        QTEST(info.spillLoadBytes, "spillLoads");
        QTEST(info.stackFrameBytes, "stack");
        QTEST(info.staticSmemBytes, "smem");
    }

    void logWithoutRegistersIsNotFound()
    {
        QVERIFY(!parsePtxasLog(QStringLiteral("error: something else")).found);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestNvrtcCompile)
#include "tst_nvrtc_compile.moc"
