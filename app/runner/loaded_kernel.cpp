#include "loaded_kernel.h"

#include "cuda_check.h"
#include "values.h"

namespace gemmscope::runner {

LoadedKernel::LoadedKernel(const CompiledKernel &compiled)
{
    GEMMSCOPE_CUDA(cudaLibraryLoadData(&m_library, compiled.cubin.constData(), nullptr, nullptr, 0, nullptr,
                                       nullptr, 0));
    const QByteArray name = compiled.loweredName.toUtf8();
    const cudaError_t error = cudaLibraryGetKernel(&m_kernel, m_library, name.constData());
    if (error != cudaSuccess) {
        cudaLibraryUnload(m_library);
        m_library = nullptr;
        GEMMSCOPE_CUDA(error);
    }
}

LoadedKernel::~LoadedKernel()
{
    if (m_library)
        cudaLibraryUnload(m_library);
}

cudaFuncAttributes LoadedKernel::attributes() const
{
    cudaFuncAttributes attrs{};
    GEMMSCOPE_CUDA(cudaFuncGetAttributes(&attrs, function()));
    return attrs;
}

void LoadedKernel::takeResourcesInto(CompiledKernel &kernel) const
{
    const cudaFuncAttributes attrs = attributes();
    if (attrs.numRegs <= 0)
        return; // nothing better than what ptxas said
    if (!kernel.ptxas.found) {
        kernel.ptxas.stackFrameBytes = int(attrs.localSizeBytes);
        kernel.ptxas.spillStoreBytes = kernel.ptxas.spillLoadBytes = 0;
    }
    kernel.ptxas.found = true;
    kernel.ptxas.registers = attrs.numRegs;
    kernel.ptxas.staticSmemBytes = int(attrs.sharedSizeBytes);
    kernel.resourcesSource = protocol::valueName(protocol::ResourcesSource::CudaRuntime);
}

int LoadedKernel::maxActiveBlocksPerSm(int threadsPerBlock, size_t dynamicSmemBytes) const
{
    int blocks = 0;
    GEMMSCOPE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function(), threadsPerBlock,
                                                                 dynamicSmemBytes));
    return blocks;
}

void LoadedKernel::allowDynamicSmem(int bytes) const
{
    GEMMSCOPE_CUDA(cudaFuncSetAttribute(function(), cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

namespace {
cudaLaunchAttribute clusterAttribute(unsigned clusterX)
{
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = clusterX;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    return attribute;
}
} // namespace

int LoadedKernel::maxActiveClusters(unsigned clusterX, int threadsPerBlock, size_t dynamicSmemBytes) const
{
    cudaLaunchAttribute attribute = clusterAttribute(clusterX);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(clusterX);
    config.blockDim = dim3(unsigned(threadsPerBlock));
    config.dynamicSmemBytes = dynamicSmemBytes;
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    GEMMSCOPE_CUDA(cudaOccupancyMaxActiveClusters(&clusters, function(), &config));
    return clusters;
}

void LoadedKernel::launch(dim3 grid, dim3 block, void **args, cudaStream_t stream, size_t dynamicSmemBytes,
                          unsigned clusterX) const
{
    if (clusterX <= 1) {
        GEMMSCOPE_CUDA(cudaLaunchKernel(function(), grid, block, args, dynamicSmemBytes, stream));
        return;
    }
    cudaLaunchAttribute attribute = clusterAttribute(clusterX);
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = dynamicSmemBytes;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    GEMMSCOPE_CUDA(cudaLaunchKernelExC(&config, function(), args));
}

} // namespace gemmscope::runner
