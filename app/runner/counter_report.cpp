#include "counter_report.h"

#include <algorithm>
#include <optional>

namespace gemmscope::runner {

namespace {

const std::string kDramRead = "dram__bytes_read.sum";
const std::string kDramWrite = "dram__bytes_write.sum";
const std::string kL2Bytes = "lts__t_bytes.sum";
const std::string kFfma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
const std::string kGlobalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const std::string kGlobalLdRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const std::string kGlobalStSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const std::string kGlobalStRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const std::string kSharedLdWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const std::string kSharedLdInstructions = "smsp__inst_executed_op_shared_ld.sum";
const std::string kSharedStWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
const std::string kSharedStInstructions = "smsp__inst_executed_op_shared_st.sum";
const std::string kL1Bytes = "l1tex__t_bytes.sum";
const std::string kSharedBytes = "sm__sass_data_bytes_mem_shared.sum";

std::optional<double> ratio(double numerator, double denominator)
{
    return denominator > 0 ? std::optional<double>(numerator / denominator) : std::nullopt;
}

protocol::AccessCounters accessOf(const CounterReading &reading)
{
    const auto per = [&reading](const std::string &num, const std::string &den) {
        return ratio(reading.value(num), reading.value(den));
    };
    protocol::AccessCounters access;
    access.globalLdSectorsPerRequest = per(kGlobalLdSectors, kGlobalLdRequests);
    access.globalStSectorsPerRequest = per(kGlobalStSectors, kGlobalStRequests);
    access.sharedLdWavefrontsPerRequest = per(kSharedLdWavefronts, kSharedLdInstructions);
    access.sharedStWavefrontsPerRequest = per(kSharedStWavefronts, kSharedStInstructions);
    return access;
}

} // namespace

const std::vector<std::string> &counterMetrics()
{
    static const std::vector<std::string> metrics{kDramRead,
                                                  kDramWrite,
                                                  kL2Bytes,
                                                  kFfma,
                                                  kGlobalLdSectors,
                                                  kGlobalLdRequests,
                                                  kGlobalStSectors,
                                                  kGlobalStRequests,
                                                  kSharedLdWavefronts,
                                                  kSharedLdInstructions,
                                                  kSharedStWavefronts,
                                                  kSharedStInstructions,
                                                  kL1Bytes,
                                                  kSharedBytes};
    return metrics;
}

protocol::Counters countersOf(const CounterReading &reading, const ProblemSize &size)
{
    protocol::Counters counters;
    const double read = reading.value(kDramRead), write = reading.value(kDramWrite);
    const double l2 = reading.value(kL2Bytes);
    const double flops = size.flops();
    counters.dramReadBytes = read;
    counters.dramWriteBytes = write;
    counters.l2Bytes = l2;
    counters.ffmaThreadInst = reading.value(kFfma);
    counters.flops = flops;
    counters.dramIntensity = ratio(flops, read + write);
    counters.l2Intensity = ratio(flops, l2);
    // Only from a reading that has them: one recorded before they were read re-encodes as it was.
    const auto has = [&reading](const std::string &metric) {
        return std::any_of(reading.values.cbegin(), reading.values.cend(),
                           [&metric](const auto &value) { return value.first == metric; });
    };
    if (has(kL1Bytes) || has(kSharedBytes)) {
        const double l1 = reading.value(kL1Bytes), shared = reading.value(kSharedBytes);
        counters.l1Bytes = l1;
        counters.sharedBytes = shared;
        counters.l1Intensity = ratio(flops, l1 + shared);
    }
    counters.kernels = reading.kernels;
    counters.access = accessOf(reading);
    for (const auto &[name, value] : reading.values)
        counters.metrics.insert(QString::fromStdString(name), value);
    return counters;
}

protocol::Counters countersError(const QString &sentence)
{
    protocol::Counters counters;
    counters.error = sentence;
    return counters;
}

} // namespace gemmscope::runner
