#include "events.h"

#include "json_fields.h"
#include "requests.h"

#include <QJsonArray>

namespace gemmscope::protocol {

using detail::orNull;
using detail::putNonEmpty;
using detail::putOpt;
using detail::Reader;

namespace {

QJsonObject header(EventType type, const QString &id)
{
    QJsonObject json{{QStringLiteral("event"), eventTypeName(type)}};
    if (!id.isEmpty())
        json.insert(QStringLiteral("id"), id);
    return json;
}

void checkType(Reader &r, const QJsonObject &json, EventType type)
{
    if (eventTypeOf(json) != type)
        r.fail(QStringLiteral("The event is not a \"%1\" event.").arg(eventTypeName(type)));
}

// A nested object read with its own Reader; its first wrong field is reported with its name.
template <typename F> void nested(Reader &parent, const QJsonObject &object, const char *key, F read)
{
    Reader r(object);
    read(r);
    QString error;
    if (!r.finish(&error))
        parent.fail(QStringLiteral("In \"%1\": %2").arg(QLatin1String(key), error));
}

QJsonObject gpuToJson(const GpuInfo &gpu)
{
    QJsonObject json{{QStringLiteral("name"), gpu.name}, {QStringLiteral("arch"), gpu.arch}};
    putOpt(json, "cc", gpu.cc);
    putOpt(json, "sms", gpu.sms);
    putOpt(json, "sm_clock_mhz", gpu.smClockMhz);
    putNonEmpty(json, "sm_clock_source", gpu.smClockSource);
    putOpt(json, "l2_bytes", gpu.l2Bytes);
    putOpt(json, "mem_bytes", gpu.memBytes);
    putOpt(json, "smem_per_block_optin", gpu.smemPerBlockOptin);
    putNonEmpty(json, "uuid", gpu.uuid);
    return json;
}

GpuInfo gpuFromJson(Reader &parent, const QJsonObject &object)
{
    GpuInfo gpu;
    nested(parent, object, "gpu", [&](Reader &r) {
        gpu.name = r.string("name");
        gpu.arch = r.string("arch");
        gpu.uuid = r.string("uuid");
        gpu.cc = r.optInt("cc");
        gpu.sms = r.optInt("sms");
        gpu.smClockMhz = r.optInt("sm_clock_mhz");
        gpu.smClockSource = r.string("sm_clock_source");
        gpu.smemPerBlockOptin = r.optInt("smem_per_block_optin");
        gpu.l2Bytes = r.optDouble("l2_bytes");
        gpu.memBytes = r.optDouble("mem_bytes");
    });
    return gpu;
}

OccupancyInfo occupancyFromJson(Reader &parent, const QJsonObject &object)
{
    OccupancyInfo o;
    nested(parent, object, "occupancy", [&](Reader &r) {
        o.blocksPerSm = r.optInt("blocks_per_sm").value_or(0);
        o.activeWarps = r.optInt("active_warps").value_or(0);
        o.maxWarps = r.optInt("max_warps").value_or(0);
        o.fraction = r.optDouble("fraction").value_or(0);
        o.limiter = occupancyLimiterFromName(r.string("limiter"));
        o.explanation = r.string("explanation");
        o.requestedBlocksPerSm = r.optInt("requested_blocks_per_sm");
        o.paddingSmemBytes = r.optInt("padding_smem_bytes");
    });
    return o;
}

void readCompiled(Reader &r, CompiledInfo &c)
{
    c.id = r.string("id");
    c.stage = r.string("stage");
    c.kernel = r.string("kernel");
    c.loweredName = r.string("lowered_name");
    c.arch = r.string("arch");
    c.ptxasLog = r.string("ptxas_log");
    c.cacheHit = r.optBool("cache_hit").value_or(false);
    c.compileMs = r.optDouble("compile_ms").value_or(0);
    c.cubinBytes = r.optDouble("cubin_bytes");
    c.registers = r.optInt("registers").value_or(-1);
    c.spillStoreBytes = r.optInt("spill_store_bytes").value_or(0);
    c.spillLoadBytes = r.optInt("spill_load_bytes").value_or(0);
    c.stackFrameBytes = r.optInt("stack_frame_bytes").value_or(0);
    c.staticSmemBytes = r.optInt("static_smem_bytes").value_or(0);
    c.dynamicSmemBytes = r.optInt("dynamic_smem_bytes").value_or(0);
    if (const auto occupancy = r.optObject("occupancy"))
        c.occupancy = occupancyFromJson(r, *occupancy);
    c.smemCarveout = r.optInt("smem_carveout");
    c.params = r.optParams("params");
    c.threadsPerBlock = r.optInt("threads_per_block");
    c.compiledAhead = r.optBool("compiled_ahead");
    c.compileWaitMs = r.optDouble("compile_wait_ms");
    if (r.has("resources_source"))
        c.resourcesSource = r.isNull("resources_source") ? QString() : r.string("resources_source");
    c.occupancyNote = r.string("occupancy_note");
}

void readCounters(Reader &r, Counters &c)
{
    c.error = r.string("error");
    c.dramReadBytes = r.optDouble("dram_read_bytes");
    c.dramWriteBytes = r.optDouble("dram_write_bytes");
    c.l2Bytes = r.optDouble("l2_bytes");
    c.ffmaThreadInst = r.optDouble("ffma_thread_inst");
    c.flops = r.optDouble("flops");
    c.dramIntensity = r.optDouble("dram_intensity");
    c.l2Intensity = r.optDouble("l2_intensity");
    c.l1Bytes = r.optDouble("l1_bytes");
    c.sharedBytes = r.optDouble("shared_bytes");
    c.l1Intensity = r.optDouble("l1_intensity");
    c.kernels = r.optInt("kernels");
    if (const auto access = r.optObject("access"); access && !access->isEmpty()) {
        AccessCounters a;
        nested(r, *access, "access", [&](Reader &ar) {
            a.globalLdSectorsPerRequest = ar.optDouble("global_ld_sectors_per_request");
            a.globalStSectorsPerRequest = ar.optDouble("global_st_sectors_per_request");
            a.sharedLdWavefrontsPerRequest = ar.optDouble("shared_ld_wavefronts_per_request");
            a.sharedStWavefrontsPerRequest = ar.optDouble("shared_st_wavefronts_per_request");
        });
        c.access = a;
    }
    if (const auto metrics = r.optObject("metrics"))
        for (auto it = metrics->begin(); it != metrics->end(); ++it)
            if (it.value().isDouble()) // the documentation's "...": "..." placeholder is not a metric
                c.metrics.insert(it.key(), it.value().toDouble());
}

QJsonObject numbersToJson(const QMap<QString, double> &numbers)
{
    QJsonObject json;
    for (auto it = numbers.begin(); it != numbers.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

// A {"name": number} object; a value of another type is named in the reader's error.
QMap<QString, double> numbersFromJson(Reader &r, const QJsonObject &object, const char *key)
{
    QMap<QString, double> numbers;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isDouble())
            numbers.insert(it.key(), it.value().toDouble());
        else
            r.fail(QStringLiteral("Field \"%1\" must hold only numbers (\"%2\" does not).")
                       .arg(QLatin1String(key), it.key()));
    }
    return numbers;
}

} // namespace

double ProfileInstruction::samples() const
{
    double total = 0;
    for (const double n : stalls)
        total += n;
    return total;
}

std::optional<EventType> eventTypeOf(const QJsonObject &json)
{
    return eventTypeFromName(json.value(QStringLiteral("event")).toString());
}

QString eventIdOf(const QJsonObject &json)
{
    return json.value(QStringLiteral("id")).toString();
}

namespace {
template <typename T> Event decodeAs(const QJsonObject &json, QString *error)
{
    T event;
    fromJson(json, event, error);
    return event;
}
} // namespace

std::optional<Event> decodeEvent(const QJsonObject &json, QString *error)
{
    const std::optional<EventType> type = eventTypeOf(json);
    if (!type) {
        if (error)
            *error = QStringLiteral("The event has no known type.");
        return std::nullopt;
    }
    switch (*type) {
    case EventType::Ready:
        return decodeAs<ReadyEvent>(json, error);
    case EventType::Compiled:
        return decodeAs<CompiledInfo>(json, error);
    case EventType::Progress:
        return decodeAs<ProgressEvent>(json, error);
    case EventType::Result:
        return decodeAs<ResultEvent>(json, error);
    case EventType::Error:
        return decodeAs<ErrorEvent>(json, error);
    case EventType::Ceilings:
        return decodeAs<CeilingsEvent>(json, error);
    case EventType::OwnerMap:
        return decodeAs<OwnerMapEvent>(json, error);
    case EventType::Disassembly:
        return decodeAs<DisassemblyEvent>(json, error);
    case EventType::Profile:
        return decodeAs<ProfileEvent>(json, error);
    }
    return std::nullopt;
}

QJsonValue protocolVersionValue(const QJsonObject &ready)
{
    return ready.value(QStringLiteral("protocol"));
}

void setEventId(QJsonObject &event, const QString &id)
{
    event.insert(QStringLiteral("id"), id);
}

QJsonObject wrongResultFields(std::optional<double> relError, double tolerance, bool nan)
{
    return QJsonObject{{QStringLiteral("rel_error"), orNull(relError)},
                       {QStringLiteral("tolerance"), tolerance},
                       {QStringLiteral("nan"), nan}};
}

QJsonObject toJson(const ReadyEvent &e)
{
    QJsonObject json = header(EventType::Ready, {});
    json.insert(QStringLiteral("protocol"), e.protocol);
    json.insert(QStringLiteral("runner"), e.runner);
    json.insert(QStringLiteral("nvrtc"), e.nvrtc);
    putNonEmpty(json, "cache_dir", e.cacheDir);
    putNonEmpty(json, "host", e.host);
    if (e.gpu) {
        json.insert(QStringLiteral("gpu"), gpuToJson(*e.gpu));
    } else {
        json.insert(QStringLiteral("gpu"), QJsonValue(QJsonValue::Null));
        json.insert(QStringLiteral("gpu_error"), QJsonObject{{QStringLiteral("kind"), e.gpuErrorKind},
                                                             {QStringLiteral("message"), e.gpuErrorMessage}});
    }
    return json;
}

bool fromJson(const QJsonObject &json, ReadyEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Ready);
    out.protocol = r.optInt("protocol").value_or(0);
    out.runner = r.string("runner");
    out.nvrtc = r.string("nvrtc");
    out.cacheDir = r.string("cache_dir");
    out.host = r.string("host");
    if (const auto gpu = r.optObject("gpu"))
        out.gpu = gpuFromJson(r, *gpu);
    if (const auto gpuError = r.optObject("gpu_error")) {
        nested(r, *gpuError, "gpu_error", [&](Reader &g) {
            out.gpuErrorKind = g.string("kind");
            out.gpuErrorMessage = g.string("message");
        });
    }
    return r.finish(error);
}

