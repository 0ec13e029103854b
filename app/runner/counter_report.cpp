#include "counter_report.h"

#include <QJsonValue>

namespace gemmscope::runner {

namespace {

const std::string kDramRead = "dram__bytes_read.sum";
const std::string kDramWrite = "dram__bytes_write.sum";
const std::string kL2Bytes = "lts__t_bytes.sum";
const std::string kFfma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";

QJsonValue ratio(double numerator, double denominator)
{
    return denominator > 0 ? QJsonValue(numerator / denominator) : QJsonValue(QJsonValue::Null);
}

} // namespace

const std::vector<std::string> &rooflineMetrics()
{
    static const std::vector<std::string> metrics{kDramRead, kDramWrite, kL2Bytes, kFfma};
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
                       {QStringLiteral("metrics"), raw}};
}

QJsonObject countersErrorJson(const QString &sentence)
{
    return QJsonObject{{QStringLiteral("error"), sentence}};
}

} // namespace gemmscope::runner
