// Times repeated launches with CUDA events: warm-up launches first, then repetitions until the
// kernel-time budget or the repetition cap, at least the minimum; median, p20, p80 and min.
#pragma once

#include "events.h"

#include <functional>
#include <vector>

namespace gemmscope::runner {

class JobContext;

struct TimingOptions {
    int warmup = 2;
    double budgetMs = 1000;
    int minReps = 5;
    int maxReps = 200;
    bool flushL2 = false;
};

struct TimingStats {
    double medianMs = 0, p20Ms = 0, p80Ms = 0, minMs = 0;
    int count = 0;
};

// Median, p20 and p80 (kernels/statistics.h's percentile), min and count of the times.
TimingStats summarize(std::vector<double> timesMs);

// `launch` enqueues one launch on the default stream; `betweenReps` (may be empty) runs before
// each repetition outside the timed region (the L2 flush). Cancellation is checked between reps.
TimingStats timeLaunches(const std::function<void()> &launch, const std::function<void()> &betweenReps,
                         const TimingOptions &options, JobContext &job);

// A result's `timing`: the statistics with the options they were measured under.
protocol::TimingResult timingResult(const TimingStats &stats, const TimingOptions &options);

} // namespace gemmscope::runner
