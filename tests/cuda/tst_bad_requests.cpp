// The runner's side of the bad-input campaign (the GUI's side is tests/tst_bad_inputs.cpp):
// at least 10,000 seeded hostile request lines through the runner's request parser and its job
// field parsing, and random parameter combinations through the catalog, a sample of them through
// compile-only mode. Zero crashes, zero hangs; every answer that refuses has a protocol kind and a
// sentence. Counts are printed. Without a GPU the jobs themselves run (they end at their first
// refusal, or at no_gpu); on a GPU machine only compile jobs are validated, never launched.
#include "../support/fuzz_random.h"
#include "job_context.h"
#include "request_options.h"
#include "runner_error.h"
#include "runner_service.h"
#include "runner_state.h"
#include "stage_catalog.h"
#include "stage_compile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <climits>
#include <mutex>
#include <random>

using namespace gemmscope;
using namespace gemmscope::runner;

namespace {

class CapturingSink : public EventSink {
public:
    void send(const QJsonObject &event) override
    {
        std::lock_guard lock(m_mutex);
        events.append(event);
    }
    QList<QJsonObject> take()
    {
        std::lock_guard lock(m_mutex);
        return std::exchange(events, {});
    }
    QList<QJsonObject> events;

private:
    std::mutex m_mutex;
};

const QStringList kKinds{"invalid_config", "compile_error", "out_of_resources", "launch_error",
                         "device_fault",   "out_of_memory", "wrong_result",     "cancelled",
                         "no_gpu",         "protocol_error"};

bool isSentence(const QString &text)
{
    const QString t = text.trimmed();
    return t.size() >= 12 && (t.endsWith(QLatin1Char('.')) || t.endsWith(QLatin1Char(')')) ||
                              t.endsWith(QLatin1Char('"')) || t.contains(QLatin1Char(':')));
}

// An error event is acceptable when it names a protocol kind and says why in a sentence.
QString badError(const QJsonObject &event)
{
    if (event.value(QStringLiteral("event")).toString() != QStringLiteral("error"))
        return {};
    const QString kind = event.value(QStringLiteral("kind")).toString();
    const QString message = event.value(QStringLiteral("message")).toString();
    if (!kKinds.contains(kind))
        return QStringLiteral("unknown kind \"%1\"").arg(kind);
    if (!isSentence(message))
        return QStringLiteral("kind %1 without a sentence: \"%2\"").arg(kind, message);
    const QJsonValue id = event.value(QStringLiteral("id"));
    if (!id.isString() && !id.isNull())
        return QStringLiteral("an error whose id is neither a string nor null");
    return {};
}

QJsonObject paramsOf(const ParamValues &values)
{
    QJsonObject o;
    for (const auto &[k, v] : values)
        o.insert(QString::fromStdString(k), v);
    return o;
}

class Fuzzer : public testsupport::FuzzRandom {
public:
    using FuzzRandom::FuzzRandom;

    QJsonValue nastyValue()
    {
        static const QList<QJsonValue> values = {0,
                                                 -1,
                                                 1,
                                                 5,
                                                 1.5,
                                                 1e300,
                                                 -1e300,
                                                 2147483648.0,
                                                 4294967296.0,
                                                 9007199254740993.0,
                                                 65536,
                                                 1024,
                                                 QJsonValue(QJsonValue::Null),
                                                 true,
                                                 false,
                                                 QString(),
                                                 QStringLiteral("16"),
                                                 QStringLiteral("sm_5"),
                                                 QStringLiteral("sm_90"),
                                                 QStringLiteral("sm_50"),
                                                 QStringLiteral("release"),
                                                 QStringLiteral("scalar_shared"),
                                                 QStringLiteral("coalesced"),
                                                 QStringLiteral("<h1>x</h1>"),
                                                 QString(3000, QLatin1Char('y')),
                                                 QJsonArray{1, 2},
                                                 QJsonObject{{"m", 0}},
                                                 QJsonObject{}};
        if (chance(10))
            return double(std::uniform_int_distribution<long long>(LLONG_MIN / 2, LLONG_MAX / 2)(rng()));
        return values[below(int(values.size()))];
    }

