#include "requests.h"

#include "json_fields.h"
#include "stage_catalog.h"

namespace gemmscope::protocol {

using detail::putNonEmpty;
using detail::putOpt;
using detail::Reader;

namespace {

// What "Field \"build\" must be ..." says when the build is not a string.
constexpr const char *kBuildValues = "a string, \"release\" or \"scalar_shared\"";
constexpr const char *kTf32RoundingValues = "a string, \"rna\" or \"truncate\"";
constexpr const char *kRegimeValues = "a string, \"burst\" or \"sustained\"";

QJsonObject header(RequestType type, const QString &id)
{
    QJsonObject json{{QStringLiteral("type"), requestTypeName(type)}};
    if (isJob(type) || type == RequestType::Cancel)
        json.insert(QStringLiteral("id"), id);
    return json;
}

bool checkType(Reader &r, const QJsonObject &json, RequestType type)
{
    if (requestTypeOf(json) != type) {
        r.fail(QStringLiteral("The request is not a \"%1\" request.").arg(requestTypeName(type)));
        return false;
    }
    return true;
}

// The stage key and, for a custom stage, its source: the request's own, else the one the
// catalog registered under that key.
void putStage(QJsonObject &json, const QString &stage, const std::optional<KernelSource> &kernel)
{
    json.insert(QStringLiteral("stage"), stage);
    std::optional<KernelSource> source = kernel;
    if (!source)
        if (const StageInfo *info = findStage(stage.toStdString()); info && info->isCustom)
            source = KernelSource{QString::fromStdString(info->sourceText),
                                  QString::fromStdString(info->sourceFile),
                                  QString::fromStdString(info->derivedFrom)};
    if (!source)
        return;
    QJsonObject object{{QStringLiteral("source_text"), source->sourceText}};
    putNonEmpty(object, "file_name", source->fileName);
    putNonEmpty(object, "derived_from", source->derivedFrom);
    json.insert(QStringLiteral("kernel"), object);
}

std::optional<KernelSource> readKernel(Reader &r)
{
    const std::optional<QJsonObject> object = r.optObject("kernel");
    if (!object)
        return std::nullopt;
    Reader k(*object);
    KernelSource source;
    source.sourceText = k.requiredString("source_text");
    source.fileName = k.string("file_name");
    source.derivedFrom = k.string("derived_from");
    QString error;
    if (!k.finish(&error))
        r.fail(QStringLiteral("In \"kernel\": ") + error);
    return source;
}

QJsonObject kernelToJson(RequestType type, const KernelRequest &r)
{
    QJsonObject json = header(type, r.id);
    putStage(json, r.stage, r.kernel);
    if (r.params)
        json.insert(QStringLiteral("params"), paramsToJson(*r.params));
    putNonEmpty(json, "arch", r.arch);
    if (r.size)
        json.insert(QStringLiteral("size"), sizeToJson(*r.size));
    putNonEmpty(json, "build", r.build);
    return json;
}

bool kernelFromJson(const QJsonObject &json, RequestType type, KernelRequest &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, type);
    out.id = r.string("id");
    out.stage = r.requiredString("stage");
    out.kernel = readKernel(r);
    out.params = r.optParams("params");
    out.arch = r.string("arch");
    out.size = r.optSize("size");
    out.build = r.optString("build", kBuildValues).value_or(QString());
    return r.finish(error);
}

} // namespace

QJsonObject paramsToJson(const ParamValues &params)
{
    QJsonObject json;
    for (const auto &[name, value] : params)
        json.insert(QString::fromStdString(name), value);
    return json;
}

QJsonObject sizeToJson(const ProblemSize &size)
{
    return QJsonObject{
        {QStringLiteral("m"), size.m}, {QStringLiteral("n"), size.n}, {QStringLiteral("k"), size.k}};
}

std::optional<RequestType> requestTypeOf(const QJsonObject &json)
{
    return requestTypeFromName(json.value(QStringLiteral("type")).toString());
}

