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
    return o;
}

ParamValues paramsOrDefaults(const StageInfo &stage, const std::optional<ParamValues> &params)
{
    return params ? *params : defaultParams(stage.id);
}

} // namespace gemmscope::runner