QJsonObject toJson(const ProgressEvent &e)
{
    QJsonObject json = header(EventType::Progress, e.id);
    json.insert(QStringLiteral("phase"), valueName(e.phase));
    json.insert(QStringLiteral("done"), e.done);
    json.insert(QStringLiteral("total"), e.total);
    putOpt(json, "preliminary_median_ms", e.preliminaryMedianMs);
    return json;
}

bool fromJson(const QJsonObject &json, ProgressEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Progress);
    out.id = r.string("id");
    out.phase = progressPhaseFromName(r.string("phase"));
    out.done = r.optInt("done").value_or(0);
    out.total = r.optInt("total").value_or(0);
    out.preliminaryMedianMs = r.optDouble("preliminary_median_ms");
    return r.finish(error);
}

QJsonObject toJson(const GpuInfo &gpu)
{
    return gpuToJson(gpu);
}

QJsonObject toJson(const OccupancyInfo &o)
{
    QJsonObject json{{QStringLiteral("blocks_per_sm"), o.blocksPerSm},
                     {QStringLiteral("active_warps"), o.activeWarps},
                     {QStringLiteral("max_warps"), o.maxWarps},
                     {QStringLiteral("fraction"), o.fraction},
                     {QStringLiteral("limiter"), valueName(o.limiter)}};
    putNonEmpty(json, "explanation", o.explanation);
    putOpt(json, "requested_blocks_per_sm", o.requestedBlocksPerSm);
    putOpt(json, "padding_smem_bytes", o.paddingSmemBytes);
    return json;
}

