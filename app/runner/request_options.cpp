#include "request_options.h"

#include <algorithm>

namespace gemmscope::runner {

TimingOptions timingOptions(const std::optional<protocol::TimingRequest> &timing)
{
    TimingOptions o;
    if (!timing)
        return o;
    o.warmup = int(std::clamp<long long>(timing->warmup.value_or(o.warmup), 0, 1000));
    o.budgetMs = std::clamp(timing->budgetMs.value_or(o.budgetMs), 0.0, 3.6e6);
    o.minReps = int(std::clamp<long long>(timing->minReps.value_or(o.minReps), 1, 100000));
    o.maxReps = int(std::clamp<long long>(timing->maxReps.value_or(o.maxReps), 1, 100000));
    o.flushL2 = timing->flushL2.value_or(o.flushL2);
    // The noise criterion is refused rather than clamped: a target of 0 would time for the whole
    // budget while seeming to ask for precision, and a threshold above 100 % drops every sample.
    if (!timing->regime.isEmpty()) {
        o.regime = protocol::timingRegimeFromName(timing->regime);
        if (o.regime == TimingRegime::Unknown)
            throw RunnerError(
                ErrorKind::InvalidConfig,
                QStringLiteral("Unknown timing regime \"%1\"; known: %2.")
                    .arg(timing->regime, protocol::timingRegimeNames().join(QStringLiteral(", "))));
    }
    o.noise.maxNoisePct = timing->maxNoisePct.value_or(o.noise.maxNoisePct);
    o.noise.throttleThresholdPct = timing->throttleThresholdPct.value_or(o.noise.throttleThresholdPct);
    if (const std::string why = checkNoiseCriterion(o.noise); !why.empty())
        throw RunnerError(ErrorKind::InvalidConfig, QString::fromStdString(why));
    // Refused rather than clamped, as the noise criterion: each burst waits for an idle GPU (up to
    // 5 s), and several bursts of a sustained run would be one long run.
    if (const auto bursts = timing->bursts) {
        if (*bursts < 1 || *bursts > protocol::kMaxBursts)
            throw RunnerError(ErrorKind::InvalidConfig,
                              QStringLiteral("\"bursts\" must be between 1 and %1; it was %2.")
                                  .arg(protocol::kMaxBursts)
                                  .arg(*bursts));
        if (*bursts > 1 && o.regime != TimingRegime::Burst)
            throw RunnerError(ErrorKind::InvalidConfig,
                              QStringLiteral("\"bursts\" above 1 needs the burst regime: a sustained run "
                                             "is one stretch at load."));
        o.bursts = int(*bursts);
    }
    return o;
}

ParamValues paramsOrDefaults(const StageInfo &stage, const std::optional<ParamValues> &params)
{
    return params ? *params : defaultParams(stage.id);
}

bool roundsTf32Inputs(const StageInfo &stage, const QString &rounding)
{
    using protocol::Tf32Rounding;
    const Tf32Rounding asked =
        rounding.isEmpty() ? Tf32Rounding::Rna : protocol::tf32RoundingFromName(rounding);
    if (asked == Tf32Rounding::Unknown)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("Unknown TF32 rounding \"%1\"; known: %2.")
                              .arg(rounding, protocol::tf32RoundingNames().join(QStringLiteral(", "))));
    if (!rounding.isEmpty() && (stage.isLibrary || stage.precision != Precision::Tf32))
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("\"tf32_rounding\" applies to GemmScope's TF32 stages; %1 is not one.")
                .arg(QString::fromStdString(stage.key)));
    return !stage.isLibrary && stage.precision == Precision::Tf32 && asked != Tf32Rounding::Truncate;
}

} // namespace gemmscope::runner
