// One launch of a compiled stage on the workspace's matrices, as the `run` job verifies and times
// it: the kernel alone, or for a `transposedB` stage B transposed first, and for a `tensorMaps`
// stage (TMA) A copied into padded rows when K is not a multiple of 4 (B too when it is read
// row-major and N is not) and the operands' tensor maps passed after the usual arguments. All of it
// is inside the stage's time.
#pragma once

#include "gemm_workspace.h"
#include "launch_config.h"
#include "loaded_kernel.h"
#include "tensor_map.h"

#include <array>
#include <functional>

namespace gemmscope::runner {

// A stage kernel's arguments in its signature's order, as cudaLaunchKernel takes them (args()):
// (A, B, C, M, N, K), with BT in B's place for a transposedB stage, then for a tensorMaps stage its
// two tensor maps (mapA, mapBT or mapB), then for a roundsTf32InKernel stage `roundTf32`. The one
// place the list is built: the `run` job's launches and the `trace_owner` job use it. It holds the
// values the pointers point at; `maps` must outlive it.
class StageKernelArgs {
public:
    StageKernelArgs(const float *a, const float *b, float *c, const ProblemSize &size,
                    const OperandMaps *maps = nullptr, bool roundTf32 = false);
    StageKernelArgs(const StageKernelArgs &) = delete;
    StageKernelArgs &operator=(const StageKernelArgs &) = delete;
    void **args() { return m_args.data(); }

private:
    const float *m_a, *m_b;
    float *m_c;
    int m_m, m_n, m_k;
    int m_roundTf32;
    std::array<void *, 9> m_args{};
};

// Floats between the rows of the BT (and padded A) scratch the stage's launches write: K, or K
// rounded up to a multiple of 4 for a tensor map (tensorMapPitch).
int operandPitch(const StageInfo &stage, int k);

// Allocates the scratch the stage's launches write (BT, padded A or B) for the workspace's size, so that
// a refusal for memory comes before anything is timed. The workspace must be prepared.
void allocateStageScratch(GemmWorkspace &ws, const StageInfo &stage);

// `transpose` is required for a transposedB stage and ignored otherwise. The kernels and the
// workspace must outlive the function; the workspace must be prepared before it is called.
std::function<void()> stageLaunch(GemmWorkspace &ws, const StageInfo &stage, const ParamValues &params,
                                  const LoadedKernel &kernel, const LoadedKernel *transpose,
                                  const LaunchDims &dims, size_t dynamicSmemBytes);

} // namespace gemmscope::runner
