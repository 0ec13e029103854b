// Times repeated launches with CUDA events (docs/protocol.md, "timing" and "conditions"): in the
// requested regime, warm-up launches first, then repetitions until the samples' noise meets its
// target, the kernel-time budget ends or the repetition cap is reached (at least the minimum).
// With probes, each sample's SM clock is measured and samples below the throttle threshold are
// left out; with a second launch (a baseline), the two are timed alternately, one launch each, and
// timing may also stop once the per-round ratio of the two meets the noise target (the figure a
// comparison needs; each series alone may stay noisier under a wandering clock).
#pragma once

#include "conditions.h"
#include "events.h"
#include "paired_ratio.h"
#include "timing_series.h"

#include <functional>
#include <vector>

namespace gemmscope::runner {

class ClockProbe;
class GpuTelemetry;
class JobContext;

using protocol::TimingRegime;

struct TimingOptions {
    int warmup = 2;
    double budgetMs = 1000;
    int minReps = 5;
    int maxReps = 200;
    bool flushL2 = false;
    TimingRegime regime = TimingRegime::Burst;
    NoiseCriterion noise;    // target 0.5 %, threshold 90 %, 10 samples
    bool stopOnNoise = true; // a peak microbenchmark takes its fixed repetitions
    // Burst: this many bursts, each from an idle GPU with its own warm-up and stopping rules; the
    // result is the burst whose reference launch (the baseline, else the stage) was fastest, the
    // others' medians listed (kernel_timer.cpp, chosenBurst, says why).
    int bursts = 1;
};

struct TimingStats {
    double medianMs = 0, p20Ms = 0, p80Ms = 0, minMs = 0;
    int count = 0; // the samples in the statistics
};

// What measures the conditions; either may be null (nothing measured then).
struct TimingProbes {
    ClockProbe *clock = nullptr;
    const GpuTelemetry *telemetry = nullptr;
    double maxClockMhz = 0; // the device's boost clock (cudaDevAttrClockRate): what a cool GPU reaches
};

struct TimedLaunch {
    TimingStats stats;
    protocol::RunConditions conditions;
    // For every launch after the first (a baseline): its time over the first launch's, round by round.
    std::optional<PairedRatioSummary> pairedWithFirst;
    // Several bursts (a baseline): each burst's median paired ratio, in order.
    QList<double> burstPairedMedians;
};

// Median, p20 and p80 (kernels/statistics.h's percentile), min and count of the times.
TimingStats summarize(std::vector<double> timesMs);

// `launches` (one, or a stage and its baseline) each enqueue one launch on the default stream;
// `betweenReps` (may be empty) runs before each launch outside the timed region (the L2 flush).
// Cancellation is checked between launches and while waiting. One answer per launch, in order.
std::vector<TimedLaunch> timeInterleaved(const std::vector<std::function<void()>> &launches,
                                         const std::function<void()> &betweenReps,
                                         const TimingOptions &options, JobContext &job,
                                         const TimingProbes &probes);

// One launch, no probes: a peak microbenchmark's timing.
TimingStats timeLaunches(const std::function<void()> &launch, const std::function<void()> &betweenReps,
                         const TimingOptions &options, JobContext &job);

// A result's `timing`: the statistics with the options they were measured under.
protocol::TimingResult timingResult(const TimingStats &stats, const TimingOptions &options);

} // namespace gemmscope::runner
