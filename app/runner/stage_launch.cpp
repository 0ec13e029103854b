#include "stage_launch.h"

#include "cuda_check.h"

#include <memory>
#include <optional>

namespace gemmscope::runner {

namespace {

// B (K x N) -> BT (N x K, rows ldBT apart) with gemmscope::transpose_b: 32 x 32 tiles, 32 x 8
// threads; each element rounded to nearest TF32 on the way when `roundTf32`.
void launchTranspose(const LoadedKernel &transpose, const float *b, float *bt, int k, int n, int ldBT,
                     bool roundTf32)
{
    int round = roundTf32 ? 1 : 0;
    void *args[] = {&b, &bt, &k, &n, &ldBT, &round};
    transpose.launch(dim3(unsigned((n + 31) / 32), unsigned((k + 31) / 32)), dim3(32, 8), args, nullptr, 0);
}

} // namespace

StageKernelArgs::StageKernelArgs(const float *a, const float *b, float *c, const ProblemSize &size,
                                 const OperandMaps *maps)
    : m_a(a), m_b(b), m_c(c), m_m(int(size.m)), m_n(int(size.n)), m_k(int(size.k))
{
    // The kernel reads as many entries as it has parameters: without maps theirs stay empty. The
    // launch only reads the maps (they are passed by value).
    auto *mapA = maps ? const_cast<TensorMapBytes *>(&maps->a) : nullptr;
    auto *mapBT = maps ? const_cast<TensorMapBytes *>(&maps->bt) : nullptr;
    m_args = {&m_a, &m_b, &m_c, &m_m, &m_n, &m_k, mapA, mapBT};
}

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
        const int m = int(size.m), n = int(size.n), k = int(size.k);
        const float *a = ws.a(), *b = ws.b();
        float *c = ws.c();
        const float *bOperand = b; // BT for a transposedB stage
        const OperandMaps *operandMaps = nullptr;
        if (stage.transposedB) {
            const int pitch = operandPitch(stage, k);
            float *bt = ws.bTransposed(pitch);
            launchTranspose(*transpose, b, bt, k, n, pitch, ws.tf32Inputs().bRoundedInTranspose);
            bOperand = bt;
            if (stage.tensorMaps) {
                const float *mapped = a;
                if (pitch != k) { // a tensor map's rows must be 16-byte multiples apart
                    float *padded = ws.aPadded(pitch);
                    GEMMSCOPE_CUDA(cudaMemcpy2DAsync(padded, size_t(pitch) * sizeof(float), a,
                                                     size_t(k) * sizeof(float), size_t(k) * sizeof(float),
                                                     size_t(m), cudaMemcpyDeviceToDevice));
                    mapped = padded;
                }
                if (!*maps)
                    *maps = encodeOperandMaps(stage, params, mapped, bt, size, pitch);
                operandMaps = &**maps;
            }
        }
        StageKernelArgs args(a, bOperand, c, size, operandMaps);
        kernel.launch(dims.grid, dims.block, args.args(), nullptr, dynamicSmemBytes);
    };
}

} // namespace gemmscope::runner