    QJsonValue mutate(const QJsonValue &value, int depth = 0)
    {
        if (value.isObject() && !value.toObject().isEmpty() && depth < 4 && chance(75)) {
            QJsonObject o = value.toObject();
            const QStringList keys = o.keys();
            const QString key = keys[below(int(keys.size()))];
            switch (below(5)) {
            case 0:
                o.remove(key);
                break;
            case 1:
                o.insert(key, nastyValue());
                break;
            case 2: {
                static const QStringList extra{
                    "build",         "counters", "verify",  "seed",   "max_blocks_per_sm",
                    "smem_carveout", "arch",     "refresh", "timing", "test_damage"};
                o.insert(extra[below(int(extra.size()))], nastyValue());
                break;
            }
            default:
                o.insert(key, mutate(o.value(key), depth + 1));
                break;
            }
            return o;
        }
        return nastyValue();
    }

    QByteArray line(const QJsonObject &seed)
    {
        if (chance(3))
            return noise(120).replace('\n', ' ');
        QJsonValue v = seed;
        for (int n = below(3) + 1; n > 0; --n)
            v = mutate(v);
        QByteArray bytes = QJsonDocument(v.isObject() ? v.toObject() : seed).toJson(QJsonDocument::Compact);
        if (chance(10))
            bytes.truncate(below(int(bytes.size())));
        return bytes;
    }
};

} // namespace

