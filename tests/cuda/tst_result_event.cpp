// The runner's `result` event, built the way the `run` job builds it (compiledInfo, countersOf,
// verifyPassed, resultEvent, then the protocol's codec), is field for field the event the GPU
// machine recorded in tests/data/recorded/: the same names, types, presence and values. The inputs are the
// recorded measurements (times, ptxas numbers, occupancy, raw CUPTI metrics); everything derived
// from them (tflops, intensities, access ratios) is recomputed here. Needs no GPU.
#include "../support/json_compare.h"
#include "compiled_event.h"
#include "counter_report.h"
#include "launch_config.h"
#include "result_event.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gemmscope;
using namespace gemmscope::runner;

namespace {

OccupancyLimiter limiterNamed(const QString &name)
{
    return protocol::occupancyLimiterFromName(name).value_or(OccupancyLimiter::None);
}

// The compiled kernel, occupancy and block limit the job would have held, and compiledInfo of them.
protocol::CompiledInfo compiledAsTheJobBuildsIt(const StageInfo &stage, const QJsonObject &c,
                                                int dynamicSmemBytes)
{
    CompiledKernel kernel;
    kernel.nameExpression = c.value("kernel").toString();
    kernel.loweredName = c.value("lowered_name").toString();
    kernel.cubin = QByteArray(c.value("cubin_bytes").toInt(), '\0');
    kernel.log = c.value("ptxas_log").toString();
    kernel.ptxas.found = c.value("registers").toInt() >= 0;
    kernel.ptxas.registers = c.value("registers").toInt();
    kernel.ptxas.spillStoreBytes = c.value("spill_store_bytes").toInt();
    kernel.ptxas.spillLoadBytes = c.value("spill_load_bytes").toInt();
    kernel.ptxas.stackFrameBytes = c.value("stack_frame_bytes").toInt();
    kernel.ptxas.staticSmemBytes = c.value("static_smem_bytes").toInt();
    kernel.resourcesSource = c.value("resources_source").toString();
    kernel.arch = c.value("arch").toString().mid(3).toInt();
    kernel.cacheHit = c.value("cache_hit").toBool();
    kernel.compileMs = c.value("compile_ms").toDouble();
    kernel.compiledAhead = c.value("compiled_ahead").toBool();
    kernel.waitMs = c.value("compile_wait_ms").toDouble(-1);

    const QJsonObject o = c.value("occupancy").toObject();
    Occupancy occupancy;
    occupancy.blocksPerSm = o.value("blocks_per_sm").toInt();
    occupancy.activeWarps = o.value("active_warps").toInt();
    occupancy.maxWarps = o.value("max_warps").toInt();
    occupancy.fraction = o.value("fraction").toDouble();
    occupancy.limiter = limiterNamed(o.value("limiter").toString());
    occupancy.explanation = o.value("explanation").toString().toStdString();
    BlockLimit limit;
    limit.requested = o.value("requested_blocks_per_sm").toInt();
    limit.paddingBytes = o.value("padding_smem_bytes").toInt();

    protocol::CompiledInfo info = compiledInfo(stage, kernel, occupancy, limit, dynamicSmemBytes);
    if (c.contains("smem_carveout"))
        info.smemCarveout = c.value("smem_carveout").toInt();
    return info;
}

// The raw CUPTI reading the counters came from, in the profiler's metric order.
CounterReading readingOf(const QJsonObject &counters)
{
    CounterReading reading;
    const QJsonObject metrics = counters.value("metrics").toObject();
    for (const std::string &name : counterMetrics())
        if (const QJsonValue v = metrics.value(QString::fromStdString(name)); v.isDouble())
            reading.values.emplace_back(name, v.toDouble());
    reading.kernels = counters.value("kernels").toInt();
    return reading;
}

ParamValues paramsOf(const QJsonObject &json)
{
    ParamValues params;
    for (auto it = json.begin(); it != json.end(); ++it)
        params[it.key().toStdString()] = it.value().toInt();
    return params;
}

QJsonObject resultAsTheJobBuildsIt(const QJsonObject &recorded)
{
    const StageInfo *stage = findStage(recorded.value("stage").toString().toStdString());
    if (!stage)
        return {};
    RunFacts facts;
    facts.stage = stage;
    const QJsonObject params = recorded.value("params").toObject();
    for (auto it = params.begin(); it != params.end(); ++it)
        facts.params[it.key().toStdString()] = it.value().toInt();
    const QJsonObject size = recorded.value("size").toObject();
    facts.size =
        ProblemSize{size.value("m").toInteger(), size.value("n").toInteger(), size.value("k").toInteger()};
    facts.seed = std::uint64_t(recorded.value("seed").toInteger());
    const QJsonObject gpu = recorded.value("gpu").toObject();
    facts.gpu.name = gpu.value("name").toString();
    facts.gpu.arch = gpu.value("arch").toString();
    facts.gpu.uuid = gpu.value("uuid").toString();
    facts.smClockMhz = recorded.value("sm_clock_mhz").toInt();
    const QJsonObject timing = recorded.value("timing").toObject();
    facts.stats.medianMs = timing.value("median_ms").toDouble();
    facts.stats.p20Ms = timing.value("p20_ms").toDouble();
    facts.stats.p80Ms = timing.value("p80_ms").toDouble();
    facts.stats.minMs = timing.value("min_ms").toDouble();
    facts.stats.count = timing.value("count").toInt();
    facts.timing.warmup = timing.value("warmup").toInt();
    facts.timing.budgetMs = timing.value("budget_ms").toDouble();
    facts.timing.flushL2 = timing.value("flush_l2").toBool();
    const QJsonObject verify = recorded.value("verify").toObject();
    facts.verify = verify.value("skipped").toBool() ? verifySkipped()
                                                    : verifyPassed(verify.value("rel_error").toDouble(),
                                                                   verify.value("tolerance").toDouble());
    if (recorded.contains("compiled"))
        facts.compiled =
            compiledAsTheJobBuildsIt(*stage, recorded.value("compiled").toObject(),
                                     launchDims(*stage, facts.params, facts.size).dynamicSmemBytes);
    facts.build = recorded.value("build").toString();
    facts.maxBlocksPerSm = recorded.value("max_blocks_per_sm").toInt(0);
    facts.smemCarveout = recorded.value("smem_carveout").toInt(-1);
    if (const QJsonObject counters = recorded.value("counters").toObject(); !counters.isEmpty())
        facts.counters = counters.contains("error") ? countersError(counters.value("error").toString())
                                                    : countersOf(readingOf(counters), facts.size);
    facts.finishedAt = QDateTime::fromString(recorded.value("timestamp").toString(), Qt::ISODate);

    QJsonObject json = protocol::toJson(resultEvent(facts));
    json.insert(QStringLiteral("id"), recorded.value("id")); // what JobContext::send adds
    return json;
}

QJsonObject readJson(const QString &relativePath)
{
    QFile file(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/") + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TstResultEvent : public QObject {
    Q_OBJECT

private slots:
    void encodesAsRecorded_data()
    {
        QTest::addColumn<QJsonObject>("recorded");
        // The TF32 and FP32 final benches (resources_source), one with counters and their access
        // ratios (cuBLAS and GemmScope kernels), and a sweep's runs (compile-ahead fields).
        const QStringList benches{QStringLiteral("tf32-2026-11-30/final/bench-tf32-4096x4096x4096.json"),
                                  QStringLiteral("fp32-final-2026-11-30/bench-final-4096x4096x4096.json"),
                                  QStringLiteral("bench-h200-2026-11-30-counters.json")};
        int rows = 0;
        for (const QString &path : benches) {
            const QJsonArray recorded = readJson(path).value("rows").toArray();
            QVERIFY2(!recorded.isEmpty(), qPrintable(path));
            for (qsizetype i = 0; i < recorded.size(); ++i) {
                const QJsonObject event = recorded[i].toObject().value("event").toObject();
                if (event.value("event").toString() != QLatin1String("result"))
                    continue;
                QTest::addRow("%s row %lld", qPrintable(path), (long long)i) << event;
                ++rows;
            }
        }
        const QString sweep = QStringLiteral("sweeps-2026-11-30/sweep-1gpu.json");
        const QJsonArray cells = readJson(sweep).value("cells").toArray();
        QVERIFY2(!cells.isEmpty(), qPrintable(sweep));
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const QJsonObject raw = cells[i].toObject().value("best").toObject().value("raw").toObject();
            if (raw.value("event").toString() == QLatin1String("result")) {
                QTest::addRow("%s cell %lld", qPrintable(sweep), (long long)i) << raw;
                ++rows;
            }
        }
        QVERIFY(rows >= 10);
    }
    void encodesAsRecorded()
    {
        QFETCH(QJsonObject, recorded);
        QJsonObject built = resultAsTheJobBuildsIt(recorded);
        QVERIFY2(!built.isEmpty(), "the recorded stage is not in the catalog");
        const QJsonObject recordedCompiled = recorded.value("compiled").toObject();
        if (!recordedCompiled.isEmpty() && !recordedCompiled.contains("resources_source")) {
            // Recorded by a runner before resources_source; every other field must match.
            QJsonObject compiled = built.value("compiled").toObject();
            QVERIFY(compiled.contains("resources_source"));
            compiled.remove("resources_source");
            built.insert("compiled", compiled);
        }
        const StageInfo *stage = findStage(recorded.value("stage").toString().toStdString());
        if (!recordedCompiled.isEmpty() && !recordedCompiled.contains("dynamic_smem_bytes")) {
            // Recorded before the compiled event carried the dynamic shared memory: the
            // job sends the catalog's, and only where there is some.
            QJsonObject compiled = built.value("compiled").toObject();
            const ParamValues params = paramsOf(recorded.value("params").toObject());
            const int expected = launchGeometry(stage->id, params, ProblemSize{}).dynamicSmemBytes;
            QCOMPARE(compiled.value("dynamic_smem_bytes").toInt(0), expected);
            compiled.remove("dynamic_smem_bytes");
            built.insert("compiled", compiled);
        }
        if (stage->archSpecific && recordedCompiled.value("arch").toString() == QLatin1String("sm_90")) {
            // Recorded before the event named the architecture built: sm_90a now.
            QJsonObject compiled = built.value("compiled").toObject();
            QCOMPARE(compiled.value("arch").toString(), QStringLiteral("sm_90a"));
            compiled.insert("arch", QStringLiteral("sm_90"));
            built.insert("compiled", compiled);
        }
        QString where;
        QVERIFY2(
            sameJson(recorded, built, &where),
            qPrintable(QStringLiteral("differs at %1:\nrecorded %2\nbuilt    %3")
                           .arg(where,
                                QString::fromUtf8(QJsonDocument(recorded).toJson(QJsonDocument::Compact)),
                                QString::fromUtf8(QJsonDocument(built).toJson(QJsonDocument::Compact)))));
    }

    // What the job sends in the cases the recordings do not show: a skipped verification keeps
    // "passed" as null, cuBLAS has no compiled/build, launch options are echoed, a counter
    // failure carries only its sentence, and an unknown resources source is null.
    void encodesTheUnrecordedCases()
    {
        const StageInfo *cublas = findStage("cublas_fp32");
        QVERIFY(cublas);
        RunFacts facts;
        facts.stage = cublas;
        facts.size = ProblemSize{64, 64, 64};
        facts.stats = TimingStats{1, 0.9, 1.1, 0.8, 5};
        facts.verify = verifySkipped();
        facts.maxBlocksPerSm = 2; // refused for cuBLAS before this point; never echoed for it
        facts.counters = countersError(QStringLiteral("No counters here."));
        facts.finishedAt = QDateTime::fromString(QStringLiteral("2026-11-30T12:00:00Z"), Qt::ISODate);
        QJsonObject json = protocol::toJson(resultEvent(facts));
        QCOMPARE(json.value("verify").toObject(),
                 (QJsonObject{
                     {"reference", "cublas_fp32_pedantic"}, {"skipped", true}, {"passed", QJsonValue()}}));
        QVERIFY(!json.contains("compiled") && !json.contains("build") && !json.contains("max_blocks_per_sm"));
        QCOMPARE(json.value("counters").toObject(), (QJsonObject{{"error", "No counters here."}}));
        QCOMPARE(json.value("timestamp").toString(), QStringLiteral("2026-11-30T12:00:00Z"));
        QCOMPARE(json.value("seed").toDouble(), 1.0);
        QCOMPARE(json.value("tflops").toDouble(), facts.size.tflopsAt(1));

        const StageInfo *final = findStage("final");
        QVERIFY(final);
        facts.stage = final;
        facts.smemCarveout = 50;
        CompiledKernel kernel; // compile-only without a ptxas report: everything unknown
        kernel.arch = 90;
        facts.compiled = compiledInfo(*final, kernel, std::nullopt);
        json = protocol::toJson(resultEvent(facts));
        QCOMPARE(json.value("build").toString(), QStringLiteral("release"));
        QCOMPARE(json.value("max_blocks_per_sm").toInt(), 2);
        QCOMPARE(json.value("smem_carveout").toInt(), 50);
        const QJsonObject compiled = json.value("compiled").toObject();
        QVERIFY(compiled.value("resources_source").isNull() && compiled.contains("resources_source"));
        QVERIFY(compiled.value("occupancy").isNull() && compiled.contains("occupancy"));
        QCOMPARE(compiled.value("registers").toInt(), -1);
        QVERIFY(!compiled.contains("compiled_ahead") && !compiled.contains("compile_wait_ms"));
        QVERIFY(!compiled.contains("event") && !compiled.contains("id"));
    }
};

QTEST_APPLESS_MAIN(TstResultEvent)
#include "tst_result_event.moc"