QJsonObject toJson(const CompiledInfo &c)
{
    QJsonObject json = c.id.isEmpty() ? QJsonObject{} : header(EventType::Compiled, c.id);
    json.insert(QStringLiteral("stage"), c.stage);
    json.insert(QStringLiteral("kernel"), c.kernel);
    putNonEmpty(json, "lowered_name", c.loweredName);
    json.insert(QStringLiteral("arch"), c.arch);
    json.insert(QStringLiteral("cache_hit"), c.cacheHit);
    json.insert(QStringLiteral("compile_ms"), c.compileMs);
    putOpt(json, "cubin_bytes", c.cubinBytes);
    json.insert(QStringLiteral("registers"), c.registers);
    json.insert(QStringLiteral("spill_store_bytes"), c.spillStoreBytes);
    json.insert(QStringLiteral("spill_load_bytes"), c.spillLoadBytes);
    json.insert(QStringLiteral("stack_frame_bytes"), c.stackFrameBytes);
    json.insert(QStringLiteral("static_smem_bytes"), c.staticSmemBytes);
    if (c.dynamicSmemBytes > 0)
        json.insert(QStringLiteral("dynamic_smem_bytes"), c.dynamicSmemBytes);
    json.insert(QStringLiteral("occupancy"),
                c.occupancy ? QJsonValue(toJson(*c.occupancy)) : QJsonValue(QJsonValue::Null));
    putOpt(json, "smem_carveout", c.smemCarveout);
    if (c.params)
        json.insert(QStringLiteral("params"), paramsToJson(*c.params));
    putOpt(json, "threads_per_block", c.threadsPerBlock);
    putOpt(json, "compiled_ahead", c.compiledAhead);
    putOpt(json, "compile_wait_ms", c.compileWaitMs);
    if (c.resourcesSource)
        json.insert(QStringLiteral("resources_source"), c.resourcesSource->isEmpty()
                                                            ? QJsonValue(QJsonValue::Null)
                                                            : QJsonValue(*c.resourcesSource));
    putNonEmpty(json, "occupancy_note", c.occupancyNote);
    json.insert(QStringLiteral("ptxas_log"), c.ptxasLog);
    return json;
}

