#include "counter_report.h"

#include <QJsonValue>

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

QJsonValue ratio(double numerator, double denominator)
{
    return denominator > 0 ? QJsonValue(numerator / denominator) : QJsonValue(QJsonValue::Null);
}

QJsonObject accessJson(const CounterReading &reading)
{
    const auto per = [&reading](const std::string &num, const std::string &den) {
        return ratio(reading.value(num), reading.value(den));
    };
    return QJsonObject{
        {QStringLiteral("global_ld_sectors_per_request"), per(kGlobalLdSectors, kGlobalLdRequests)},
        {QStringLiteral("global_st_sectors_per_request"), per(kGlobalStSectors, kGlobalStRequests)},
        {QStringLiteral("shared_ld_wavefronts_per_request"), per(kSharedLdWavefronts, kSharedLdInstructions)},
        {QStringLiteral("shared_st_wavefronts_per_request"),
         per(kSharedStWavefronts, kSharedStInstructions)}};
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
                                                  kSharedStInstructions};
    return metrics;
}

QJsonObject countersJson(const CounterReading &reading, const ProblemSize &size)
{
    const double read = reading.value(kDramRead), write = reading.value(kDramWrite);
    const double l2 = reading.value(kL2Bytes);
    const double flops = size.flops();
    QJsonObject raw;
    for (const auto &[name, value] : reading.values)
        raw.insert(QString::fromStdString(name), value);
    return QJsonObject{{QStringLiteral("dram_read_bytes"), read},
                       {QStringLiteral("dram_write_bytes"), write},
                       {QStringLiteral("l2_bytes"), l2},
                       {QStringLiteral("ffma_thread_inst"), reading.value(kFfma)},
                       {QStringLiteral("flops"), flops},
                       {QStringLiteral("dram_intensity"), ratio(flops, read + write)},
                       {QStringLiteral("l2_intensity"), ratio(flops, l2)},
                       {QStringLiteral("kernels"), reading.kernels},
                       {QStringLiteral("access"), accessJson(reading)},
                       {QStringLiteral("metrics"), raw}};
}

QJsonObject countersErrorJson(const QString &sentence)
{
    return QJsonObject{{QStringLiteral("error"), sentence}};
}

} // namespace gemmscope::runner
