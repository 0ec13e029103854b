// NVRTC compilation of every stage for the architectures CI cares about, without a GPU.
#include "nvrtc_compiler.h"
#include "ptxas_log.h"
#include "runner_error.h"
#include "stage_catalog.h"
#include "stage_program.h"

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
                if (arch >= stage.minArch)
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