bool fromJson(const QJsonObject &json, CompiledInfo &out, QString *error)
{
    Reader r(json);
    out = {};
    if (json.contains(QStringLiteral("event")))
        checkType(r, json, EventType::Compiled);
    readCompiled(r, out);
    return r.finish(error);
}

QJsonObject toJson(const Counters &c)
{
    if (c.hasError())
        return QJsonObject{{QStringLiteral("error"), c.error}};
    QJsonObject json{{QStringLiteral("dram_read_bytes"), orNull(c.dramReadBytes)},
                     {QStringLiteral("dram_write_bytes"), orNull(c.dramWriteBytes)},
                     {QStringLiteral("l2_bytes"), orNull(c.l2Bytes)},
                     {QStringLiteral("ffma_thread_inst"), orNull(c.ffmaThreadInst)},
                     {QStringLiteral("flops"), orNull(c.flops)},
                     {QStringLiteral("dram_intensity"), orNull(c.dramIntensity)},
                     {QStringLiteral("l2_intensity"), orNull(c.l2Intensity)}};
    // Runs recorded before these were read have neither bytes: nothing written for them.
    if (c.l1Bytes || c.sharedBytes) {
        json.insert(QStringLiteral("l1_bytes"), orNull(c.l1Bytes));
        json.insert(QStringLiteral("shared_bytes"), orNull(c.sharedBytes));
        json.insert(QStringLiteral("l1_intensity"), orNull(c.l1Intensity));
    }
    putOpt(json, "kernels", c.kernels);
    if (c.access)
        json.insert(QStringLiteral("access"), QJsonObject{{QStringLiteral("global_ld_sectors_per_request"),
                                                           orNull(c.access->globalLdSectorsPerRequest)},
                                                          {QStringLiteral("global_st_sectors_per_request"),
                                                           orNull(c.access->globalStSectorsPerRequest)},
                                                          {QStringLiteral("shared_ld_wavefronts_per_request"),
                                                           orNull(c.access->sharedLdWavefrontsPerRequest)},
                                                          {QStringLiteral("shared_st_wavefronts_per_request"),
                                                           orNull(c.access->sharedStWavefrontsPerRequest)}});
    QJsonObject metrics;
    for (auto it = c.metrics.begin(); it != c.metrics.end(); ++it)
        metrics.insert(it.key(), it.value());
    json.insert(QStringLiteral("metrics"), metrics);
    return json;
}

bool fromJson(const QJsonObject &json, Counters &out, QString *error)
{
    Reader r(json);
    out = {};
    readCounters(r, out);
    return r.finish(error);
}

