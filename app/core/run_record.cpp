#include "run_record.h"

#include <QJsonArray>
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

// Stage, params and size of the job: from the event where it carries them, else from the request.
void applyJobIdentity(RunRecord &record, const QJsonObject &event, const QJsonObject &request)
{
    const auto pick = [&](const char *key) {
        return event.contains(key) ? event.value(key) : request.value(key);
    };
    record.runId = event.value("id").toString(request.value("id").toString());
    record.stage = pick("stage").toString();
    record.params = paramsFromJson(pick("params").toObject());
    applySize(record, pick("size").toObject());
    record.flushL2 = request.value("timing").toObject().value("flush_l2").toBool();
    record.scalarSharedReads = pick("build").toString() == QLatin1String("scalar_shared");
    record.maxBlocksPerSm = pick("max_blocks_per_sm").toInt(0);
    record.smemCarveout = pick("smem_carveout").toInt(-1);
}

} // namespace

QString RunRecord::sizeText() const
{
    return QStringLiteral("%1x%2x%3").arg(m).arg(n).arg(k);
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

void applyCompiled(RunRecord &record, const QJsonObject &compiled)
{
    if (compiled.isEmpty())
        return;
    record.registers = compiled.value("registers").toInt(-1);
    record.spillStoreBytes = compiled.value("spill_store_bytes").toInt();
    record.spillLoadBytes = compiled.value("spill_load_bytes").toInt();
    record.staticSmemBytes = compiled.value("static_smem_bytes").toInt();
    record.cacheHit = compiled.value("cache_hit").toBool();
    const QJsonObject occupancy = compiled.value("occupancy").toObject();
    if (!occupancy.isEmpty()) {
        record.occupancy = occupancy.value("fraction").toDouble(-1);
        record.occupancyLimiter = occupancy.value("limiter").toString();
    }
}

RunRecord fromResultEvent(const QJsonObject &event)
{
    RunRecord r;
    applyJobIdentity(r, event, {});
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    const QJsonObject timing = event.value("timing").toObject();
    r.medianMs = timing.value("median_ms").toDouble();
    r.p20Ms = timing.value("p20_ms").toDouble();
    r.p80Ms = timing.value("p80_ms").toDouble();
    r.minMs = timing.value("min_ms").toDouble();
    r.count = timing.value("count").toInt();
    r.flushL2 = timing.value("flush_l2").toBool();
    r.tflops = event.value("tflops").toDouble();
    if (r.tflops <= 0 && r.medianMs > 0) // older runners: derive it from the time
        r.tflops = 2.0 * double(r.m) * double(r.n) * double(r.k) / (r.medianMs * 1e-3) / 1e12;
    const QJsonObject verify = event.value("verify").toObject();
    if (verify.contains("rel_error"))
        r.relError = verify.value("rel_error").toDouble();
    r.tolerance = verify.value("tolerance").toDouble();
    applyCompiled(r, event.value("compiled").toObject());
    const QJsonObject gpu = event.value("gpu").toObject();
    r.gpuName = gpu.value("name").toString();
    r.gpuArch = gpu.value("arch").toString();
    r.smClockMHz = event.value("sm_clock_mhz").toInt();
    r.timestamp = QDateTime::fromString(event.value("timestamp").toString(), Qt::ISODate);
    if (!r.timestamp.isValid())
        r.timestamp = QDateTime::currentDateTimeUtc();
    // A result without a positive, finite median is no time at all: kept as a failed run with its
    // reason, so that a session holding it still loads (fromJson refuses an ok run without one).
    if (!(r.medianMs > 0 && std::isfinite(r.medianMs) && std::isfinite(r.tflops))) {
        r.status = RunStatus::Failed;
        r.errorKind = QStringLiteral("protocol_error");
        r.errorMessage =
            QStringLiteral("The result has no positive median time (median_ms %1), so it "
                           "is kept as a failed run and never plotted.")
                .arg(timing.contains("median_ms") ? QString::number(r.medianMs) : QStringLiteral("missing"));
    }
    // A result whose verification says it failed is never shown as a valid time.
    else if (verify.contains("passed") && !verify.value("passed").toBool()) {
        r.status = RunStatus::Failed;
        r.errorKind = QStringLiteral("wrong_result");
        r.errorMessage = QStringLiteral("The result differs from cuBLAS (relative error %1, tolerance %2).")
                             .arg(r.relError.value_or(qQNaN()))
                             .arg(r.tolerance);
    }
    r.raw = event;
    return r;
}

RunRecord fromErrorEvent(const QJsonObject &event, const QJsonObject &request)
{
    RunRecord r;
    applyJobIdentity(r, event, request);
    r.status = RunStatus::Failed;
    r.origin = QStringLiteral("measured");
    r.errorKind = event.value("kind").toString();
    if (r.errorKind.isEmpty()) // a failed run always has a kind (and a session refuses one without)
        r.errorKind = QStringLiteral("protocol_error");
    r.errorMessage = event.value("message").toString();
    if (r.errorMessage.isEmpty())
        r.errorMessage =
            QStringLiteral("The runner reported a failure of kind %1 without a message.").arg(r.errorKind);
    r.errorLog = event.value("log").toString();
    if (event.contains("rel_error"))
        r.relError = event.value("rel_error").toDouble();
    r.tolerance = event.value("tolerance").toDouble();
    applyCompiled(r, event.value("compiled").toObject());
    r.timestamp = QDateTime::currentDateTimeUtc();
    r.raw = event;
    return r;
}

QJsonObject toJson(const RunRecord &r)
{
    QJsonObject o;
    o["run_id"] = r.runId;
    o["stage"] = r.stage;
    if (!r.presetKey.isEmpty())
        o["preset"] = r.presetKey;
    o["params"] = paramsToJson(r.params);
    o["size"] = QJsonObject{{"m", r.m}, {"n", r.n}, {"k", r.k}};
    o["status"] = runStatusName(r.status);
    o["origin"] = r.origin;
    if (r.scalarSharedReads)
        o["build"] = QStringLiteral("scalar_shared");
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
        o["compiled"] = QJsonObject{
            {"registers", r.registers},
            {"spill_store_bytes", r.spillStoreBytes},
            {"spill_load_bytes", r.spillLoadBytes},
            {"static_smem_bytes", r.staticSmemBytes},
            {"cache_hit", r.cacheHit},
            {"occupancy", QJsonObject{{"fraction", r.occupancy}, {"limiter", r.occupancyLimiter}}}};
    }
    if (r.status == RunStatus::Failed)
        o["error"] = QJsonObject{{"kind", r.errorKind}, {"message", r.errorMessage}, {"log", r.errorLog}};
    o["gpu"] = QJsonObject{{"name", r.gpuName}, {"arch", r.gpuArch}};
    if (r.smClockMHz > 0)
        o["sm_clock_mhz"] = r.smClockMHz;
    if (r.timestamp.isValid())
        o["timestamp"] = r.timestamp.toUTC().toString(Qt::ISODateWithMs);
    if (!r.raw.isEmpty())
        o["raw"] = r.raw;
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
    r.stage = o.value("stage").toString();
    if (r.stage.isEmpty())
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
    r.scalarSharedReads = o.value("build").toString() == QLatin1String("scalar_shared");
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
        r.tflops =
            o.value("tflops").toDouble(2.0 * double(r.m) * double(r.n) * double(r.k) / (r.medianMs * 1e9));
    }
    if (o.contains("rel_error"))
        r.relError = o.value("rel_error").toDouble();
    r.tolerance = o.value("tolerance").toDouble();
    applyCompiled(r, o.value("compiled").toObject());
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
    r.smClockMHz = o.value("sm_clock_mhz").toInt();
    r.timestamp = QDateTime::fromString(o.value("timestamp").toString(), Qt::ISODateWithMs);
    r.raw = o.value("raw").toObject();
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
    const StageInfo *stage = findStage(run.stage.toStdString());
    if (!stage)
        return QStringLiteral("The catalog has no stage \"%1\".").arg(run.stage);
    const std::vector<std::string> reasons =
        violations(stage->id, paramValuesOf(run), ProblemSize{run.m, run.n, run.k});
    QStringList text;
    for (const std::string &reason : reasons)
        text << QString::fromStdString(reason);
    return text.join(QLatin1Char(' '));
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