RequestEnvelope envelopeOf(const QJsonObject &json)
{
    RequestEnvelope envelope;
    envelope.typeName = json.value(QStringLiteral("type")).toString();
    envelope.type = requestTypeFromName(envelope.typeName);
    envelope.id = json.value(QStringLiteral("id")).toString();
    return envelope;
}

QJsonObject toJson(const RunJob &r)
{
    QJsonObject json = header(RequestType::Run, r.id);
    putStage(json, r.stage, r.kernel);
    if (r.params)
        json.insert(QStringLiteral("params"), paramsToJson(*r.params));
    json.insert(QStringLiteral("size"), sizeToJson(r.size));
    putOpt(json, "seed", r.seed);
    if (r.timing) {
        QJsonObject timing;
        putOpt(timing, "warmup", r.timing->warmup);
        putOpt(timing, "budget_ms", r.timing->budgetMs);
        putOpt(timing, "min_reps", r.timing->minReps);
        putOpt(timing, "max_reps", r.timing->maxReps);
        putOpt(timing, "flush_l2", r.timing->flushL2);
        putNonEmpty(timing, "regime", r.timing->regime);
        putOpt(timing, "max_noise_pct", r.timing->maxNoisePct);
        putOpt(timing, "throttle_threshold_pct", r.timing->throttleThresholdPct);
        putOpt(timing, "bursts", r.timing->bursts);
        json.insert(QStringLiteral("timing"), timing);
    }
    putOpt(json, "verify", r.verify);
    putOpt(json, "counters", r.counters);
    putNonEmpty(json, "build", r.build);
    putOpt(json, "max_blocks_per_sm", r.maxBlocksPerSm);
    putOpt(json, "smem_carveout", r.smemCarveout);
    putOpt(json, "baseline", r.baseline);
    putNonEmpty(json, "tf32_rounding", r.tf32Rounding);
    putNonEmpty(json, "test_damage", r.testDamage);
    return json;
}

bool fromJson(const QJsonObject &json, RunJob &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Run);
    out.id = r.string("id");
    out.stage = r.requiredString("stage");
    out.kernel = readKernel(r);
    out.params = r.optParams("params");
    out.size = r.optSize("size", true).value_or(ProblemSize{});
    out.seed = r.optInt64("seed");
    if (const std::optional<QJsonObject> timing = r.optObject("timing")) {
        Reader t(*timing);
        TimingRequest tr;
        tr.warmup = t.optInt64("warmup");
        tr.budgetMs = t.optDouble("budget_ms");
        tr.minReps = t.optInt64("min_reps");
        tr.maxReps = t.optInt64("max_reps");
        tr.flushL2 = t.optBool("flush_l2");
        tr.regime = t.optString("regime", kRegimeValues).value_or(QString());
        tr.maxNoisePct = t.optDouble("max_noise_pct");
        tr.throttleThresholdPct = t.optDouble("throttle_threshold_pct");
        tr.bursts = t.optInt64("bursts");
        QString timingError;
        if (!t.finish(&timingError))
            r.fail(QStringLiteral("In \"timing\": ") + timingError);
        out.timing = tr;
    }
    out.verify = r.optBool("verify");
    out.counters = r.optBool("counters");
    out.build = r.optString("build", kBuildValues).value_or(QString());
    out.maxBlocksPerSm = r.optIntInRange("max_blocks_per_sm", 1, 1024);
    out.smemCarveout = r.optIntInRange("smem_carveout", 0, 100);
    out.baseline = r.optBool("baseline");
    out.tf32Rounding = r.optString("tf32_rounding", kTf32RoundingValues).value_or(QString());
    out.testDamage = r.string("test_damage");
    return r.finish(error);
}

QJsonObject toJson(const CompileJob &r)
{
    return kernelToJson(RequestType::Compile, r);
}

bool fromJson(const QJsonObject &json, CompileJob &out, QString *error)
{
    return kernelFromJson(json, RequestType::Compile, out, error);
}

