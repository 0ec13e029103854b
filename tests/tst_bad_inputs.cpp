// The bad-input campaign, kept in CI: a seeded generator throws at least 10,000
// inputs each at the runner-event parser (what RunnerClient turns lines into), the session loader
// and the bench importer, and random parameter combinations at the catalog and its models. Zero
// crashes and zero hangs (each target has a time limit); every refusal has a kind and a sentence;
// whatever is accepted survives a save and a load, and is drawn without a crash. The counts are
// printed. GEMMSCOPE_FUZZ_SEED and GEMMSCOPE_FUZZ_COUNT change the seed and the count per target.
// The runner's side (its request parser and a sample through compile-only) is
// tests/cuda/tst_bad_requests.cpp.
#include "access_model.h"
#include "line_buffer.h"
#include "mapping_model.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "run_record.h"
#include "runtime_chart.h"
#include "session.h"
#include "stage_catalog.h"
#include "support/json_fuzzer.h"
#include "support/result_event_record.h"
#include "support/stored_ceilings.h"
#include "traffic_model.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <climits>
#include <cmath>
#include <random>

using namespace gemmscope;
using gemmscope::testsupport::Fuzzer;
using gemmscope::testsupport::isSentence;

namespace {

// ---- valid seeds ---------------------------------------------------------------------------

QJsonObject params(const char *preset)
{
    QJsonObject o;
    for (const auto &[k, v] : findPreset(preset)->params)
        o.insert(QString::fromStdString(k), v);
    return o;
}

QJsonObject resultEvent(const QString &id, const char *preset, const QString &stage)
{
    return QJsonObject{
        {"event", "result"},
        {"id", id},
        {"stage", stage},
        {"params", params(preset)},
        {"size", QJsonObject{{"m", 1024}, {"n", 512}, {"k", 256}}},
        {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}}},
        {"timing",
         QJsonObject{{"median_ms", 0.5}, {"p20_ms", 0.49}, {"p80_ms", 0.52}, {"min_ms", 0.48}, {"count", 9}}},
        {"tflops", 0.54},
        {"verify", QJsonObject{{"rel_error", 2e-7}, {"tolerance", 1e-5}, {"passed", true}}},
        {"compiled", QJsonObject{{"registers", 64},
                                 {"static_smem_bytes", 4096},
                                 {"occupancy", QJsonObject{{"fraction", 0.5}, {"limiter", "registers"}}}}},
        {"counters", QJsonObject{{"dram_intensity", 12.5},
                                 {"access", QJsonObject{{"global_ld_sectors_per_request", 4.0}}}}},
        {"timestamp", "2026-11-30T10:00:00Z"}};
}

QJsonObject errorEvent(const QString &id)
{
    return QJsonObject{{"event", "error"},
                       {"id", id},
                       {"kind", "out_of_resources"},
                       {"message", "Too many registers."},
                       {"log", "ptxas info"},
                       {"stage", "final"},
                       {"params", params("worklog-8")},
                       {"size", QJsonObject{{"m", 64}, {"n", 64}, {"k", 64}}}};
}

QJsonObject validSession()
{
    SessionData data;
    data.title = QStringLiteral("seed");
    data.ceilings.insert("NVIDIA H200", test::storedCeilings(60.0, 4200.0, "measured"));
    RunRecord a = fromResultEvent(resultEvent("a", "worklog-3", "coalesced"));
    RunRecord b = fromResultEvent(resultEvent("b", "worklog-1", "smem_tiled"));
    b.params = {{"TILE", 16}, {"PAD", 0}};
    RunRecord c =
        fromErrorEvent(errorEvent("c"), QJsonObject{{"id", "c"},
                                                    {"stage", "final"},
                                                    {"params", params("worklog-8")},
                                                    {"size", QJsonObject{{"m", 64}, {"n", 64}, {"k", 64}}}});
    RunRecord d = fromResultEvent(resultEvent("d", "worklog-0", "naive"));
    d.params = {{"BX", 16}, {"BY", 16}};
    RunRecord e = fromResultEvent(resultEvent("e", "cublas_fp32", "cublas_fp32"));
    e.params.clear();
    data.runs = {a, b, c, d, e};
    return QJsonDocument::fromJson(serializeSession(data)).object();
}

