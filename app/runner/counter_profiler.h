// Reads hardware counters for one launch with CUPTI's range profiler (CUDA 13 Profiler Host API
// + cupti_range_profiler.h; the deprecated cuptiProfiler* session API is not used): auto ranges
// (one per kernel) with kernel replay, so CUPTI re-runs each kernel itself as often as the metrics
// need passes. The launch may run several kernels (cuBLAS): their values are summed.
//
// Failing to read counters never fails a run: every CUPTI failure (no permission, an unsupported
// device, a metric the chip does not know, ...) comes back as a sentence naming the CUPTI error.
// Only a CUDA error of the launch itself propagates (as RunnerError), because a kernel fault
// must still end the runner like anywhere else.
//
// The runner does not link libcuda: the CUcontext CUPTI needs is the runtime's primary context,
// read with cuCtxGetCurrent obtained through cudaGetDriverEntryPointByVersion.
#pragma once

#include <QString>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemmscope::runner {

struct CounterReading {
    // The requested metrics in request order, each summed over every kernel of the launch.
    std::vector<std::pair<std::string, double>> values;
    int kernels = 0; // ranges CUPTI recorded (one per kernel launched)
    // Each kernel's values in request order: a percentage must be weighted, not summed, over
    // kernels (the profile's limiters; docs/protocol.md "Profile").
    std::vector<std::vector<double>> perKernel;

    double value(const std::string &metric) const; // 0 when absent
};

struct CounterOutcome {
    std::optional<CounterReading> reading;
    QString error;              // set when reading is empty: a sentence with the CUPTI error name
    bool unknownMetric = false; // the error is CUPTI not knowing one of the metrics on this GPU
};

class CounterProfiler {
public:
    explicit CounterProfiler(std::vector<std::string> metrics);

    // Profiles the kernels that `launch` enqueues on the current device (device context made
    // current here). Throws RunnerError only for a CUDA error of the launch.
    CounterOutcome profile(const std::function<void()> &launch) const;

private:
    std::vector<std::string> m_metrics;
};

} // namespace gemmscope::runner
