#include "profile_limiters.h"

#include "counter_profiler.h"

#include <QStringList>

namespace gemmscope::runner {

namespace {

const std::string kDuration = "gpu__time_duration.sum";

bool isCount(const std::string &metric)
{
    return metric.size() > 4 && metric.compare(metric.size() - 4, 4, ".sum") == 0;
}

} // namespace

const std::vector<std::string> &limiterMetrics()
{
    static const std::vector<std::string> metrics{
        kDuration,
        "sm__cycles_elapsed.avg.per_second",                 // the SM clock while profiled
        "sm__warps_active.avg.pct_of_peak_sustained_active", // achieved occupancy
        "sm__inst_issued.avg.pct_of_peak_sustained_active",  // issue slots busy
        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "l1tex__throughput.avg.pct_of_peak_sustained_active",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "smsp__inst_executed.sum",
        "smsp__inst_executed_pipe_fma.sum",
        "smsp__inst_executed_pipe_alu.sum",
        "smsp__inst_executed_pipe_lsu.sum",
        "smsp__inst_executed_pipe_tensor.sum",
        "smsp__inst_executed_pipe_uniform.sum",
        "smsp__sass_inst_executed_op_shared.sum",
        "smsp__sass_inst_executed_op_global.sum",
    };
    return metrics;
}

QMap<QString, double> limitersOf(const CounterReading &reading)
{
    QMap<QString, double> limiters;
    size_t durationAt = reading.values.size();
    for (size_t i = 0; i < reading.values.size(); ++i)
        if (reading.values[i].first == kDuration)
            durationAt = i;
    for (size_t i = 0; i < reading.values.size(); ++i) {
        const std::string &name = reading.values[i].first;
        double value = reading.values[i].second; // the sum over kernels
        if (!isCount(name) && !reading.perKernel.empty()) {
            double weighted = 0, weights = 0;
            for (const std::vector<double> &kernel : reading.perKernel) {
                const double weight = durationAt < kernel.size() ? kernel[durationAt] : 1.0;
                weighted += kernel[i] * weight;
                weights += weight;
            }
            value = weights > 0 ? weighted / weights : value / double(reading.perKernel.size());
        }
        limiters.insert(QString::fromStdString(name), value);
    }
    return limiters;
}

LimiterOutcome readLimiters(const std::function<void()> &launch)
{
    const CounterOutcome all = CounterProfiler(limiterMetrics()).profile(launch);
    if (all.reading)
        return {limitersOf(*all.reading), {}};
    if (!all.unknownMetric)
        return {{}, all.error};
    // Some metric is unknown on this GPU: read each alone (slower, but only on such a GPU) and
    // name the ones that are missing.
    LimiterOutcome outcome;
    QStringList unknown;
    for (const std::string &metric : limiterMetrics()) {
        const CounterOutcome one = CounterProfiler({metric}).profile(launch);
        if (one.reading)
            outcome.limiters.insert(limitersOf(*one.reading));
        else if (one.unknownMetric)
            unknown << QString::fromStdString(metric);
        else
            return {outcome.limiters, one.error};
    }
    if (!unknown.isEmpty())
        outcome.error =
            QStringLiteral("CUPTI does not know %1 on this GPU; %2 left out.")
                .arg(unknown.join(QStringLiteral(", ")),
                     unknown.size() == 1 ? QStringLiteral("it was") : QStringLiteral("they were"));
    return outcome;
}

} // namespace gemmscope::runner
