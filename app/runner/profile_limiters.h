// The kernel-wide "limiters" of a profile (docs/protocol.md "Profile"): what Nsight Compute's
// Speed of Light, Occupancy and Instruction Statistics sections are made of, read with the range
// profiler, so that a stage and cuBLAS can be put side by side ("Why not cuBLAS?").
#pragma once

#include <QMap>
#include <QString>
#include <functional>
#include <string>
#include <vector>

namespace gemmscope::runner {

struct CounterReading;

// The metrics, by CUPTI's names: percentages of a peak (".pct_of_peak_...") and counts (".sum").
const std::vector<std::string> &limiterMetrics();

// Over the launch's kernels: counts summed; percentages and rates averaged, weighted by each
// kernel's duration (gpu__time_duration.sum), so that a short split-K reduction does not count
// as much as the GEMM.
QMap<QString, double> limitersOf(const CounterReading &reading);

struct LimiterOutcome {
    QMap<QString, double> limiters;
    QString error; // what could not be read, in a sentence; the limiters hold the rest
};

// Reads limiterMetrics() for `launch`. Where this GPU does not know some of them, the others are
// read alone and the unknown ones named in `error`.
LimiterOutcome readLimiters(const std::function<void()> &launch);

} // namespace gemmscope::runner
