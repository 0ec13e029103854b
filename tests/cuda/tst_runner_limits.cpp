// The runner at its limits: request lines have a length cap, a wrongly typed "build"
// is a protocol error, architectures below CUDA 13's floor are refused by the catalog with the
// reason, configurations that compile but cannot launch are refused with their numbers in
// compile-only mode, and the CUBIN cache never hands out a kernel whose registers are unknown.
// No GPU needed.
#include "../support/runner_process.h"
#include "cubin_cache.h"
#include "nvrtc_compiler.h"
#include "runner_service.h"
#include "stage_catalog.h"
#include "stage_program.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sstream>

using namespace gemmscope;
using namespace gemmscope::runner;

namespace {

QJsonObject paramsOf(const ParamValues &values)
{
    QJsonObject o;
    for (const auto &[k, v] : values)
        o.insert(QString::fromStdString(k), v);
    return o;
}

QJsonObject compileRequest(const QString &id, const QString &stage, const ParamValues &params,
                           const QString &arch = QStringLiteral("sm_90"))
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("compile")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("stage"), stage},
                       {QStringLiteral("params"), paramsOf(params)},
                       {QStringLiteral("arch"), arch}};
}

const QStringList kFinal{QStringLiteral("compiled"), QStringLiteral("error")};

} // namespace

Q_DECLARE_METATYPE(gemmscope::ParamValues)

