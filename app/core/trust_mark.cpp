#include "trust_mark.h"

#include "run_record.h"

#include <algorithm>

namespace gemmscope {

namespace {

QString percentText(double value)
{
    return QString::number(value, 'f', value < 10 ? 2 : 1) + QStringLiteral(" %");
}

QString mhz(double value)
{
    return QString::number(value, 'f', 0);
}

using protocol::ThrottleReason;

bool hardLimit(const QList<ThrottleReason> &reasons)
{
    return reasons.contains(ThrottleReason::Thermal) || reasons.contains(ThrottleReason::HwSlowdown) ||
           reasons.contains(ThrottleReason::PowerBrake);
}

QString reasonWord(ThrottleReason reason)
{
    switch (reason) {
    case ThrottleReason::PowerCap:
        return QStringLiteral("power cap");
    case ThrottleReason::Thermal: // its name is its word
        return protocol::valueName(reason);
    case ThrottleReason::HwSlowdown:
        return QStringLiteral("hardware slowdown");
    case ThrottleReason::PowerBrake:
        return QStringLiteral("power brake");
    case ThrottleReason::Unknown: // a newer runner's reason: it held the clock, by a name not known here
        break;
    }
    return QStringLiteral("a limit this GemmScope does not know");
}

// "power cap, thermal": NVML's reasons in words.
QString reasonWords(const QList<ThrottleReason> &reasons)
{
    QStringList words;
    for (ThrottleReason r : reasons)
        words << reasonWord(r);
    words.removeDuplicates(); // two unknown reasons are said once
    return words.join(QStringLiteral(", "));
}

// The regime as the sentence names it: its own name ("burst", "sustained").
QString regimeWord(protocol::TimingRegime regime)
{
    return regime == protocol::TimingRegime::Unknown ? QStringLiteral("regime unknown")
                                                     : protocol::valueName(regime);
}

QString noiseClause(const protocol::RunConditions &c, int counted)
{
    if (!c.noisePct)
        return QStringLiteral("noise unknown over %1 samples").arg(counted);
    return QStringLiteral("%1 noise over %2 samples").arg(percentText(*c.noisePct)).arg(counted);
}

} // namespace

QString clockText(const std::optional<protocol::RunConditions> &c)
{
    if (!c || !c->smClockMedianMhz)
        return QStringLiteral("-");
    const double lo = c->smClockMinMhz.value_or(*c->smClockMedianMhz), median = *c->smClockMedianMhz;
    if (median - lo < 0.5)
        return mhz(median) + QStringLiteral(" MHz");
    return QStringLiteral("%1–%2 MHz").arg(mhz(lo), mhz(median)); // en dash, as the table's p20–p80
}

TrustMark trustMark(const std::optional<protocol::RunConditions> &conditions, bool published)
{
    if (published)
        return {
            TrustLevel::Published, QStringLiteral("published"),
            QStringLiteral("Published by the worklog on its own GPU; conditions unknown, so it is compared "
                           "by ratio only.")};
    if (!conditions)
        return {TrustLevel::Unknown, QStringLiteral("unknown"),
                QStringLiteral("Recorded before GemmScope measured clocks, power and noise: conditions "
                               "unknown.")};
    const protocol::RunConditions &c = *conditions;
    const int counted = c.allThrottled ? c.samples : c.samples - c.throttledSamples;
    QString regime = regimeWord(c.regime);
    // Several bursts: the result is the best one's, and the spread of the others says how much one
    // burst's figure moves (docs/protocol.md, "bursts").
    if (c.bursts > 1 && !c.burstMediansMs.isEmpty()) {
        const auto [lo, hi] = std::minmax_element(c.burstMediansMs.cbegin(), c.burstMediansMs.cend());
        regime += QStringLiteral(", best of %1 bursts (their medians %2-%3 ms)")
                      .arg(c.bursts)
                      .arg(*lo, 0, 'g', 4)
                      .arg(*hi, 0, 'g', 4);
    }
    const QString limits = reasonWords(c.throttleReasons);
    // A burst that ended when the clock fell (stopped_by "clock_drop") left out only the sample that
    // showed the fall: the samples counted all ran at the burst clock.
    const bool burstEnded =
        c.stoppedBy == protocol::StopReason::ClockDrop && c.throttledSamples <= 1 && !c.allThrottled;
    const int leftOut = burstEnded ? 0 : c.throttledSamples;
    if (c.allThrottled || leftOut > 0 || hardLimit(c.throttleReasons) || !c.cooled) {
        QString why;
        if (c.allThrottled)
            why = QStringLiteral("every one of %1 samples ran below %2 of the starting clock")
                      .arg(c.samples)
                      .arg(percentText(c.throttleThresholdPct));
        else if (c.throttledSamples > 0)
            why = QStringLiteral("%1 of %2 samples ran below %3 of the starting clock and are left out")
                      .arg(c.throttledSamples)
                      .arg(c.samples)
                      .arg(percentText(c.throttleThresholdPct));
        else if (!c.cooled)
            why = QStringLiteral("the GPU had not cooled down when timing began");
        else
            why = QStringLiteral("the driver lowered the clock");
        if (!limits.isEmpty())
            why += QStringLiteral(" (%1)").arg(limits);
        return {TrustLevel::Throttled, QStringLiteral("throttled"),
                QStringLiteral("Throttled: %1; SM clock %2, %3, %4.")
                    .arg(why, clockText(conditions), noiseClause(c, counted), regime)};
    }
    if (c.noisePct && c.maxNoisePct > 0 && *c.noisePct > c.maxNoisePct)
        return {TrustLevel::Noisy, QStringLiteral("noisy"),
                QStringLiteral("Noisy: %1 over %2 samples, above the %3 target; SM clock %4, %5.")
                    .arg(percentText(*c.noisePct))
                    .arg(counted)
                    .arg(percentText(c.maxNoisePct), clockText(conditions), regime)};
    QString steady =
        QStringLiteral("Steady: %1 at %2, %3").arg(noiseClause(c, counted), clockText(conditions), regime);
    if (burstEnded)
        steady += QStringLiteral("; the burst ended when the clock fell%1, and timing with it")
                      .arg(limits.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(limits));
    else if (!limits.isEmpty())
        steady += QStringLiteral(" (%1 reached, clock held)").arg(limits);
    if (!c.telemetryUnavailable.isEmpty())
        steady += QStringLiteral("; no power or temperature readings");
    return {TrustLevel::Steady, QStringLiteral("steady"), steady + QLatin1Char('.')};
}

TrustMark trustOf(const RunRecord &run)
{
    return trustMark(run.conditions, run.origin == QLatin1String("worklog"));
}

} // namespace gemmscope
