#include "conditions.h"

#include "json_fields.h"

#include <QJsonArray>

namespace gemmscope::protocol {

using detail::putNonEmpty;
using detail::putOpt;
using detail::Reader;

QJsonObject toJson(const RunConditions &c)
{
    QJsonObject json{{QStringLiteral("regime"), valueName(c.regime)},
                     {QStringLiteral("samples"), c.samples},
                     {QStringLiteral("throttled_samples"), c.throttledSamples},
                     {QStringLiteral("max_noise_pct"), c.maxNoisePct},
                     {QStringLiteral("throttle_threshold_pct"), c.throttleThresholdPct},
                     {QStringLiteral("stopped_by"), valueName(c.stoppedBy)}};
    if (c.allThrottled)
        json.insert(QStringLiteral("all_throttled"), true);
    putOpt(json, "noise_pct", c.noisePct);
    putOpt(json, "sm_clock_start_mhz", c.smClockStartMhz);
    putOpt(json, "sm_clock_min_mhz", c.smClockMinMhz);
    putOpt(json, "sm_clock_median_mhz", c.smClockMedianMhz);
    putOpt(json, "power_max_w", c.powerMaxW);
    putOpt(json, "power_limit_w", c.powerLimitW);
    json.insert(QStringLiteral("throttle_reasons"),
                QJsonArray::fromStringList(throttleReasonNames(c.throttleReasons)));
    putOpt(json, "temperature_start_c", c.temperatureStartC);
    putOpt(json, "temperature_end_c", c.temperatureEndC);
    putNonEmpty(json, "telemetry_unavailable", c.telemetryUnavailable);
    putOpt(json, "cooldown_ms", c.cooldownMs);
    putOpt(json, "load_warmup_ms", c.loadWarmupMs);
    if (!c.cooled)
        json.insert(QStringLiteral("cooled"), false);
    if (c.bursts > 1) {
        json.insert(QStringLiteral("bursts"), c.bursts);
        json.insert(QStringLiteral("chosen_burst"), c.chosenBurst);
        json.insert(QStringLiteral("burst_medians_ms"), detail::numbersToJson(c.burstMediansMs));
    }
    return json;
}

bool fromJson(const QJsonObject &json, RunConditions &out, QString *error)
{
    Reader r(json);
    out = {};
    out.regime = timingRegimeFromName(r.string("regime"));
    if (out.regime == TimingRegime::Unknown)
        r.fail(QStringLiteral("Field \"regime\" must be %1.").arg(quotedNames(timingRegimeNames())));
    out.samples = r.optInt("samples").value_or(0);
    out.throttledSamples = r.optInt("throttled_samples").value_or(0);
    if (out.samples < 0 || out.throttledSamples < 0 || out.throttledSamples > out.samples)
        r.fail(QStringLiteral("Fields \"samples\" and \"throttled_samples\" must be counts, the second "
                              "at most the first."));
    out.allThrottled = r.optBool("all_throttled").value_or(false);
    out.noisePct = r.optDouble("noise_pct");
    out.maxNoisePct = r.optDouble("max_noise_pct").value_or(0);
    out.throttleThresholdPct = r.optDouble("throttle_threshold_pct").value_or(0);
    out.stoppedBy = stopReasonFromName(r.string("stopped_by"));
    if (out.stoppedBy == StopReason::Unknown)
        r.fail(QStringLiteral("Field \"stopped_by\" must be %1.").arg(quotedNames(stopReasonNames())));
    out.smClockStartMhz = r.optDouble("sm_clock_start_mhz");
    out.smClockMinMhz = r.optDouble("sm_clock_min_mhz");
    out.smClockMedianMhz = r.optDouble("sm_clock_median_mhz");
    out.powerMaxW = r.optDouble("power_max_w");
    out.powerLimitW = r.optDouble("power_limit_w");
    if (const auto reasons = r.optArray("throttle_reasons")) {
        for (const QJsonValue &reason : *reasons) {
            if (!reason.isString()) {
                r.fail(QStringLiteral("Field \"throttle_reasons\" must be a list of strings."));
                break;
            }
            out.throttleReasons << throttleReasonFromName(reason.toString());
        }
    }
    out.temperatureStartC = r.optInt("temperature_start_c");
    out.temperatureEndC = r.optInt("temperature_end_c");
    out.telemetryUnavailable = r.string("telemetry_unavailable");
    out.cooldownMs = r.optDouble("cooldown_ms");
    out.loadWarmupMs = r.optDouble("load_warmup_ms");
    out.cooled = r.optBool("cooled").value_or(true);
    out.bursts = r.optInt("bursts").value_or(1);
    out.chosenBurst = r.optInt("chosen_burst").value_or(0);
    if (out.bursts < 1)
        r.fail(QStringLiteral("Field \"bursts\" must be a count of at least 1."));
    else if (out.chosenBurst < 0 || out.chosenBurst >= out.bursts)
        r.fail(QStringLiteral("Field \"chosen_burst\" must name one of the bursts (0 to %1).")
                   .arg(out.bursts - 1));
    out.burstMediansMs = r.nonNegativeNumbers("burst_medians_ms", "times in ms");
    return r.finish(error);
}

} // namespace gemmscope::protocol