namespace {

QJsonObject timingToJson(const TimingResult &t)
{
    QJsonObject timing{{QStringLiteral("median_ms"), t.medianMs}, {QStringLiteral("p20_ms"), t.p20Ms},
                       {QStringLiteral("p80_ms"), t.p80Ms},       {QStringLiteral("min_ms"), t.minMs},
                       {QStringLiteral("count"), t.count},        {QStringLiteral("flush_l2"), t.flushL2}};
    putOpt(timing, "warmup", t.warmup);
    putOpt(timing, "budget_ms", t.budgetMs);
    return timing;
}

void readTiming(Reader &t, TimingResult &out)
{
    out.medianMs = t.optDouble("median_ms").value_or(0);
    out.p20Ms = t.optDouble("p20_ms").value_or(0);
    out.p80Ms = t.optDouble("p80_ms").value_or(0);
    out.minMs = t.optDouble("min_ms").value_or(0);
    out.count = t.optInt("count").value_or(0);
    out.warmup = t.optInt("warmup");
    out.budgetMs = t.optDouble("budget_ms");
    out.flushL2 = t.optBool("flush_l2").value_or(false);
}

std::optional<RunConditions> readConditions(Reader &parent, const QJsonObject &object, const char *key)
{
    RunConditions conditions;
    QString error;
    if (!fromJson(object, conditions, &error)) {
        parent.fail(QStringLiteral("In \"%1\": %2").arg(QLatin1String(key), error));
        return std::nullopt;
    }
    return conditions;
}

} // namespace

QJsonObject toJson(const ResultEvent &e)
{
    QJsonObject json = header(EventType::Result, e.id);
    json.insert(QStringLiteral("stage"), e.stage);
    json.insert(QStringLiteral("params"), paramsToJson(e.params));
    json.insert(QStringLiteral("size"), sizeToJson(e.size));
    putOpt(json, "seed", e.seed);
    json.insert(QStringLiteral("gpu"), gpuToJson(e.gpu));
    json.insert(QStringLiteral("timing"), timingToJson(e.timing));
    putOpt(json, "tflops", e.tflops);
    QJsonObject verify{{QStringLiteral("reference"), e.verify.reference}};
    putOpt(verify, "rel_error", e.verify.relError);
    putOpt(verify, "tolerance", e.verify.tolerance);
    if (e.verify.skipped)
        verify.insert(QStringLiteral("skipped"), true);
    verify.insert(QStringLiteral("passed"),
                  e.verify.passed ? QJsonValue(*e.verify.passed) : QJsonValue(QJsonValue::Null));
    json.insert(QStringLiteral("verify"), verify);
    if (e.compiled)
        json.insert(QStringLiteral("compiled"), toJson(*e.compiled));
    putNonEmpty(json, "build", e.build);
    putNonEmpty(json, "tf32_rounding", e.tf32Rounding);
    putOpt(json, "max_blocks_per_sm", e.maxBlocksPerSm);
    putOpt(json, "smem_carveout", e.smemCarveout);
    putOpt(json, "sm_clock_mhz", e.smClockMhz);
    putNonEmpty(json, "sm_clock_source", e.smClockSource);
    putNonEmpty(json, "timestamp", e.timestamp);
    if (e.counters)
        json.insert(QStringLiteral("counters"), toJson(*e.counters));
    if (e.conditions)
        json.insert(QStringLiteral("conditions"), toJson(*e.conditions));
    if (e.baseline) {
        QJsonObject baseline{{QStringLiteral("stage"), e.baseline->stage},
                             {QStringLiteral("timing"), timingToJson(e.baseline->timing)},
                             {QStringLiteral("conditions"), toJson(e.baseline->conditions)}};
        if (const auto &paired = e.baseline->pairedRatio) {
            QJsonObject ratio{{QStringLiteral("median"), paired->median},
                              {QStringLiteral("p20"), paired->p20},
                              {QStringLiteral("p80"), paired->p80},
                              {QStringLiteral("pairs"), paired->pairs}};
            putOpt(ratio, "noise_pct", paired->noisePct);
            if (!paired->burstMedians.isEmpty())
                ratio.insert(QStringLiteral("burst_medians"), detail::numbersToJson(paired->burstMedians));
            baseline.insert(QStringLiteral("paired_ratio"), ratio);
        }
        json.insert(QStringLiteral("baseline"), baseline);
    }
    return json;
}