class TestBadRequests : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_cache.isValid()); }

    void requestParserAndJobFields()
    {
        Fuzzer fuzz(testsupport::fuzzSeed());
        const QJsonObject tiles = paramsOf(findPreset("worklog-3")->params);
        const QJsonObject size{{"m", 256}, {"n", 256}, {"k", 256}};
        const QList<QJsonObject> seeds{
            {{"type", "run"},
             {"id", "r"},
             {"stage", "coalesced"},
             {"params", tiles},
             {"size", size},
             {"timing", QJsonObject{{"budget_ms", 5}, {"warmup", 1}, {"min_reps", 2}, {"max_reps", 3}}},
             {"counters", false},
             {"build", "release"}},
            {{"type", "compile"},
             {"id", "c"},
             {"stage", "final"},
             {"params", tiles},
             {"arch", "sm_80"},
             {"size", size}},
            {{"type", "trace_owner"}, {"id", "t"}, {"stage", "strided"}, {"params", tiles}},
            {{"type", "ceilings"}, {"id", "g"}, {"refresh", false}},
            {{"type", "disassemble"},
             {"id", "d"},
             {"stage", "coalesced"},
             {"params", tiles},
             {"arch", "sm_90"}},
            {{"type", "cancel"}, {"id", "r"}},
            {{"type", "run"}, {"id", "cb"}, {"stage", "cublas_fp32"}, {"size", size}},
        };
        CapturingSink sink;
        RunnerService service(m_cache.path(), sink);
        RunnerState state(m_cache.path());
        const bool gpu = state.probe.device.has_value();
        int inputs = 0, parsedOnly = 0, jobsRun = 0, refused = 0, compileChecked = 0;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < testsupport::fuzzCount(); ++i) {
            const QByteArray line = fuzz.line(seeds[fuzz.below(int(seeds.size()))]);
            ++inputs;
            // 1. The reader's parsing: protocol errors answered at once, jobs queued.
            service.handleLine(line);
            for (const QJsonObject &event : sink.take()) {
                const QString bad = badError(event);
                QVERIFY2(bad.isEmpty(), qPrintable(bad + QStringLiteral(" for ") + QString::fromUtf8(line)));
                ++refused;
            }
            // 2. The job's own field parsing, as the worker thread would run it.
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            if (!doc.isObject())
                continue;
            const QJsonObject request = doc.object();
            const QString type = request.value("type").toString();
            const QString id = request.value("id").toString();
            if (id.isEmpty() || type == QLatin1String("cancel") || type == QLatin1String("quit"))
                continue;
            JobContext job(sink, id);
            try {
                if (type == QLatin1String("compile")) { // every check before NVRTC; the sample below compiles
                    ++compileChecked;
                    compileTarget(state, decodeRequest<protocol::CompileJob>(request));
                } else if (type == QLatin1String("disassemble")) {
                    ++compileChecked;
                    compileTarget(state, decodeRequest<protocol::DisassembleJob>(request));
                } else if (!gpu) {
                    ++jobsRun;
                    runJob(state, request, job); // ends at its first refusal or at no_gpu
                } else {
                    ++parsedOnly; // never launch fuzzed jobs on a real GPU
                }
            } catch (const RunnerError &error) {
                const QString bad = badError(errorEvent(id, error));
                QVERIFY2(bad.isEmpty(), qPrintable(bad + QStringLiteral(" for ") + QString::fromUtf8(line)));
                ++refused;
            }
            for (const QJsonObject &event : sink.take())
                QVERIFY2(badError(event).isEmpty(), qPrintable(badError(event)));
        }
        qInfo("runner requests: %d lines; %d refusals, each with a kind and a sentence; %d jobs run to their "
              "end (no GPU here), %d compile targets checked, %d parsed only (GPU here); %lld ms",
              inputs, refused, jobsRun, compileChecked, parsedOnly, timer.elapsed());
        QVERIFY(refused > 0);
    }

    // Random parameter combinations: the catalog decides; a sample of the accepted ones (and of the
    // refused) goes through compile-only mode, for each architecture CI compiles for.
    void catalogThroughCompileOnly()
    {
        Fuzzer fuzz(testsupport::fuzzSeed() + 7);
        CapturingSink sink;
        RunnerState state(m_cache.path());
        const int sample = qEnvironmentVariableIntValue("GEMMSCOPE_FUZZ_COMPILES") > 0
                               ? qEnvironmentVariableIntValue("GEMMSCOPE_FUZZ_COMPILES")
                               : 24;
        QMap<QString, int> answers;
        int tried = 0, accepted = 0, compiled = 0;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20000 && compiled < sample; ++i) {
            const auto &all = stages();
            const StageInfo &stage = all[fuzz.below(int(all.size()))];
            if (stage.isLibrary)
                continue;
            ParamValues p;
            for (const ParamSpec &spec : stage.params)
                p[spec.name] = spec.choices.empty() ? spec.min + fuzz.below(spec.max - spec.min + 1)
                                                    : spec.choices[fuzz.below(int(spec.choices.size()))];
            ++tried;
            const bool ok = violations(stage.id, p, ProblemSize{}).empty();
            accepted += ok;
            // Mostly accepted ones (they reach NVRTC); now and then a refused one (it must not).
            if (!ok && !fuzz.chance(2))
                continue;
            const int arch = QList<int>{75, 80, 90}[fuzz.below(3)];
            const bool runsThere =
                ok && archViolation(stage, arch).empty(); // cp.async: sm_80+; wgmma: sm_90 only
            const QJsonObject request{{"type", "compile"},
                                      {"id", QStringLiteral("s%1").arg(compiled)},
                                      {"stage", QString::fromStdString(stage.key)},
                                      {"params", paramsOf(p)},
                                      {"arch", QStringLiteral("sm_%1").arg(arch)}};
            JobContext job(sink, request.value("id").toString());
            QString kind = QStringLiteral("compiled");
            try {
                runJob(state, request, job);
            } catch (const RunnerError &error) {
                const QJsonObject event = errorEvent(job.id(), error);
                QVERIFY2(badError(event).isEmpty(), qPrintable(badError(event)));
                kind = event.value("kind").toString();
                if (runsThere)
                    QVERIFY2(kind == QLatin1String("out_of_resources") ||
                                 kind == QLatin1String("compile_error"),
                             qPrintable(QString::fromStdString(kernelNameExpression(stage.id, p)) + ": " +
                                        error.message()));
                else
                    QCOMPARE(kind, QStringLiteral("invalid_config"));
            }
            if (runsThere && kind == QLatin1String("compiled")) {
                const QList<QJsonObject> events = sink.take();
                QVERIFY(!events.isEmpty());
                const QJsonObject event = events.last();
                QCOMPARE(event.value("event").toString(), QStringLiteral("compiled"));
                QVERIFY2(event.value("registers").toInt() > 0 || event.contains("occupancy_note"),
                         "registers unknown without saying so");
                const QJsonValue occupancy = event.value("occupancy");
                if (occupancy.isObject())
                    QVERIFY2(occupancy.toObject().value("blocks_per_sm").toInt() > 0,
                             "compiled but cannot launch");
            }
            sink.take();
            ++answers[kind];
            ++compiled;
        }
        QStringList summary;
        for (auto it = answers.cbegin(); it != answers.cend(); ++it)
            summary << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
        qInfo(
            "catalog -> compile-only: %d random parameter sets, %d accepted by the catalog, %d compiled for "
            "sm_75/80/90: %s; %lld ms",
            tried, accepted, compiled, qPrintable(summary.join(QStringLiteral(", "))), timer.elapsed());
        QCOMPARE(compiled, sample);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestBadRequests)
#include "tst_bad_requests.moc"