QJsonObject toJson(const TraceOwnerJob &r)
{
    QJsonObject json = header(RequestType::TraceOwner, r.id);
    putStage(json, r.stage, r.kernel);
    if (r.params)
        json.insert(QStringLiteral("params"), paramsToJson(*r.params));
    return json;
}

bool fromJson(const QJsonObject &json, TraceOwnerJob &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::TraceOwner);
    out.id = r.string("id");
    out.stage = r.requiredString("stage");
    out.kernel = readKernel(r);
    out.params = r.optParams("params");
    return r.finish(error);
}

QJsonObject toJson(const DisassembleJob &r)
{
    return kernelToJson(RequestType::Disassemble, r);
}

bool fromJson(const QJsonObject &json, DisassembleJob &out, QString *error)
{
    return kernelFromJson(json, RequestType::Disassemble, out, error);
}

QJsonObject toJson(const CeilingsJob &r)
{
    QJsonObject json = header(RequestType::Ceilings, r.id);
    putOpt(json, "refresh", r.refresh);
    return json;
}

bool fromJson(const QJsonObject &json, CeilingsJob &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Ceilings);
    out.id = r.string("id");
    out.refresh = r.optBool("refresh");
    return r.finish(error);
}

QJsonObject toJson(const ProfileJob &r)
{
    QJsonObject json = header(RequestType::Profile, r.id);
    putStage(json, r.stage, r.kernel);
    if (r.params)
        json.insert(QStringLiteral("params"), paramsToJson(*r.params));
    json.insert(QStringLiteral("size"), sizeToJson(r.size));
    putOpt(json, "seed", r.seed);
    putNonEmpty(json, "build", r.build);
    putNonEmpty(json, "tf32_rounding", r.tf32Rounding);
    if (!r.parts.isEmpty())
        json.insert(QStringLiteral("parts"), QJsonArray::fromStringList(r.parts));
    putOpt(json, "sampling_period", r.samplingPeriod);
    return json;
}

bool fromJson(const QJsonObject &json, ProfileJob &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Profile);
    out.id = r.string("id");
    out.stage = r.requiredString("stage");
    out.kernel = readKernel(r);
    out.params = r.optParams("params");
    out.size = r.optSize("size", true).value_or(ProblemSize{});
    out.seed = r.optInt64("seed");
    out.build = r.optString("build", kBuildValues).value_or(QString());
    out.tf32Rounding = r.optString("tf32_rounding", kTf32RoundingValues).value_or(QString());
    if (const std::optional<QJsonArray> parts = r.optArray("parts")) {
        for (const QJsonValue &part : *parts) {
            const QString name = part.toString();
            if (!profilePartNames().contains(name)) {
                r.fail(QStringLiteral("Field \"parts\" must list only %1.")
                           .arg(profilePartNames().join(QStringLiteral(", "))));
                break;
            }
            if (!out.parts.contains(name))
                out.parts << name;
        }
    }
    out.samplingPeriod = r.optIntInRange("sampling_period", 5, 31);
    return r.finish(error);
}

const QStringList &profilePartNames()
{
    // A profile's parts are also its progress phases: one spelling, the phase table's.
    static const QStringList names{valueName(progressPhaseOf(ProfilePart::Stalls)),
                                   valueName(progressPhaseOf(ProfilePart::Instructions)),
                                   valueName(progressPhaseOf(ProfilePart::Limiters))};
    return names;
}

QJsonObject toJson(const FaultJob &r)
{
    return header(RequestType::Fault, r.id);
}

bool fromJson(const QJsonObject &json, FaultJob &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Fault);
    out.id = r.string("id");
    return r.finish(error);
}

QJsonObject toJson(const CancelRequest &r)
{
    return header(RequestType::Cancel, r.id);
}

bool fromJson(const QJsonObject &json, CancelRequest &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Cancel);
    out.id = r.string("id");
    return r.finish(error);
}

QJsonObject toJson(const QuitRequest &)
{
    return header(RequestType::Quit, {});
}

bool fromJson(const QJsonObject &json, QuitRequest &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, RequestType::Quit);
    return r.finish(error);
}

} // namespace gemmscope::protocol
