// TF32 inputs rounded to nearest: cuBLAS's TF32 path matches inputs rounded to
// nearest TF32 (relative error 2.6e-4 at 4096^3 on the H200), while a tensor core fed raw FP32
// bits truncates them (7.0e-4). A TF32 stage's launch therefore rounds its inputs with
// cvt.rna.tf32.f32 — inside the timed launch, as cuBLAS pays for it too — unless the run asks for
// "truncate" (docs/protocol.md, "tf32_rounding"): A into a copy in a pre-pass; B into a copy too,
// except for a stage that transposes B anyway, whose transpose rounds as it writes BT (one pass
// over B instead of two). A stage that rounds in its own kernel (roundsTf32InKernel) needs no pass.
#pragma once

#include "device_buffer.h"
#include "gemm_workspace.h"
#include "loaded_kernel.h"

#include <memory>

namespace gemmscope::runner {

class NvrtcCompiler;

// What a TF32 stage reads when it rounds: A's rounded copy, and B's — or B rounded by its transpose,
// or both as they are, rounded by the stage's kernel.
Tf32Inputs roundedTf32Inputs(const StageInfo &stage);

class Tf32Rounder {
public:
    // Compiles (or takes from the cache) the rounding kernel for sm_<arch> (80 or later).
    Tf32Rounder(const NvrtcCompiler &compiler, int arch);
    // Enqueues out[i] = round_to_nearest_tf32(in[i]) for `count` floats on the default stream.
    void round(const float *in, float *out, long long count) const;
    // Enqueues the pre-pass `inputs` needs: the rounded copies of A and of B it names.
    void roundInputs(GemmWorkspace &ws, const Tf32Inputs &inputs) const;

private:
    std::unique_ptr<LoadedKernel> m_kernel;
    int m_blocks = 0;
};

} // namespace gemmscope::runner