bool fromJson(const QJsonObject &json, ResultEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Result);
    out.id = r.string("id");
    out.stage = r.string("stage");
    out.params = r.optParams("params").value_or(ParamValues{});
    out.size = r.optSize("size").value_or(ProblemSize{0, 0, 0});
    out.seed = r.optDouble("seed");
    if (const auto gpu = r.optObject("gpu"))
        out.gpu = gpuFromJson(r, *gpu);
    if (const auto timing = r.optObject("timing"))
        nested(r, *timing, "timing", [&](Reader &t) { readTiming(t, out.timing); });
    out.tflops = r.optDouble("tflops");
    if (const auto verify = r.optObject("verify"))
        nested(r, *verify, "verify", [&](Reader &v) {
            out.verify.reference = v.string("reference");
            out.verify.relError = v.optDouble("rel_error");
            out.verify.tolerance = v.optDouble("tolerance");
            out.verify.passed = v.optBool("passed");
            out.verify.skipped = v.optBool("skipped").value_or(false);
        });
    if (const auto compiled = r.optObject("compiled")) {
        CompiledInfo c;
        nested(r, *compiled, "compiled", [&](Reader &cr) { readCompiled(cr, c); });
        out.compiled = c;
    }
    out.build = r.string("build");
    out.tf32Rounding = r.string("tf32_rounding");
    out.maxBlocksPerSm = r.optInt("max_blocks_per_sm");
    out.smemCarveout = r.optInt("smem_carveout");
    out.smClockMhz = r.optDouble("sm_clock_mhz");
    out.smClockSource = r.string("sm_clock_source");
    out.timestamp = r.string("timestamp");
    if (const auto counters = r.optObject("counters")) {
        Counters c;
        nested(r, *counters, "counters", [&](Reader &cr) { readCounters(cr, c); });
        out.counters = c;
    }
    if (const auto conditions = r.optObject("conditions"))
        out.conditions = readConditions(r, *conditions, "conditions");
    if (const auto baseline = r.optObject("baseline"))
        nested(r, *baseline, "baseline", [&](Reader &b) {
            BaselineResult result;
            result.stage = b.requiredString("stage");
            if (const auto timing = b.optObject("timing"))
                nested(b, *timing, "timing", [&](Reader &t) { readTiming(t, result.timing); });
            if (const auto conditions = b.optObject("conditions"))
                result.conditions = readConditions(b, *conditions, "conditions").value_or(RunConditions{});
            if (const auto paired = b.optObject("paired_ratio"))
                nested(b, *paired, "paired_ratio", [&](Reader &p) {
                    PairedRatioResult ratio;
                    ratio.median = p.optDouble("median").value_or(0);
                    ratio.p20 = p.optDouble("p20").value_or(0);
                    ratio.p80 = p.optDouble("p80").value_or(0);
                    ratio.pairs = p.optInt("pairs").value_or(0);
                    ratio.noisePct = p.optDouble("noise_pct");
                    ratio.burstMedians = p.nonNegativeNumbers("burst_medians", "ratios");
                    result.pairedRatio = ratio;
                });
            out.baseline = result;
        });
    return r.finish(error);
}

QJsonObject toJson(const ErrorEvent &e)
{
    QJsonObject json = header(EventType::Error, {});
    json.insert(QStringLiteral("id"), e.id.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(e.id));
    json.insert(QStringLiteral("kind"), errorKindName(e.kind));
    json.insert(QStringLiteral("message"), e.message);
    putNonEmpty(json, "log", e.log);
    if (e.hasWrongResultDetail) {
        json.insert(QStringLiteral("rel_error"), orNull(e.relError));
        json.insert(QStringLiteral("tolerance"), e.tolerance);
        json.insert(QStringLiteral("nan"), e.nan);
    }
    return json;
}

bool fromJson(const QJsonObject &json, ErrorEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Error);
    out.id = r.string("id");
    const QString kind = r.string("kind");
    if (const auto k = errorKindFromName(kind))
        out.kind = *k;
    else
        r.fail(QStringLiteral("Unknown error kind \"%1\".").arg(kind));
    out.message = r.string("message");
    out.log = r.string("log");
    out.hasWrongResultDetail = r.has("tolerance");
    out.relError = r.optDouble("rel_error");
    out.tolerance = r.optDouble("tolerance").value_or(0);
    out.nan = r.optBool("nan").value_or(false);
    return r.finish(error);
}

