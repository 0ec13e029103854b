#include "smem_carveout.h"

#include "cuda_check.h"

namespace gemmscope::runner {

void applySmemCarveout(const LoadedKernel &kernel, int percent)
{
    if (percent < 0)
        return;
    GEMMSCOPE_CUDA(
        cudaFuncSetAttribute(kernel.function(), cudaFuncAttributePreferredSharedMemoryCarveout, percent));
}

} // namespace gemmscope::runner
