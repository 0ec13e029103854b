// gemmscope-runner over its protocol (docs/protocol.md), as the GUI and the benchmark drive it.
// Runs with or without a GPU: compile jobs need none; a run job answers no_gpu or a result.
#include "../support/runner_process.h"
#include "gpu_device.h"
#include "machine_code.h"
#include "stage_catalog.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <cuda_runtime_api.h>

using namespace gemmscope;

namespace {

QJsonObject params(const char *presetKey)
{
    QJsonObject o;
    for (const auto &[k, v] : findPreset(presetKey)->params)
        o.insert(QString::fromStdString(k), v);
    return o;
}

QJsonObject compileRequest(const QString &id, const char *presetKey,
                           const QString &arch = QStringLiteral("sm_80"))
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("compile")},
        {QStringLiteral("id"), id},
        {QStringLiteral("stage"), QString::fromStdString(stageInfo(findPreset(presetKey)->stage).key)},
        {QStringLiteral("params"), params(presetKey)},
        {QStringLiteral("arch"), arch}};
}

} // namespace

class TestRunnerProtocol : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        QVERIFY(m_cache.isValid());
    }

    void readyEventSaysProtocol1()
    {
        RunnerProcess runner(m_cache.path());
        const QJsonObject ready = runner.start();
        QCOMPARE(ready.value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        QCOMPARE(ready.value(QStringLiteral("protocol")).toInt(), 1);
        QVERIFY(!ready.value(QStringLiteral("nvrtc")).toString().isEmpty());
        if (ready.value(QStringLiteral("gpu")).isNull()) {
            const QJsonObject why = ready.value(QStringLiteral("gpu_error")).toObject();
            QCOMPARE(why.value(QStringLiteral("kind")).toString(), QStringLiteral("no_gpu"));
            QVERIFY(why.value(QStringLiteral("message")).toString().size() > 20);
        } else {
            const QJsonObject gpu = ready.value(QStringLiteral("gpu")).toObject();
            QVERIFY(!gpu.value(QStringLiteral("name")).toString().isEmpty());
            QVERIFY(gpu.value(QStringLiteral("sms")).toInt() > 0);
            QVERIFY(gpu.value(QStringLiteral("arch")).toString().startsWith(QStringLiteral("sm_")));
        }
    }

    // A machine without libcuda.so.1 is told its driver is missing, and not, in the same breath,
    // that it is "insufficient" (the runtime's name for both a missing and an old driver).
    void missingDriverIsNotCalledInsufficient()
    {
        const QString missing = runner::noGpuSentence(cudaErrorInsufficientDriver, false);
        QVERIFY2(missing.contains(QStringLiteral("No CUDA driver is installed")), qPrintable(missing));
        QVERIFY2(!missing.contains(QStringLiteral("insufficient"), Qt::CaseInsensitive), qPrintable(missing));
        QCOMPARE(runner::noGpuSentence(cudaErrorStubLibrary, false), missing);
        // An old driver is one: that sentence keeps the runtime's words.
        const QString old = runner::noGpuSentence(cudaErrorInsufficientDriver, true);
        QVERIFY2(old.contains(QStringLiteral("older than")) &&
                     !old.contains(QStringLiteral("No CUDA driver")),
                 qPrintable(old));

        // And as the runner says it at start-up, where this machine has no driver.
        RunnerProcess runner(m_cache.path());
        const QJsonObject ready = runner.start();
        const QString why =
            ready.value(QStringLiteral("gpu_error")).toObject().value(QStringLiteral("message")).toString();
        if (!why.contains(QStringLiteral("No CUDA driver")))
            QSKIP("This machine has a CUDA driver: the start-up sentence is another one.");
        QVERIFY2(!why.contains(QStringLiteral("insufficient"), Qt::CaseInsensitive), qPrintable(why));
    }

    void compileJobAnswersCompiled()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("c1"), "worklog-3"));
        const QJsonObject compiled =
            runner.waitFor(QStringLiteral("c1"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(compiled.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
        const Preset *p = findPreset("worklog-3");
        QCOMPARE(compiled.value(QStringLiteral("kernel")).toString(),
                 QString::fromStdString(kernelNameExpression(p->stage, p->params)));
        QCOMPARE(compiled.value(QStringLiteral("arch")).toString(), QStringLiteral("sm_80"));
        QVERIFY(compiled.value(QStringLiteral("registers")).toInt() > 0);
        QVERIFY(compiled.value(QStringLiteral("ptxas_log")).toString().contains(QStringLiteral("registers")));
        const QJsonObject occupancy = compiled.value(QStringLiteral("occupancy")).toObject();
        QVERIFY(occupancy.value(QStringLiteral("blocks_per_sm")).toInt() > 0);
        QVERIFY(QStringList({"threads", "registers", "shared_memory", "blocks"})
                    .contains(occupancy.value(QStringLiteral("limiter")).toString()));
        // EOF on stdin: the runner finishes and exits 0.
        runner.process.closeWriteChannel();
        QVERIFY(runner.process.waitForFinished(30000));
        QCOMPARE(runner.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(runner.process.exitCode(), 0);
    }

    // The TMA stage holds its tiles in dynamic shared memory (the catalog's 197696 B at 256x128x4)
    // and is built for sm_90a: the compiled event says both, and its occupancy accounts for the
    // shared memory, which allows one block of 288 threads per SM (as its 168 registers do).
    void compileJobReportsDynamicSharedMemoryAndTheBuiltArch()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("tma"), "tf32-wgmma-tma", QStringLiteral("sm_90")));
        const QJsonObject compiled =
            runner.waitFor(QStringLiteral("tma"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(compiled.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
        QCOMPARE(compiled.value(QStringLiteral("arch")).toString(), QStringLiteral("sm_90a"));
        const Preset *p = findPreset("tf32-wgmma-tma");
        const int dynamicBytes = launchGeometry(p->stage, p->params, ProblemSize{}).dynamicSmemBytes;
        QCOMPARE(dynamicBytes, 197696);
        QCOMPARE(compiled.value(QStringLiteral("dynamic_smem_bytes")).toInt(), dynamicBytes);
        QVERIFY(compiled.value(QStringLiteral("static_smem_bytes")).toInt() +
                    compiled.value(QStringLiteral("dynamic_smem_bytes")).toInt() >=
                193 * 1024);
        const QJsonObject occupancy = compiled.value(QStringLiteral("occupancy")).toObject();
        QCOMPARE(occupancy.value(QStringLiteral("blocks_per_sm")).toInt(), 1);
        QCOMPARE(occupancy.value(QStringLiteral("limiter")).toString(), QStringLiteral("shared_memory"));
        QVERIFY2(occupancy.value(QStringLiteral("explanation"))
                     .toString()
                     .contains(QStringLiteral("197696 bytes")),
                 qPrintable(occupancy.value(QStringLiteral("explanation")).toString()));
    }

    // With "counters" the runner must still answer no_gpu cleanly (CUPTI is only ever touched on a
    // GPU, after a good run); on a GPU the result carries a counters object, values or a sentence.
    // The Source tab's machine code: PTX always (NVRTC), SASS where nvdisasm is installed (the GPU
    // machine), each instruction with its source line, and the hot loop's FFMAs where the kernel
    // says they are: step 8 unrolls its BK, TM and TN loops, so the loop over k-tiles holds
    // BK x TM x TN = 16 x 12 x 12 = 2304 FFMAs.
    void disassembleJobGivesPtxAndSassWithSourceLines()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        QJsonObject request = compileRequest(QStringLiteral("d1"), "worklog-8", QStringLiteral("sm_90"));
        request.insert(QStringLiteral("type"), QStringLiteral("disassemble"));
        runner.send(request);
        const QJsonObject event =
            runner.waitFor(QStringLiteral("d1"), {QStringLiteral("disassembly"), QStringLiteral("error")});
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("disassembly"));
        QCOMPARE(event.value(QStringLiteral("arch")).toString(), QStringLiteral("sm_90"));
        const MachineCode ptx = parsePtx(event.value(QStringLiteral("ptx")).toString().toStdString());
        QVERIFY(ptx.innerLoop.has_value());
        QCOMPARE(instructionMix(ptx, true).at("FFMA"), 2304);
        bool sawKernelLine = false;
        for (const CodeLine &l : ptx.lines)
            sawKernelLine |=
                l.category == "FFMA" && l.sourceLine > 0 &&
                QFileInfo(QString::fromStdString(l.sourceFile)).fileName() == QLatin1String("final.cuh");
        QVERIFY2(sawKernelLine, "the FFMAs carry their line in final.cuh");
        if (event.value(QStringLiteral("sass")).isNull()) {
            QVERIFY(event.value(QStringLiteral("sass_unavailable"))
                        .toString()
                        .contains(QStringLiteral("nvdisasm")));
            QSKIP("No nvdisasm on this machine: the SASS half is checked where the toolkit has it.");
        }
        const MachineCode sass = parseSass(event.value(QStringLiteral("sass")).toString().toStdString());
        QVERIFY(sass.innerLoop.has_value());
        QCOMPARE(instructionMix(sass, true).at("FFMA"), 2304);
        bool sassHasLines = false;
        for (const CodeLine &l : sass.lines)
            sassHasLines |= l.isInstruction && l.sourceLine > 0;
        QVERIFY(sassHasLines);
    }

    // cp.async needs sm_80: a compile for sm_75 is refused before NVRTC runs, with the reason.
    void asyncStageRefusesTuring()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("c75"), "fp32-async", QStringLiteral("sm_75")));
        const QJsonObject event =
            runner.waitFor(QStringLiteral("c75"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(event.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        const QString message = event.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("sm_75")) && message.contains(QStringLiteral("cp.async")) &&
                     message.contains(QStringLiteral("80")),
                 qPrintable(message));
    }

    void runJobAnswersResultOrNoGpu_data()
    {
        QTest::addColumn<bool>("counters");
        QTest::newRow("plain") << false;
        QTest::newRow("with counters") << true;
    }
    void runJobAnswersResultOrNoGpu()
    {
        QFETCH(bool, counters);
        RunnerProcess runner(m_cache.path());
        const QJsonObject ready = runner.start();
        QJsonObject request{{QStringLiteral("type"), QStringLiteral("run")},
                            {QStringLiteral("id"), QStringLiteral("r1")},
                            {QStringLiteral("stage"), QStringLiteral("coalesced")},
                            {QStringLiteral("params"), params("worklog-3")},
                            {QStringLiteral("size"), QJsonObject{{"m", 128}, {"n", 192}, {"k", 64}}},
                            {QStringLiteral("timing"), QJsonObject{{"budget_ms", 5}, {"min_reps", 2}}}};
        if (counters)
            request.insert(QStringLiteral("counters"), true);
        runner.send(request);
        const QJsonObject answer =
            runner.waitFor(QStringLiteral("r1"), {QStringLiteral("result"), QStringLiteral("error")});
        if (ready.value(QStringLiteral("gpu")).isNull()) {
            QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
            QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("no_gpu"));
            QCOMPARE(answer.value(QStringLiteral("message")).toString(),
                     ready.value(QStringLiteral("gpu_error"))
                         .toObject()
                         .value(QStringLiteral("message"))
                         .toString());
        } else {
            QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("result"));
            QVERIFY(
                answer.value(QStringLiteral("verify")).toObject().value(QStringLiteral("passed")).toBool());
            QVERIFY(
                answer.value(QStringLiteral("timing")).toObject().value(QStringLiteral("count")).toInt() >=
                2);
            QCOMPARE(answer.contains(QStringLiteral("counters")), counters);
            if (counters) {
                const QJsonObject c = answer.value(QStringLiteral("counters")).toObject();
                QVERIFY2(c.value(QStringLiteral("error")).isString() ||
                             c.value(QStringLiteral("flops")).toDouble() == 2.0 * 128 * 192 * 64,
                         qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
            }
        }
        // The runner is still serving (no crash on either path).
        runner.send(compileRequest(QStringLiteral("after"), "worklog-0"));
        const QJsonObject after =
            runner.waitFor(QStringLiteral("after"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(after.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
    }

    void malformedLineGivesErrorAndRunnerGoesOn_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("not JSON") << QByteArray("this is not json") << "protocol_error"
                                  << QJsonValue(QJsonValue::Null);
        QTest::newRow("JSON array") << QByteArray("[1,2]") << "protocol_error"
                                    << QJsonValue(QJsonValue::Null);
        QTest::newRow("missing id") << QByteArray(R"({"type":"compile","stage":"naive","arch":"sm_80"})")
                                    << "protocol_error" << QJsonValue(QJsonValue::Null);
        QTest::newRow("missing type") << QByteArray(R"({"id":"m1"})") << "protocol_error" << QJsonValue("m1");
        QTest::newRow("unknown type")
            << QByteArray(R"({"type":"dance","id":"m2"})") << "protocol_error" << QJsonValue("m2");
        QTest::newRow("unknown stage")
            << QByteArray(R"({"type":"compile","id":"m3","stage":"warp_magic","arch":"sm_80"})")
            << "invalid_config" << QJsonValue("m3");
        QTest::newRow("params not integers")
            << QByteArray(
                   R"({"type":"compile","id":"m4","stage":"naive","params":{"BX":"x"},"arch":"sm_80"})")
            << "protocol_error" << QJsonValue("m4");
        QTest::newRow("bad arch") << QByteArray(
                                         R"({"type":"compile","id":"m5","stage":"naive","arch":"volta"})")
                                  << "protocol_error" << QJsonValue("m5");
        QTest::newRow("run without size") << QByteArray(R"({"type":"run","id":"m6","stage":"naive"})")
                                          << "protocol_error" << QJsonValue("m6");
        QTest::newRow("counters not a bool")
            << QByteArray(R"({"type":"run","id":"m7","stage":"naive","params":{"BX":16,"BY":16},)"
                          R"("size":{"m":64,"n":64,"k":64},"counters":"yes"})")
            << "protocol_error" << QJsonValue("m7");
        QTest::newRow("block limit zero")
            << QByteArray(R"({"type":"run","id":"m8","stage":"naive","params":{"BX":16,"BY":16},)"
                          R"("size":{"m":64,"n":64,"k":64},"max_blocks_per_sm":0})")
            << "protocol_error" << QJsonValue("m8");
        QTest::newRow("block limit not whole")
            << QByteArray(R"({"type":"run","id":"m9","stage":"naive","params":{"BX":16,"BY":16},)"
                          R"("size":{"m":64,"n":64,"k":64},"max_blocks_per_sm":1.5})")
            << "protocol_error" << QJsonValue("m9");
        QTest::newRow("block limit on cuBLAS")
            << QByteArray(R"({"type":"run","id":"m10","stage":"cublas_fp32","size":{"m":64,"n":64,"k":64},)"
                          R"("max_blocks_per_sm":1})")
            << "invalid_config" << QJsonValue("m10");
        QTest::newRow("carveout above 100")
            << QByteArray(R"({"type":"run","id":"m11","stage":"naive","params":{"BX":16,"BY":16},)"
                          R"("size":{"m":64,"n":64,"k":64},"smem_carveout":101})")
            << "protocol_error" << QJsonValue("m11");
    }
    void malformedLineGivesErrorAndRunnerGoesOn()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, kind);
        QFETCH(QJsonValue, id);
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(line);
        const QJsonObject error = runner.next();
        QCOMPARE(error.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), kind);
        QCOMPARE(error.value(QStringLiteral("id")), id);
        QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
        // Still serving.
        runner.send(compileRequest(QStringLiteral("good"), "worklog-0"));
        const QJsonObject good =
            runner.waitFor(QStringLiteral("good"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(good.value(QStringLiteral("event")).toString(), QStringLiteral("compiled"));
    }

    void invalidConfigCarriesCatalogSentence()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        QJsonObject request = compileRequest(QStringLiteral("bad"), "worklog-3");
        QJsonObject p = request.value(QStringLiteral("params")).toObject();
        p.insert(QStringLiteral("BM"), 100);
        request.insert(QStringLiteral("params"), p);
        runner.send(request);
        const QJsonObject error =
            runner.waitFor(QStringLiteral("bad"), {QStringLiteral("error"), QStringLiteral("compiled")});
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        // The message is the catalog's own sentence(s), joined.
        ParamValues values;
        for (auto it = p.begin(); it != p.end(); ++it)
            values[it.key().toStdString()] = it.value().toInt();
        const auto reasons = violations(StageId::Coalesced, values, ProblemSize{});
        QVERIFY(!reasons.empty());
        for (const std::string &reason : reasons)
            QVERIFY2(
                error.value(QStringLiteral("message")).toString().contains(QString::fromStdString(reason)),
                qPrintable(error.value(QStringLiteral("message")).toString()));
    }

    void cancelOfQueuedJob()
    {
        // A fresh cache: the first compile really runs NVRTC, so the later jobs are still queued.
        QTemporaryDir fresh;
        RunnerProcess runner(fresh.path());
        QVERIFY(!runner.start().isEmpty());
        QByteArray lines =
            QJsonDocument(compileRequest(QStringLiteral("a"), "worklog-8")).toJson(QJsonDocument::Compact) +
            '\n';
        lines +=
            QJsonDocument(compileRequest(QStringLiteral("b"), "worklog-7")).toJson(QJsonDocument::Compact) +
            '\n';
        lines +=
            QJsonDocument(compileRequest(QStringLiteral("c"), "worklog-6")).toJson(QJsonDocument::Compact) +
            '\n';
        lines += R"({"type":"cancel","id":"c"})";
        runner.send(lines);
        const QJsonObject cancelled =
            runner.waitFor(QStringLiteral("c"), {QStringLiteral("error"), QStringLiteral("compiled")});
        QCOMPARE(cancelled.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(cancelled.value(QStringLiteral("kind")).toString(), QStringLiteral("cancelled"));
        // The others are unaffected, in order.
        QCOMPARE(runner.waitFor(QStringLiteral("a"), {QStringLiteral("compiled")}).isEmpty(), false);
        QCOMPARE(runner.waitFor(QStringLiteral("b"), {QStringLiteral("compiled")}).isEmpty(), false);
        // quit: exits 0.
        runner.send(QByteArray(R"({"type":"quit"})"));
        QVERIFY(runner.process.waitForFinished(30000));
        QCOMPARE(runner.process.exitCode(), 0);
        for (const QJsonObject &e : runner.skipped)
            QVERIFY2(e.value(QStringLiteral("id")).toString() != QStringLiteral("c") ||
                         e.value(QStringLiteral("event")).toString() != QStringLiteral("compiled"),
                     "the cancelled job must not run");
    }

    void quitCancelsQueuedJobs()
    {
        QTemporaryDir fresh;
        RunnerProcess runner(fresh.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(compileRequest(QStringLiteral("q1"), "worklog-8"));
        runner.send(compileRequest(QStringLiteral("q2"), "worklog-7"));
        // Quit only once q1 runs (its first progress event), so that q2 is the queued one.
        QCOMPARE(runner.waitFor(QStringLiteral("q1"), {QStringLiteral("progress")}).isEmpty(), false);
        runner.send(QByteArray(R"({"type":"quit"})"));
        const QJsonObject q2 =
            runner.waitFor(QStringLiteral("q2"), {QStringLiteral("error"), QStringLiteral("compiled")});
        QCOMPARE(q2.value(QStringLiteral("kind")).toString(), QStringLiteral("cancelled"));
        // The running job finishes and is answered before the runner exits.
        QCOMPARE(runner.waitFor(QStringLiteral("q1"), {QStringLiteral("compiled")}).isEmpty(), false);
        QVERIFY(runner.process.waitForFinished(30000));
        QCOMPARE(runner.process.exitCode(), 0);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestRunnerProtocol)
#include "tst_runner_protocol.moc"