QJsonObject toJson(const CeilingsEvent &e)
{
    QJsonObject json = header(EventType::Ceilings, e.id);
    json.insert(QStringLiteral("gpu"), gpuToJson(e.gpu));
    json.insert(QStringLiteral("fma_tflops"), e.fmaTflops);
    json.insert(QStringLiteral("dram_gbs"), e.dramGbs);
    json.insert(QStringLiteral("cached"), e.cached);
    putNonEmpty(json, "measured_at", e.measuredAt);
    if (e.tf32Tflops)
        json.insert(QStringLiteral("tf32_tflops"), *e.tf32Tflops);
    putNonEmpty(json, "tf32_kernel", e.tf32Kernel);
    putNonEmpty(json, "tf32_unavailable", e.tf32Unavailable);
    putOpt(json, "l2_gbs", e.l2Gbs);
    putOpt(json, "shared_gbs", e.sharedGbs);
    return json;
}

bool fromJson(const QJsonObject &json, CeilingsEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Ceilings);
    out.id = r.string("id");
    if (const auto gpu = r.optObject("gpu"))
        out.gpu = gpuFromJson(r, *gpu);
    out.fmaTflops = r.optDouble("fma_tflops").value_or(0);
    out.dramGbs = r.optDouble("dram_gbs").value_or(0);
    out.cached = r.optBool("cached").value_or(false);
    out.measuredAt = r.string("measured_at");
    out.tf32Tflops = r.optDouble("tf32_tflops");
    out.tf32Kernel = r.string("tf32_kernel");
    out.tf32Unavailable = r.string("tf32_unavailable");
    out.l2Gbs = r.optDouble("l2_gbs");
    out.sharedGbs = r.optDouble("shared_gbs");
    return r.finish(error);
}

QJsonObject toJson(const OwnerMapEvent &e)
{
    QJsonObject json = header(EventType::OwnerMap, e.id);
    json.insert(QStringLiteral("stage"), e.stage);
    json.insert(QStringLiteral("params"), paramsToJson(e.params));
    json.insert(QStringLiteral("rows"), e.rows);
    json.insert(QStringLiteral("cols"), e.cols);
    json.insert(QStringLiteral("k"), e.k);
    json.insert(QStringLiteral("threads"), e.threads);
    QJsonArray owners;
    for (int o : e.owners)
        owners.append(o);
    json.insert(QStringLiteral("owners"), owners);
    return json;
}

bool fromJson(const QJsonObject &json, OwnerMapEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::OwnerMap);
    out.id = r.string("id");
    out.stage = r.string("stage");
    out.params = r.optParams("params").value_or(ParamValues{});
    out.rows = r.optInt("rows").value_or(0);
    out.cols = r.optInt("cols").value_or(0);
    out.k = r.optInt64("k").value_or(0);
    out.threads = r.optInt("threads").value_or(0);
    if (const auto owners = r.optArray("owners"))
        for (const QJsonValue &v : *owners)
            out.owners.append(v.toInt(-1));
    return r.finish(error);
}

QJsonObject toJson(const DisassemblyEvent &e)
{
    QJsonObject json = header(EventType::Disassembly, e.id);
    json.insert(QStringLiteral("stage"), e.stage);
    json.insert(QStringLiteral("kernel"), e.kernel);
    json.insert(QStringLiteral("arch"), e.arch);
    json.insert(QStringLiteral("params"), paramsToJson(e.params));
    json.insert(QStringLiteral("ptx"), e.ptx);
    json.insert(QStringLiteral("sass"), e.sass ? QJsonValue(*e.sass) : QJsonValue(QJsonValue::Null));
    putNonEmpty(json, "sass_tool", e.sassTool);
    putNonEmpty(json, "sass_unavailable", e.sassUnavailable);
    return json;
}

bool fromJson(const QJsonObject &json, DisassemblyEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Disassembly);
    out.id = r.string("id");
    out.stage = r.string("stage");
    out.kernel = r.string("kernel");
    out.arch = r.string("arch");
    out.params = r.optParams("params").value_or(ParamValues{});
    out.ptx = r.string("ptx");
    out.sass = r.optString("sass");
    out.sassTool = r.string("sass_tool");
    out.sassUnavailable = r.string("sass_unavailable");
    return r.finish(error);
}

