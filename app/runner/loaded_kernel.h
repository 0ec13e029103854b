// A compiled kernel loaded into the current context through the runtime API
// (cudaLibraryLoadData + cudaLibraryGetKernel), launchable with cudaLaunchKernel — no libcuda link.
#pragma once

#include "nvrtc_compiler.h"

#include <cuda_runtime_api.h>

namespace gemmscope::runner {

class LoadedKernel {
public:
    explicit LoadedKernel(const CompiledKernel &compiled); // throws RunnerError
    ~LoadedKernel();
    LoadedKernel(const LoadedKernel &) = delete;
    LoadedKernel &operator=(const LoadedKernel &) = delete;

    const void *function() const { return reinterpret_cast<const void *>(m_kernel); }
    cudaFuncAttributes attributes() const;
    // Registers, static shared memory and local memory of the kernel as loaded, from the CUDA
    // runtime (cudaFuncGetAttributes on the cudaKernel_t): the binary that runs, whatever ptxas
    // printed or did not. Spill counts stay ptxas's (the runtime has none); without a ptxas report
    // the local memory is reported as the stack frame. Sets resourcesSource.
    void takeResourcesInto(CompiledKernel &kernel) const;
    int maxActiveBlocksPerSm(int threadsPerBlock, size_t dynamicSmemBytes = 0) const;
    // Clusters of `clusterX` blocks (in x) that can be resident on the GPU at once.
    int maxActiveClusters(unsigned clusterX, int threadsPerBlock, size_t dynamicSmemBytes) const;
    // Allows launches with up to `bytes` of dynamic shared memory (above 48 KB needs this opt-in).
    void allowDynamicSmem(int bytes) const;
    // Enqueues the launch and checks the launch itself (not the kernel's completion); with
    // clusterX > 1 the blocks are launched in thread-block clusters of that many in x.
    void launch(dim3 grid, dim3 block, void **args, cudaStream_t stream = nullptr,
                size_t dynamicSmemBytes = 0, unsigned clusterX = 1) const;

private:
    cudaLibrary_t m_library = nullptr;
    cudaKernel_t m_kernel = nullptr;
};

} // namespace gemmscope::runner
