#include "stage_launch.h"

#include "cuda_check.h"
#include "tensor_map.h"

#include <memory>
#include <optional>

namespace gemmscope::runner {

namespace {

// B (K x N) -> BT (N x K, rows ldBT apart) with gemmscope::transpose_b: 32 x 32 tiles, 32 x 8 threads.
void launchTranspose(const LoadedKernel &transpose, const float *b, float *bt, int k, int n, int ldBT)
{
    void *args[] = {&b, &bt, &k, &n, &ldBT};
    transpose.launch(dim3(unsigned((n + 31) / 32), unsigned((k + 31) / 32)), dim3(32, 8), args, nullptr, 0);
}

} // namespace

int operandPitch(const StageInfo &stage, int k)
{
    return stage.tensorMaps ? tensorMapPitch(k) : k;
}

void allocateStageScratch(GemmWorkspace &ws, const StageInfo &stage)
{
    const int k = int(ws.size().k), pitch = operandPitch(stage, k);
    if (stage.transposedB)
        ws.bTransposed(pitch);
    if (stage.tensorMaps && pitch != k)
        ws.aPadded(pitch);
}

std::function<void()> stageLaunch(GemmWorkspace &ws, const StageInfo &stage, const ParamValues &params,
                                  const LoadedKernel &kernel, const LoadedKernel *transpose,
                                  const LaunchDims &dims, size_t dynamicSmemBytes)
{
    // A tensor map names the buffers' addresses: encoded at the first launch (the workspace is
    // ready by then) and kept, since the buffers stay put for the job.
    auto maps = std::make_shared<std::optional<OperandMaps>>();
    return [&ws, &stage, params, &kernel, transpose, dims, dynamicSmemBytes, maps] {
        const ProblemSize size = ws.size();
        int m = int(size.m), n = int(size.n), k = int(size.k);
        const float *a = ws.a(), *b = ws.b();
        float *c = ws.c();
        if (!stage.transposedB) {
            void *args[] = {&a, &b, &c, &m, &n, &k};
            kernel.launch(dims.grid, dims.block, args, nullptr, dynamicSmemBytes);
            return;
        }
        const int pitch = operandPitch(stage, k);
        float *bt = ws.bTransposed(pitch);
        launchTranspose(*transpose, b, bt, k, n, pitch);
        const float *btIn = bt;
        if (!stage.tensorMaps) {
            void *args[] = {&a, &btIn, &c, &m, &n, &k};
            kernel.launch(dims.grid, dims.block, args, nullptr, dynamicSmemBytes);
            return;
        }
        const float *mapped = a;
        if (pitch != k) { // a tensor map's rows must be 16-byte multiples apart
            float *padded = ws.aPadded(pitch);
            GEMMSCOPE_CUDA(cudaMemcpy2DAsync(padded, size_t(pitch) * sizeof(float), a,
                                             size_t(k) * sizeof(float), size_t(k) * sizeof(float), size_t(m),
                                             cudaMemcpyDeviceToDevice));
            mapped = padded;
        }
        if (!*maps)
            *maps = encodeOperandMaps(stage, params, mapped, bt, size, pitch);
        void *args[] = {&a, &btIn, &c, &m, &n, &k, &(*maps)->a, &(*maps)->bt};
        kernel.launch(dims.grid, dims.block, args, nullptr, dynamicSmemBytes);
    };
}

} // namespace gemmscope::runner