QJsonObject toJson(const ProfileEvent &e)
{
    QJsonObject json = header(EventType::Profile, e.id);
    json.insert(QStringLiteral("stage"), e.stage);
    json.insert(QStringLiteral("params"), paramsToJson(e.params));
    json.insert(QStringLiteral("size"), sizeToJson(e.size));
    json.insert(QStringLiteral("gpu"), gpuToJson(e.gpu));
    putNonEmpty(json, "arch", e.arch);
    putNonEmpty(json, "build", e.build);
    putNonEmpty(json, "tf32_rounding", e.tf32Rounding);
    putOpt(json, "sampling_period", e.samplingPeriod);
    putOpt(json, "total_samples", e.totalSamples);
    putOpt(json, "dropped_samples", e.droppedSamples);
    if (e.samplingBufferFull)
        json.insert(QStringLiteral("sampling_buffer_full"), true);
    QJsonArray instructions;
    for (const ProfileInstruction &i : e.instructions) {
        QJsonObject o{{QStringLiteral("function"), i.function}, {QStringLiteral("pc"), i.pc}};
        putNonEmpty(o, "sass", i.sass);
        putNonEmpty(o, "file", i.file);
        if (i.line > 0)
            o.insert(QStringLiteral("line"), i.line);
        if (!i.stalls.isEmpty())
            o.insert(QStringLiteral("stalls"), numbersToJson(i.stalls));
        if (!i.metrics.isEmpty())
            o.insert(QStringLiteral("metrics"), numbersToJson(i.metrics));
        instructions.append(o);
    }
    json.insert(QStringLiteral("instructions"), instructions);
    if (!e.limiters.isEmpty())
        json.insert(QStringLiteral("limiters"), numbersToJson(e.limiters));
    putNonEmpty(json, "stalls_error", e.stallsError);
    putNonEmpty(json, "instructions_error", e.instructionsError);
    putNonEmpty(json, "limiters_error", e.limitersError);
    putOpt(json, "duration_ms", e.durationMs);
    putNonEmpty(json, "timestamp", e.timestamp);
    return json;
}

bool fromJson(const QJsonObject &json, ProfileEvent &out, QString *error)
{
    Reader r(json);
    out = {};
    checkType(r, json, EventType::Profile);
    out.id = r.string("id");
    out.stage = r.string("stage");
    out.params = r.optParams("params").value_or(ParamValues{});
    out.size = r.optSize("size").value_or(ProblemSize{0, 0, 0});
    if (const auto gpu = r.optObject("gpu"))
        out.gpu = gpuFromJson(r, *gpu);
    out.arch = r.string("arch");
    out.build = r.string("build");
    out.tf32Rounding = r.string("tf32_rounding");
    out.samplingPeriod = r.optInt("sampling_period");
    out.totalSamples = r.optDouble("total_samples");
    out.droppedSamples = r.optDouble("dropped_samples");
    out.samplingBufferFull = r.optBool("sampling_buffer_full").value_or(false);
    if (const auto instructions = r.optArray("instructions")) {
        for (const QJsonValue &value : *instructions) {
            if (!value.isObject()) {
                r.fail(QStringLiteral("Field \"instructions\" must hold only objects."));
                break;
            }
            ProfileInstruction i;
            nested(r, value.toObject(), "instructions", [&](Reader &ir) {
                i.function = ir.string("function");
                i.pc = ir.optInt64("pc").value_or(0);
                i.sass = ir.string("sass");
                i.file = ir.string("file");
                i.line = ir.optInt("line").value_or(0);
                if (const auto stalls = ir.optObject("stalls"))
                    i.stalls = numbersFromJson(ir, *stalls, "stalls");
                if (const auto metrics = ir.optObject("metrics"))
                    i.metrics = numbersFromJson(ir, *metrics, "metrics");
            });
            out.instructions.append(i);
        }
    }
    if (const auto limiters = r.optObject("limiters"))
        out.limiters = numbersFromJson(r, *limiters, "limiters");
    out.stallsError = r.string("stalls_error");
    out.instructionsError = r.string("instructions_error");
    out.limitersError = r.string("limiters_error");
    out.durationMs = r.optDouble("duration_ms");
    out.timestamp = r.string("timestamp");
    return r.finish(error);
}

} // namespace gemmscope::protocol
