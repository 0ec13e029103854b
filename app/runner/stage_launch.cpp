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

// `matrix` (rows x cols, row-major) itself when its rows are `pitch` floats long, else a copy with
// rows `pitch` floats apart in the scratch `scratch()` returns, enqueued now.
template <typename Scratch>
const float *padded(const float *matrix, int rows, int cols, int pitch, Scratch scratch)
{
    if (pitch == cols)
        return matrix;
    float *copy = scratch();
    GEMMSCOPE_CUDA(cudaMemcpy2DAsync(copy, size_t(pitch) * sizeof(float), matrix,
                                     size_t(cols) * sizeof(float), size_t(cols) * sizeof(float), size_t(rows),
                                     cudaMemcpyDeviceToDevice));
    return copy;
}

} // namespace

StageKernelArgs::StageKernelArgs(const float *a, const float *b, float *c, const ProblemSize &size,
                                 const OperandMaps *maps, bool roundTf32)
    : m_a(a), m_b(b), m_c(c), m_m(int(size.m)), m_n(int(size.n)), m_k(int(size.k)),
      m_roundTf32(roundTf32 ? 1 : 0)
{
    // The kernel reads as many entries as it has parameters: without maps theirs stay empty (only
    // a stage with maps has the rounding flag after them). The launch only reads the maps (they
    // are passed by value).
    auto *mapA = maps ? const_cast<TensorMapBytes *>(&maps->a) : nullptr;
    auto *mapB = maps ? const_cast<TensorMapBytes *>(&maps->b) : nullptr;
    m_args = {&m_a, &m_b, &m_c, &m_m, &m_n, &m_k, mapA, mapB, &m_roundTf32};
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
    if (const int n = int(ws.size().n);
        stage.tensorMaps && stage.tensorMaps->rowMajorB && tensorMapPitch(n) != n)
        ws.bPadded(tensorMapPitch(n));
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
        const int pitch = operandPitch(stage, k);
        if (stage.transposedB) {
            float *bt = ws.bTransposed(pitch);
            launchTranspose(*transpose, b, bt, k, n, pitch, ws.tf32Inputs().bRoundedInTranspose);
            bOperand = bt;
        }
        const OperandMaps *operandMaps = nullptr;
        if (stage.tensorMaps) {
            // A tensor map's rows must be a multiple of 16 bytes apart: A (and a row-major B) copied
            // into padded rows where they are not.
            const float *mappedA = padded(a, m, k, pitch, [&ws, pitch] { return ws.aPadded(pitch); });
            const bool rowMajorB = stage.tensorMaps->rowMajorB;
            const int pitchB = rowMajorB ? tensorMapPitch(n) : pitch;
            const float *mappedB =
                rowMajorB ? padded(b, k, n, pitchB, [&ws, pitchB] { return ws.bPadded(pitchB); }) : bOperand;
            if (!*maps)
                *maps = encodeOperandMaps(stage, params, mappedA, mappedB, size, pitch, pitchB,
                                          ws.tf32Inputs().roundedInKernel);
            operandMaps = &**maps;
        }
        StageKernelArgs args(a, bOperand, c, size, operandMaps, ws.tf32Inputs().roundedInKernel);
        kernel.launch(dims.grid, dims.block, args.args(), nullptr, dynamicSmemBytes, dims.clusterX);
    };
}

} // namespace gemmscope::runner
