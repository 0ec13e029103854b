#include "smem_carveout.h"

#include "cuda_check.h"
#include "request_fields.h"

namespace gemmscope::runner {

int requestSmemCarveout(const QJsonObject &request)
{
    return optionalIntInRange(request, QStringLiteral("smem_carveout"), 0, 100).value_or(-1);
}

void applySmemCarveout(const LoadedKernel &kernel, int percent)
{
    if (percent < 0)
        return;
    GEMMSCOPE_CUDA(
        cudaFuncSetAttribute(kernel.function(), cudaFuncAttributePreferredSharedMemoryCarveout, percent));
}

} // namespace gemmscope::runner
