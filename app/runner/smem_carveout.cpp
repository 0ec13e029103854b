#include "smem_carveout.h"

#include "cuda_check.h"
#include "runner_error.h"

#include <QJsonValue>
#include <cmath>

namespace gemmscope::runner {

int requestSmemCarveout(const QJsonObject &request)
{
    const QString key = QStringLiteral("smem_carveout");
    if (!request.contains(key))
        return -1;
    const QJsonValue value = request.value(key);
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < 0 || number > 100 || std::floor(number) != number)
        throw RunnerError(ErrorKind::ProtocolError,
                          QStringLiteral("Field \"smem_carveout\" must be a whole percent from 0 to 100."));
    return int(number);
}

void applySmemCarveout(const LoadedKernel &kernel, int percent)
{
    if (percent < 0)
        return;
    GEMMSCOPE_CUDA(
        cudaFuncSetAttribute(kernel.function(), cudaFuncAttributePreferredSharedMemoryCarveout, percent));
}

} // namespace gemmscope::runner
