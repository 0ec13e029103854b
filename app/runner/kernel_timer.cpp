#include "kernel_timer.h"

#include "statistics.h"

#include "cuda_check.h"
#include "job_context.h"

#include <algorithm>
#include <cmath>

namespace gemmscope::runner {

namespace {

class EventPair {
public:
    EventPair()
    {
        GEMMSCOPE_CUDA(cudaEventCreate(&start));
        GEMMSCOPE_CUDA(cudaEventCreate(&stop));
    }
    ~EventPair()
    {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    cudaEvent_t start = nullptr, stop = nullptr;
};

} // namespace

TimingStats summarize(std::vector<double> timesMs)
{
    std::sort(timesMs.begin(), timesMs.end());
    TimingStats s;
    s.count = int(timesMs.size());
    if (timesMs.empty())
        return s;
    s.medianMs = percentile(timesMs, 0.5);
    s.p20Ms = percentile(timesMs, 0.2);
    s.p80Ms = percentile(timesMs, 0.8);
    s.minMs = timesMs.front();
    return s;
}

constexpr double kPreliminaryAfterMs = 100; // timing before the first preliminary median is sent

TimingStats timeLaunches(const std::function<void()> &launch, const std::function<void()> &betweenReps,
                         const TimingOptions &options, JobContext &job)
{
    for (int i = 0; i < options.warmup; ++i) {
        launch();
        GEMMSCOPE_CUDA(cudaDeviceSynchronize());
        job.checkCancelled();
    }
    EventPair events;
    std::vector<double> times;
    double totalMs = 0;
    const int maxReps = std::max(options.maxReps, options.minReps);
    while (int(times.size()) < maxReps &&
           (int(times.size()) < options.minReps || totalMs < options.budgetMs)) {
        job.checkCancelled();
        if (betweenReps)
            betweenReps();
        GEMMSCOPE_CUDA(cudaEventRecord(events.start));
        launch();
        GEMMSCOPE_CUDA(cudaEventRecord(events.stop));
        GEMMSCOPE_CUDA(cudaEventSynchronize(events.stop)); // a kernel fault surfaces here
        float ms = 0;
        GEMMSCOPE_CUDA(cudaEventElapsedTime(&ms, events.start, events.stop));
        times.push_back(ms);
        totalMs += ms;
        // The total is an estimate (the budget may end first): enough for a progress bar.
        const long long expected = std::clamp<long long>(
            totalMs > 0 ? (long long)std::ceil(options.budgetMs / (totalMs / double(times.size()))) : maxReps,
            options.minReps, maxReps);
        // After ~100 ms of timing the median so far goes out with the progress (issue 10.7): the
        // window shows a number at once and refines it until the budget ends.
        std::optional<double> preliminary;
        if (totalMs >= kPreliminaryAfterMs && times.size() >= 3) {
            std::vector<double> sorted = times;
            std::sort(sorted.begin(), sorted.end());
            preliminary = percentile(sorted, 0.5);
        }
        job.progress(QStringLiteral("timing"), (long long)times.size(),
                     std::max<long long>(expected, times.size()), preliminary);
    }
    return summarize(std::move(times));
}

protocol::TimingResult timingResult(const TimingStats &s, const TimingOptions &o)
{
    protocol::TimingResult timing;
    timing.medianMs = s.medianMs;
    timing.p20Ms = s.p20Ms;
    timing.p80Ms = s.p80Ms;
    timing.minMs = s.minMs;
    timing.count = s.count;
    timing.warmup = o.warmup;
    timing.budgetMs = o.budgetMs;
    timing.flushL2 = o.flushL2;
    return timing;
}

} // namespace gemmscope::runner
