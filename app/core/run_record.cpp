#include "run_record.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QStringList>
#include <cmath>

namespace gemmscope {

namespace {

QMap<QString, int> paramsFromJson(const QJsonObject &object)
{
    QMap<QString, int> params;
    for (auto it = object.begin(); it != object.end(); ++it)
        params.insert(it.key(), it.value().toInt());
    return params;
}

QJsonObject paramsToJson(const QMap<QString, int> &params)
{
    QJsonObject object;
    for (auto it = params.begin(); it != params.end(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

void applySize(RunRecord &record, const QJsonObject &size)
{
    record.m = size.value("m").toInteger();
    record.n = size.value("n").toInteger();
    record.k = size.value("k").toInteger();
}

QMap<QString, int> paramsOf(const ParamValues &values)
{
    QMap<QString, int> params;
    for (const auto &[name, value] : values)
        params.insert(QString::fromStdString(name), value);
    return params;
}

// The texts that repeat from run to run of a session (GPU, host, origin, preset, error kind, the
// parameters' and counters' names), one copy each instead of one a run: a session of 100,000 runs
// held a million copies of a dozen strings. Each reading thread keeps its own (no lock), and no
// more than kMaxShared of them, so that a file of all-different names costs no more than before.
class SharedTexts {
public:
    QString shared(const QString &text)
    {
        if (text.isEmpty())
            return text;
        if (const auto it = m_texts.constFind(text); it != m_texts.constEnd())
            return *it;
        if (m_texts.size() < kMaxShared)
            m_texts.insert(text);
        return text;
    }
    // A run's parameters: the same few sets recur (a sweep's points, the ladder's presets).
    QMap<QString, int> shared(const QMap<QString, int> &params)
    {
        QString key;
        for (auto it = params.cbegin(); it != params.cend(); ++it)
            key += it.key() + QLatin1Char('=') + QString::number(it.value()) + QLatin1Char(',');
        if (const auto it = m_params.constFind(key); it != m_params.constEnd())
            return *it;
        QMap<QString, int> copy;
        for (auto it = params.cbegin(); it != params.cend(); ++it)
            copy.insert(shared(it.key()), it.value());
        if (m_params.size() < kMaxShared)
            m_params.insert(key, copy);
        return copy;
    }
    void shareNames(protocol::Counters &counters)
    {
        if (counters.metrics.isEmpty())
            return;
        QMap<QString, double> metrics;
        for (auto it = counters.metrics.cbegin(); it != counters.metrics.cend(); ++it)
            metrics.insert(shared(it.key()), it.value());
        counters.metrics = std::move(metrics);
    }

private:
    static constexpr qsizetype kMaxShared = 4096;
    QSet<QString> m_texts;
    QHash<QString, QMap<QString, int>> m_params;
};

SharedTexts &sharedTexts()
{
    thread_local SharedTexts texts;
    return texts;
}

// What a session's run keeps only in the runner's event it stores: its counters, its warmup and
// its conditions, decoded once when the session is read. Damaged conditions read as unknown (the
// trust mark then says so), never as a failure of the whole session.
void applyStoredEvent(RunRecord &record, const QJsonObject &stored)
{
    std::optional<protocol::ResultEvent> typed; // none for an error event, or none at all
    record.event = StoredEvent::fromSession(stored, &typed);
    record.counters = typed ? std::move(typed->counters) : std::nullopt;
    if (record.counters)
        sharedTexts().shareNames(*record.counters);
    record.warmup = typed ? typed->timing.warmup : std::nullopt;
    record.conditions = typed ? std::move(typed->conditions) : std::nullopt;
}

// A session's `compiled` object: the fields of a `compiled` event a record keeps.
void applyStoredCompiled(RunRecord &record, const QJsonObject &compiled)
{
    if (compiled.isEmpty())
        return;
    protocol::CompiledInfo typed;
    protocol::fromJson(compiled, typed);
    applyCompiled(record, typed);
}

} // namespace

QString RunRecord::sizeText() const
{
    return squareOrFullSizeText(ProblemSize{m, n, k}); // one spelling of a size wherever one is read
}

QString runStatusName(RunStatus s)
{
    switch (s) {
    case RunStatus::Queued:
        return QStringLiteral("queued");
    case RunStatus::Running:
        return QStringLiteral("running");
    case RunStatus::Ok:
        return QStringLiteral("ok");
    case RunStatus::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

std::optional<RunStatus> runStatusFromName(const QString &name)
{
    for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Ok, RunStatus::Failed})
        if (runStatusName(s) == name)
            return s;
    return std::nullopt;
}

void applyCompiled(RunRecord &record, const protocol::CompiledInfo &compiled)
{
    record.registers = compiled.registers;
    record.spillStoreBytes = compiled.spillStoreBytes;
    record.spillLoadBytes = compiled.spillLoadBytes;
    record.staticSmemBytes = compiled.staticSmemBytes;
    record.cacheHit = compiled.cacheHit;
    if (compiled.occupancy) {
        record.occupancy = compiled.occupancy->fraction;
        record.occupancyLimiter = compiled.occupancy->limiter;
        record.blocksPerSm = compiled.occupancy->blocksPerSm;
    }
}

RunRecord recordOfRequest(const protocol::RunJob &request)
{
    RunRecord r;
    r.runId = request.id;
    r.stage = stageIdOf(request.stage);
    r.params = paramsOf(request.params.value_or(ParamValues{}));
    r.m = request.size.m;
    r.n = request.size.n;
    r.k = request.size.k;
    r.flushL2 = request.timing && request.timing->flushL2.value_or(false);
    r.scalarSharedReads = protocol::buildKindFromName(request.build) == protocol::BuildKind::ScalarShared;
    r.maxBlocksPerSm = request.maxBlocksPerSm.value_or(0);
    r.smemCarveout = request.smemCarveout.value_or(-1);
    r.status = RunStatus::Queued;
    r.origin = QStringLiteral("measured");
    return r;
}

RunRecord fromResultEvent(const protocol::ResultEvent &e, const QJsonObject &event)
{
    RunRecord r;
    r.runId = e.id;
    r.stage = stageIdOf(e.stage);
    r.params = paramsOf(e.params);
    r.m = e.size.m;
    r.n = e.size.n;
    r.k = e.size.k;
    r.scalarSharedReads = protocol::buildKindFromName(e.build) == protocol::BuildKind::ScalarShared;
    r.maxBlocksPerSm = e.maxBlocksPerSm.value_or(0);
    r.smemCarveout = e.smemCarveout.value_or(-1);
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = e.timing.medianMs;
    r.p20Ms = e.timing.p20Ms;
    r.p80Ms = e.timing.p80Ms;
    r.minMs = e.timing.minMs;
    r.count = e.timing.count;
    r.warmup = e.timing.warmup;
    r.flushL2 = e.timing.flushL2;
    r.tflops = e.tflops.value_or(0);
    if (r.tflops <= 0 && r.medianMs > 0) // older runners: derive it from the time
        r.tflops = ProblemSize{r.m, r.n, r.k}.tflopsAt(r.medianMs);
    r.relError = e.verify.relError;
    r.tolerance = e.verify.tolerance.value_or(0);
    if (e.compiled)
        applyCompiled(r, *e.compiled);
    r.gpuName = e.gpu.name;
    r.gpuArch = e.gpu.arch;
    r.gpuUuid = e.gpu.uuid;
    r.smClockMHz = int(e.smClockMhz.value_or(0));
    r.timestamp = QDateTime::fromString(e.timestamp, Qt::ISODate);
    if (!r.timestamp.isValid())
        r.timestamp = QDateTime::currentDateTimeUtc();
    r.counters = e.counters;
    r.conditions = e.conditions;
    // A result without a positive, finite median is no time at all: kept as a failed run with its
    // reason, so that a session holding it still loads (fromJson refuses an ok run without one).
    if (!(r.medianMs > 0 && std::isfinite(r.medianMs) && std::isfinite(r.tflops))) {
        r.status = RunStatus::Failed;
        r.errorKind = protocol::errorKindName(protocol::ErrorKind::ProtocolError);
        r.errorMessage =
            QStringLiteral("The result has no positive median time (median_ms %1), so it "
                           "is kept as a failed run and never plotted.")
                .arg(event.value(QStringLiteral("timing")).toObject().contains(QStringLiteral("median_ms"))
                         ? QString::number(r.medianMs)
                         : QStringLiteral("missing"));
    }
    // A result whose verification says it failed is never shown as a valid time.
    else if (e.verify.passed == false) {
        r.status = RunStatus::Failed;
        r.errorKind = protocol::errorKindName(protocol::ErrorKind::WrongResult);
        r.errorMessage = QStringLiteral("The result differs from cuBLAS (relative error %1, tolerance %2).")
                             .arg(r.relError.value_or(qQNaN()))
                             .arg(r.tolerance);
    }
    r.event = StoredEvent(e, event);
    return r;
}

RunRecord fromErrorEvent(const protocol::ErrorEvent &e, const protocol::RunJob &job, const QJsonObject &event)
{
    RunRecord r = recordOfRequest(job);
    if (!e.id.isEmpty())
        r.runId = e.id;
    r.status = RunStatus::Failed;
    r.errorKind = protocol::errorKindName(e.kind);
    r.errorMessage = e.message;
    if (r.errorMessage.isEmpty())
        r.errorMessage =
            QStringLiteral("The runner reported a failure of kind %1 without a message.").arg(r.errorKind);
    r.errorLog = e.log;
    if (e.hasWrongResultDetail) {
        r.relError = e.relError;
        r.tolerance = e.tolerance;
    }
    r.timestamp = QDateTime::currentDateTimeUtc();
    r.event = event.isEmpty() ? StoredEvent(e) : StoredEvent(e, event);
    return r;
}

QJsonObject toJson(const RunRecord &r)
{
    QJsonObject o;
    o["run_id"] = r.runId;
    o["stage"] = r.stageKey();
    if (!r.presetKey.isEmpty())
        o["preset"] = r.presetKey;
    o["params"] = paramsToJson(r.params);
    o["size"] = QJsonObject{{"m", r.m}, {"n", r.n}, {"k", r.k}};
    o["status"] = runStatusName(r.status);
    o["origin"] = r.origin;
    if (r.scalarSharedReads)
        o["build"] = protocol::valueName(protocol::BuildKind::ScalarShared);
    if (r.maxBlocksPerSm > 0)
        o["max_blocks_per_sm"] = r.maxBlocksPerSm;
    if (r.smemCarveout >= 0)
        o["smem_carveout"] = r.smemCarveout;
    if (r.status == RunStatus::Ok) {
        o["timing"] = QJsonObject{{"median_ms", r.medianMs}, {"p20_ms", r.p20Ms}, {"p80_ms", r.p80Ms},
                                  {"min_ms", r.minMs},       {"count", r.count},  {"flush_l2", r.flushL2}};
        o["tflops"] = r.tflops;
    }
    if (r.relError)
        o["rel_error"] = *r.relError;
    if (r.tolerance > 0)
        o["tolerance"] = r.tolerance;
    if (r.registers >= 0 || r.occupancy >= 0 || r.staticSmemBytes > 0) {
        o["compiled"] =
            QJsonObject{{"registers", r.registers},
                        {"spill_store_bytes", r.spillStoreBytes},
                        {"spill_load_bytes", r.spillLoadBytes},
                        {"static_smem_bytes", r.staticSmemBytes},
                        {"cache_hit", r.cacheHit},
                        {"occupancy", QJsonObject{{"fraction", r.occupancy},
                                                  {"limiter", protocol::valueName(r.occupancyLimiter)},
                                                  {"blocks_per_sm", r.blocksPerSm}}}};
    }
    if (r.status == RunStatus::Failed)
        o["error"] = QJsonObject{{"kind", r.errorKind}, {"message", r.errorMessage}, {"log", r.errorLog}};
    QJsonObject gpu{{"name", r.gpuName}, {"arch", r.gpuArch}};
    if (!r.gpuUuid.isEmpty())
        gpu["uuid"] = r.gpuUuid;
    if (r.smCount > 0)
        gpu["sms"] = r.smCount;
    o["gpu"] = gpu;
    if (!r.host.isEmpty())
        o["host"] = r.host;
    if (r.smClockMHz > 0)
        o["sm_clock_mhz"] = r.smClockMHz;
    if (r.timestamp.isValid())
        o["timestamp"] = r.timestamp.toUTC().toString(Qt::ISODateWithMs);
    if (!r.event.isEmpty())
        o["raw"] = r.event.toJson();
    return o;
}

std::optional<RunRecord> fromJson(const QJsonObject &o, QString *error)
{
    const auto fail = [&](const QString &why) -> std::optional<RunRecord> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    RunRecord r;
    r.runId = o.value("run_id").toString();
    if (r.runId.isEmpty())
        return fail(QStringLiteral("a run has no run_id"));
    r.stage = stageIdOf(o.value("stage").toString());
    if (r.stage.key().empty())
        return fail(QStringLiteral("run %1 has no stage").arg(r.runId));
    const auto status = runStatusFromName(o.value("status").toString());
    if (!status)
        return fail(
            QStringLiteral("run %1 has an unknown status \"%2\"").arg(r.runId, o.value("status").toString()));
    r.status = *status;
    if (!o.value("size").isObject())
        return fail(QStringLiteral("run %1 has no size").arg(r.runId));
    applySize(r, o.value("size").toObject());
    if (r.m <= 0 || r.n <= 0 || r.k <= 0)
        return fail(QStringLiteral("run %1 has an invalid size").arg(r.runId));
    r.presetKey = o.value("preset").toString();
    r.params = paramsFromJson(o.value("params").toObject());
    r.origin = o.value("origin").toString(QStringLiteral("measured"));
    r.scalarSharedReads =
        protocol::buildKindFromName(o.value("build").toString()) == protocol::BuildKind::ScalarShared;
    r.maxBlocksPerSm = o.value("max_blocks_per_sm").toInt(0);
    r.smemCarveout = o.value("smem_carveout").toInt(-1);
    if (r.status == RunStatus::Ok) {
        if (!o.value("timing").isObject())
            return fail(QStringLiteral("run %1 is marked ok but has no timing").arg(r.runId));
        const QJsonObject t = o.value("timing").toObject();
        r.medianMs = t.value("median_ms").toDouble();
        r.p20Ms = t.value("p20_ms").toDouble(r.medianMs);
        r.p80Ms = t.value("p80_ms").toDouble(r.medianMs);
        r.minMs = t.value("min_ms").toDouble(r.medianMs);
        r.count = t.value("count").toInt();
        r.flushL2 = t.value("flush_l2").toBool();
        if (!(r.medianMs > 0))
            return fail(QStringLiteral("run %1 is marked ok but has no positive median time").arg(r.runId));
        r.tflops = o.value("tflops").toDouble(ProblemSize{r.m, r.n, r.k}.tflopsAt(r.medianMs));
    }
    if (o.contains("rel_error"))
        r.relError = o.value("rel_error").toDouble();
    r.tolerance = o.value("tolerance").toDouble();
    applyStoredCompiled(r, o.value("compiled").toObject());
    const QJsonObject err = o.value("error").toObject();
    r.errorKind = err.value("kind").toString();
    r.errorMessage = err.value("message").toString();
    r.errorLog = err.value("log").toString();
    if (r.status == RunStatus::Failed && r.errorKind.isEmpty())
        return fail(QStringLiteral("run %1 is marked failed but has no error kind").arg(r.runId));
    if (r.status == RunStatus::Failed && r.errorMessage.trimmed().isEmpty()) // a kind, but no sentence
        r.errorMessage =
            QStringLiteral("The run failed with kind %1; the file keeps no message.").arg(r.errorKind);
    const QJsonObject gpu = o.value("gpu").toObject();
    r.gpuName = gpu.value("name").toString();
    r.gpuArch = gpu.value("arch").toString();
    r.gpuUuid = gpu.value("uuid").toString();
    r.smCount = gpu.value("sms").toInt();
    r.host = o.value("host").toString();
    r.smClockMHz = o.value("sm_clock_mhz").toInt();
    r.timestamp = QDateTime::fromString(o.value("timestamp").toString(), Qt::ISODateWithMs);
    applyStoredEvent(r, o.value("raw").toObject());
    SharedTexts &texts = sharedTexts();
    for (QString *text : {&r.presetKey, &r.origin, &r.errorKind, &r.gpuName, &r.gpuArch, &r.gpuUuid, &r.host})
        *text = texts.shared(*text);
    r.params = texts.shared(r.params);
    return r;
}

ParamValues paramValuesOf(const RunRecord &run)
{
    ParamValues values;
    for (auto it = run.params.cbegin(); it != run.params.cend(); ++it)
        values[it.key().toStdString()] = it.value();
    return values;
}

QString catalogRefusal(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    if (!stage)
        return QStringLiteral("The catalog has no stage \"%1\".").arg(run.stageKey());
    const std::vector<std::string> reasons =
        violations(stage->id, paramValuesOf(run), ProblemSize{run.m, run.n, run.k});
    QStringList text;
    for (const std::string &reason : reasons)
        text << QString::fromStdString(reason);
    return text.join(QLatin1Char(' '));
}

QString squareOrFullSizeText(const ProblemSize &z)
{
    return z.m == z.n && z.n == z.k ? QString::number(z.m) + QChar(0x00B3) // not arg(): "%1³" reads as %13
                                    : QStringLiteral("%1x%2x%3").arg(z.m).arg(z.n).arg(z.k);
}

QString formatRunParams(const RunRecord &run)
{
    QStringList parts;
    if (const QString text = QString::fromStdString(formatParams(paramValuesOf(run))); !text.isEmpty())
        parts << text;
    if (run.scalarSharedReads)
        parts << QStringLiteral("scalar shared reads");
    if (run.maxBlocksPerSm > 0)
        parts << QStringLiteral("at most %1 block%2/SM")
                     .arg(run.maxBlocksPerSm)
                     .arg(run.maxBlocksPerSm == 1 ? "" : "s");
    if (run.smemCarveout >= 0)
        parts << QStringLiteral("carve-out %1 %").arg(run.smemCarveout);
    return parts.join(QStringLiteral(", "));
}

} // namespace gemmscope