class TestRunnerLimits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        QVERIFY(m_cache.isValid());
    }

    // --- the line cap, the runner's side: readBoundedLine ---
    void boundedLinesSplitAsGetlineDoes()
    {
        std::istringstream in("one\n\ntwo\r\nlast");
        std::string line;
        QStringList lines;
        while (readBoundedLine(in, line, 100) == LineRead::Line)
            lines << QString::fromStdString(line);
        QCOMPARE(lines, (QStringList{"one", "", "two\r", "last"}));
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::End);
    }

    void overlongLineIsSkippedToItsEnd()
    {
        std::istringstream in(std::string(50, 'a') + "\n" + std::string(500, 'b') + "\nafter\n" +
                              std::string(200, 'c'));
        std::string line;
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::Line);
        QCOMPARE(line.size(), std::size_t(50));
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::TooLong);
        QVERIFY(line.empty());
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::Line);
        QCOMPARE(line, std::string("after"));
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::TooLong); // the last, unterminated
        QCOMPARE(readBoundedLine(in, line, 100), LineRead::End);
    }

    // Before: one 256 MB line held 720 MB in the runner. Now it is skipped with a protocol_error
    // and the runner goes on serving.
    void runnerSkipsALineOverTheCap()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        const QByteArray huge(qsizetype(kMaxRequestLineBytes) + 1024, 'x');
        runner.process.write(huge);
        runner.send(QByteArray()); // its end
        const QJsonObject error = runner.next(120000);
        QCOMPARE(error.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("protocol_error"));
        QVERIFY2(
            error.value(QStringLiteral("message")).toString().contains(QStringLiteral("longer than 64 MiB")),
            qPrintable(error.value(QStringLiteral("message")).toString()));
        runner.send(compileRequest(QStringLiteral("after"), QStringLiteral("coalesced"),
                                   findPreset("worklog-3")->params));
        const QJsonObject compiled = runner.waitFor(QStringLiteral("after"), kFinal);
        QCOMPARE(compiled.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
    }

    // --- "build": 5 was taken as the release build ---
    void wronglyTypedBuildIsAProtocolError_data()
    {
        QTest::addColumn<QJsonValue>("build");
        QTest::newRow("5") << QJsonValue(5);
        QTest::newRow("true") << QJsonValue(true);
        QTest::newRow("object") << QJsonValue(QJsonObject{});
    }
    void wronglyTypedBuildIsAProtocolError()
    {
        QFETCH(QJsonValue, build);
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        QJsonObject request =
            compileRequest(QStringLiteral("b"), QStringLiteral("coalesced"), findPreset("worklog-3")->params);
        request.insert(QStringLiteral("build"), build);
        runner.send(request);
        const QJsonObject answer = runner.waitFor(QStringLiteral("b"), kFinal);
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("protocol_error"));
        QVERIFY(answer.value(QStringLiteral("message")).toString().contains(QStringLiteral("\"build\"")));
    }

    // --- sm_50..sm_70 passed the catalog and failed in NVRTC with compile_error ---
    void archBelowCuda13sFloorIsRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("arch");
        for (const char *arch : {"sm_50", "sm_60", "sm_70", "sm_72"})
            QTest::newRow(arch) << QString::fromLatin1(arch);
    }
    void archBelowCuda13sFloorIsRefusedWithTheReason()
    {
        QFETCH(QString, arch);
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("a"), QStringLiteral("naive"),
                                   defaultParams(StageId::Naive), arch));
        const QJsonObject answer = runner.waitFor(QStringLiteral("a"), kFinal);
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        const QString message = answer.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("sm_75")) && message.contains(QStringLiteral("CUDA 13")),
                 qPrintable(message));
    }

    // --- compiled with blocks_per_sm = 0 and would have failed at launch ---
    void compilesButCannotLaunchIsOutOfResources_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<ParamValues>("params");
        QTest::addColumn<int>("threads");
        QTest::newRow("final 256x256/BK24/4x16")
            << "final" << ParamValues{{"BM", 256}, {"BN", 256}, {"BK", 24}, {"TM", 4}, {"TN", 16}} << 1024;
    }
    void compilesButCannotLaunchIsOutOfResources()
    {
        QFETCH(QString, stage);
        QFETCH(ParamValues, params);
        QFETCH(int, threads);
        QVERIFY(violations(findStage(stage.toStdString())->id, params, ProblemSize{}).empty());
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("big"), stage, params, QStringLiteral("sm_90")));
        const QJsonObject answer = runner.waitFor(QStringLiteral("big"), kFinal, 600000);
        QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("out_of_resources"));
        const QString message = answer.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("x %1 threads").arg(threads)) &&
                     message.contains(QStringLiteral("65536")) &&
                     message.contains(QStringLiteral("cannot launch")),
                 qPrintable(message));
    }

    // --- a cache entry without registers was handed out forever ---
    void cacheNeverHandsOutUnknownRegisters()
    {
        QTemporaryDir cache;
        const NvrtcCompiler compiler(cache.path());
        const Preset *preset = findPreset("worklog-2");
        const NvrtcProgram program = stageProgram(stageInfo(preset->stage), preset->params, 80);
        const CompiledKernel first = compiler.compile(program);
        QVERIFY2(first.ptxas.found, qPrintable(first.log));
        QCOMPARE(first.resourcesSource, QStringLiteral("ptxas"));
        QVERIFY(!first.cacheHit);
        const QString base =
            QDir(cache.path()).filePath(QStringLiteral("cubin/") + NvrtcCompiler::cacheKey(program));
        QVERIFY(QFile::exists(base + QStringLiteral(".info")));
        QCOMPARE(compiler.compile(program).cacheHit, true);
        // What the warm H200 left: a 0-byte log and no recorded registers.
        QFile::resize(base + QStringLiteral(".log"), 0);
        QFile::remove(base + QStringLiteral(".info"));
        const CompiledKernel again = compiler.compile(program);
        QVERIFY2(!again.cacheHit, "an entry without registers must be compiled again, not used");
        QCOMPARE(again.ptxas.registers, first.ptxas.registers);
        QCOMPARE(compiler.compile(program).ptxas.registers, first.ptxas.registers);
        // An entry written with an empty log (as a warm machine's ptxas leaves it) whose info
        // recorded the numbers is complete. (A log cut short behind the cache's back is a torn
        // entry, compiled again: tst_cubin_cache.)
        const CubinCache store(QDir(cache.path()).filePath(QStringLiteral("cubin")));
        std::optional<CachedCubin> entry = store.load(NvrtcCompiler::cacheKey(program));
        QVERIFY(entry);
        entry->log.clear();
        QVERIFY(store.store(NvrtcCompiler::cacheKey(program), *entry));
        const CompiledKernel fromInfo = compiler.compile(program);
        QVERIFY(fromInfo.cacheHit);
        QCOMPARE(fromInfo.ptxas.registers, first.ptxas.registers);
        QCOMPARE(fromInfo.ptxas.staticSmemBytes, first.ptxas.staticSmemBytes);
    }

    void compiledEventSaysWhereRegistersCameFrom()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("src"), QStringLiteral("coalesced"),
                                   findPreset("worklog-3")->params, QStringLiteral("sm_80")));
        const QJsonObject compiled = runner.waitFor(QStringLiteral("src"), kFinal);
        QCOMPARE(compiled.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
        QVERIFY(QStringList({"ptxas", "cuda_runtime"})
                    .contains(compiled.value(QStringLiteral("resources_source")).toString()));
        QVERIFY(compiled.value(QStringLiteral("registers")).toInt() > 0);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestRunnerLimits)
#include "tst_runner_limits.moc"