QJsonObject validBench()
{
    QJsonArray rows;
    rows.append(QJsonObject{{"preset", "cublas_fp32"},
                            {"stage", "cublas_fp32"},
                            {"params", QJsonObject{}},
                            {"event", resultEvent("b1", "cublas_fp32", "cublas_fp32")}});
    rows.append(QJsonObject{{"preset", "worklog-3"},
                            {"stage", "coalesced"},
                            {"params", params("worklog-3")},
                            {"event", resultEvent("b2", "worklog-3", "coalesced")}});
    rows.append(QJsonObject{{"preset", "worklog-8"},
                            {"stage", "final"},
                            {"params", params("worklog-8")},
                            {"event", errorEvent("b3")}});
    return QJsonObject{
        {"format", "gemmscope-bench"},
        {"version", 1},
        {"date", "2026-11-30T10:00:00Z"},
        {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}}},
        {"size", QJsonObject{{"m", 1024}, {"n", 512}, {"k", 256}}},
        {"ceilings", QJsonObject{{"event", "ceilings"}, {"fma_tflops", 60.0}, {"dram_gbs", 4200.0}}},
        {"rows", rows}};
}

// ---- checks --------------------------------------------------------------------------------

const QStringList kFailureKinds{"invalid_config", "compile_error",  "out_of_resources",   "launch_error",
                                "device_fault",   "out_of_memory",  "wrong_result",       "cancelled",
                                "no_gpu",         "protocol_error", "runner_unavailable", "runner_timeout",
                                "runner_crashed"};

// Everything a loaded run must satisfy, and the models must survive it.
QString checkRun(const RunRecord &r)
{
    if (r.runId.isEmpty() || r.stageKey().isEmpty())
        return QStringLiteral("a run without id or stage was accepted");
    if (r.m <= 0 || r.n <= 0 || r.k <= 0)
        return QStringLiteral("run %1 with a non-positive size was accepted").arg(r.runId);
    if (r.status == RunStatus::Ok && !(r.medianMs > 0))
        return QStringLiteral("ok run %1 without a positive median was accepted").arg(r.runId);
    if (r.status == RunStatus::Failed && (r.errorKind.isEmpty() || r.errorMessage.isEmpty()))
        return QStringLiteral("failed run %1 without kind or sentence").arg(r.runId);
    const StageInfo *stage = findStage(r.stage.key());
    if (stage && catalogRefusal(r).isEmpty()) { // only then may a model see it
        const ParamValues p = paramValuesOf(r);
        const ProblemSize size{r.m, r.n, r.k};
        const TrafficEstimate t = estimateTraffic(stage->id, p, size);
        if (!std::isfinite(t.intensity) || t.intensity < 0)
            return QStringLiteral("run %1: intensity %2").arg(r.runId).arg(t.intensity);
        if (!stage->isLibrary) {
            if (launchGeometry(stage->id, p, size).gridX < 1)
                return QStringLiteral("run %1: an empty grid").arg(r.runId);
            const KernelShapeResult shape = kernelShape(stage->id, p);
            if (!shape.shape) // a stage whose mapping is not modelled yet says so
                return shape.error.empty() ? QStringLiteral("run %1: no shape and no reason").arg(r.runId)
                                           : QString();
            // The access model of a configuration once: it walks every lane of a block.
            static QSet<QString> summarized;
            const QString key = r.stageKey() + QString::fromStdString(formatParams(p));
            if (!summarized.contains(key)) {
                summarized.insert(key);
                AccessContext context;
                context.size = roundedUpToTiles(*shape.shape, size);
                summarizeBlock(*shape.shape, context);
            }
        }
    }
    return {};
}

struct Counts {
    int inputs = 0, accepted = 0, refused = 0;
};

} // namespace

class TestBadInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_seed = testsupport::fuzzSeed();
        m_count = testsupport::fuzzCount();
        qInfo("bad inputs: seed %llu, %d inputs per target", m_seed, m_count);
    }

    // What RunnerClient does with each line the runner writes: split, parse, convert to a run.
    void runnerEventParser()
    {
        Fuzzer fuzz(m_seed);
        const QList<QJsonObject> seeds{
            resultEvent("r1", "worklog-3", "coalesced"), resultEvent("r2", "worklog-0", "naive"),
            errorEvent("r3"), QJsonObject{{"event", "progress"}, {"id", "r1"}, {"done", 3}, {"total", 9}},
            QJsonObject{{"event", "ready"}, {"protocol", 1}}};
        Counts counts;
        QElapsedTimer timer;
        timer.start();
        LineBuffer lines(1 << 20);
        for (int i = 0; i < m_count; ++i) {
            const QByteArray line = fuzz.document(seeds[fuzz.below(int(seeds.size()))]);
            // Fed in random pieces, as a pipe delivers them.
            const QByteArray stream = line + '\n';
            for (qsizetype at = 0; at < stream.size();) {
                const qsizetype piece = 1 + fuzz.below(64);
                lines.append(stream.mid(at, piece));
                at += piece;
            }
            ++counts.inputs;
            while (const auto complete = lines.takeLine()) {
                const QJsonDocument doc = QJsonDocument::fromJson(*complete);
                if (!doc.isObject()) {
                    ++counts.refused; // RunnerClient logs it and goes on: "not a JSON object"
                    continue;
                }
                const QJsonObject event = doc.object();
                const QString kind = event.value("event").toString();
                RunRecord record;
                if (kind == QLatin1String("result"))
                    record = fromResultEvent(event);
                else if (kind == QLatin1String("error"))
                    record = fromErrorEvent(event,
                                            QJsonObject{{"id", "x"},
                                                        {"stage", "coalesced"},
                                                        {"size", QJsonObject{{"m", 8}, {"n", 8}, {"k", 8}}}});
                else {
                    ++counts.refused; // progress, ready and unknown events make no run
                    continue;
                }
                ++counts.accepted;
                if (record.status == RunStatus::Failed) {
                    QVERIFY2(kFailureKinds.contains(record.errorKind) || !record.errorKind.isEmpty(),
                             qPrintable(record.errorKind));
                    QVERIFY2(!record.errorMessage.isEmpty(), "a failed run without a sentence");
                }
                // Whatever the client keeps, a session keeps: the autosave must load again.
                if (record.runId.isEmpty())
                    record.runId = QStringLiteral("r");
                if (record.stageKey().isEmpty() || record.m <= 0 || record.n <= 0 || record.k <= 0)
                    continue; // such a run is refused by import and never reaches a session
                QString why;
                QVERIFY2(fromJson(toJson(record), &why),
                         qPrintable(QString::fromUtf8(*complete) + " -> " + why));
            }
            QVERIFY(!lines.overflowed());
        }
        qInfo("runner events: %d inputs, %d runs made, %d lines refused or ignored, %lld ms", counts.inputs,
              counts.accepted, counts.refused, timer.elapsed());
        QCOMPARE(counts.inputs, m_count);
    }

    void sessionLoader()
    {
        Fuzzer fuzz(m_seed + 1);
        const QJsonObject seed = validSession();
        const SessionParse valid = parseSessionJson(QJsonDocument(seed).toJson());
        QVERIFY2(valid.data, qPrintable(valid.error));
        Counts counts;
        QElapsedTimer timer;
        timer.start();
        RooflineChart roofline;
        RuntimeChart runtime;
        roofline.resize(600, 400);
        runtime.resize(600, 400);
        for (int i = 0; i < m_count; ++i) {
            const QByteArray bytes = fuzz.document(seed);
            ++counts.inputs;
            const SessionParse parsed = parseSessionJson(bytes);
            if (!parsed.data) {
                ++counts.refused;
                QVERIFY2(isSentence(parsed.error), qPrintable(parsed.error));
                continue;
            }
            ++counts.accepted;
            for (const RunRecord &r : parsed.data->runs)
                if (const QString problem = checkRun(r); !problem.isEmpty())
                    QFAIL(qPrintable(problem + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            // Saved and loaded again, it is the same session.
            const SessionParse again = parseSessionJson(serializeSession(*parsed.data));
            QVERIFY2(again.data, qPrintable(again.error));
            QCOMPARE(again.data->runs.size(), parsed.data->runs.size());
            // Drawn and tabled without a crash (every 20th: widgets cost more than parsing).
            if (i % 20 == 0) {
                roofline.setRuns(parsed.data->runs);
                runtime.setRuns(parsed.data->runs);
                for (const auto &p : roofline.points())
                    QVERIFY(std::isfinite(p.intensity) && std::isfinite(p.tflops));
                Session session;
                session.replace(*parsed.data, {});
                ResultsModel model(&session);
                for (int row = 0; row < model.rowCount(); ++row)
                    for (int column = 0; column < model.columnCount(); ++column)
                        for (int role :
                             {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(ResultsModel::SortRole)})
                            model.index(row, column).data(role);
            }
        }
        qInfo("session loader: %d inputs, %d accepted, %d refused with a sentence, %lld ms", counts.inputs,
              counts.accepted, counts.refused, timer.elapsed());
        QVERIFY(counts.accepted > 0 && counts.refused > 0);
    }

    void benchImporter()
    {
        Fuzzer fuzz(m_seed + 2);
        const QJsonObject seed = validBench();
        QVERIFY(importBenchJson(QJsonDocument(seed).toJson()).data);
        Counts counts;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < m_count; ++i) {
            const QByteArray bytes = fuzz.document(seed);
            ++counts.inputs;
            const SessionParse imported = importBenchJson(bytes);
            if (!imported.data) {
                ++counts.refused;
                QVERIFY2(isSentence(imported.error), qPrintable(imported.error));
                continue;
            }
            ++counts.accepted;
            for (const RunRecord &r : imported.data->runs)
                if (const QString problem = checkRun(r); !problem.isEmpty())
                    QFAIL(qPrintable(problem + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            // Defect 2: whatever import accepts, load accepts.
            const SessionParse loaded = parseSessionJson(serializeSession(*imported.data));
            QVERIFY2(loaded.data, qPrintable(loaded.error + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            QCOMPARE(loaded.data->runs.size(), imported.data->runs.size());
        }
        qInfo(
            "bench importer: %d inputs, %d accepted (each loads again), %d refused with a sentence, %lld ms",
            counts.inputs, counts.accepted, counts.refused, timer.elapsed());
        QVERIFY(counts.accepted > 0 && counts.refused > 0);
    }

    // Random stages, parameters (zero, negative, huge, absent, unknown) and 64-bit sizes.
    void catalogAndModels()
    {
        Fuzzer fuzz(m_seed + 3);
        const auto &all = stages();
        static const QList<int> tileValues{INT_MIN, -64, -1, 0,  1,  2,   3,   4,   6,   8,    12,   16,
                                           24,      32,  48, 64, 96, 128, 192, 256, 512, 1024, 4096, INT_MAX};
        static const QList<long long> sizes{LLONG_MIN, -1,    0,         1,         2,        7,
                                            64,        100,   1000,      4096,      8192,     46340,
                                            46341,     65536, 1LL << 31, 1LL << 32, LLONG_MAX};
        Counts counts;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < m_count; ++i) {
            const StageInfo &stage = all[fuzz.below(int(all.size()))];
            ParamValues p;
            for (const ParamSpec &spec : stage.params) {
                if (fuzz.chance(5))
                    continue; // absent
                if (fuzz.chance(60) && !spec.choices.empty())
                    p[spec.name] = spec.choices[fuzz.below(int(spec.choices.size()))];
                else
                    p[spec.name] = tileValues[fuzz.below(int(tileValues.size()))];
            }
            if (fuzz.chance(3))
                p["ZZ"] = 1; // unknown
            const ProblemSize size =
                fuzz.chance(50)
                    ? ProblemSize{1 + fuzz.below(5000), 1 + fuzz.below(5000), 1 + fuzz.below(5000)}
                    : ProblemSize{sizes[fuzz.below(int(sizes.size()))], sizes[fuzz.below(int(sizes.size()))],
                                  sizes[fuzz.below(int(sizes.size()))]};
            ++counts.inputs;
            const auto reasons = violations(stage.id, p, size);
            const LaunchGeometry g = launchGeometry(stage.id, p, size); // defined for every input
            const TrafficEstimate t = estimateTraffic(stage.id, p, size);
            QVERIFY(std::isfinite(t.intensity) && g.gridX >= 0 && g.gridY >= 0);
            if (!reasons.empty()) {
                ++counts.refused;
                for (const std::string &r : reasons)
                    QVERIFY2(isSentence(QString::fromStdString(r)), r.c_str());
                continue;
            }
            ++counts.accepted;
            QVERIFY(size.m >= 1 && size.m < (1LL << 31) && size.m * size.k < (1LL << 31));
            if (stage.isLibrary)
                continue;
            QVERIFY(g.gridX >= 1 && g.gridY >= 1 && g.gridY <= 65535 && g.threadsPerBlock() <= 1024);
            QVERIFY(g.staticSmemBytes <= 48 * 1024);
            const KernelShapeResult shape = kernelShape(stage.id, p);
            if (!shape.shape) { // not modelled yet: it must say so
                QVERIFY(!shape.error.empty());
                continue;
            }
            AccessContext context;
            context.size = roundedUpToTiles(*shape.shape, size);
            summarizeBlock(*shape.shape, context);
        }
        qInfo("catalog and models: %d parameter sets, %d accepted (modelled), %d refused with a sentence, "
              "%lld ms",
              counts.inputs, counts.accepted, counts.refused, timer.elapsed());
        QVERIFY(counts.accepted > 0 && counts.refused > 0);
    }

private:
    quint64 m_seed = 0;
    int m_count = 0;
};

QTEST_MAIN(TestBadInputs)
#include "tst_bad_inputs.moc"
