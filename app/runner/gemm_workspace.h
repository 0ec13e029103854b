// The device side of GEMM jobs: A, B, C, the cuBLAS reference and a scratch matrix, kept between
// jobs of the same size and seed (regenerating 8192x6144 inputs and the reference costs seconds),
// freed when the size changes. Also owns the cuBLAS handles (pedantic FP32 and TF32).
#pragma once

#include "device_buffer.h"
#include "stage_catalog.h"

#include <cstdint>
#include <cublas_v2.h>

namespace gemmscope::runner {

class JobContext;

// What a TF32 stage's launches read: A and B as generated, or copies rounded to nearest
// TF32 — B either as its own rounded copy or rounded by the stage's B transpose as it writes BT,
// which saves a pass over B (tf32_rounding.h says who writes which).
// A stage that rounds in its own kernel (StageInfo::roundsTf32InKernel) reads A and B as they are
// and is told to round (roundedInKernel).
struct Tf32Inputs {
    bool roundedA = false, roundedB = false, bRoundedInTranspose = false, roundedInKernel = false;
    bool needsPrePass() const { return roundedA || roundedB; }
};

class GemmWorkspace {
public:
    GemmWorkspace() = default;
    ~GemmWorkspace();
    GemmWorkspace(const GemmWorkspace &) = delete;
    GemmWorkspace &operator=(const GemmWorkspace &) = delete;

    // Makes A, B (seeded) and the reference ready for this size; reports the phases `inputs`
    // and `reference`. Throws out_of_memory with a sentence when the matrices do not fit.
    void prepare(const ProblemSize &size, std::uint64_t seed, JobContext &job);

    // The inputs a launch reads: A and B, or their TF32-rounded copies as tf32Inputs() says.
    const float *a() const { return m_tf32Inputs.roundedA ? m_aRounded.get() : m_a.get(); }
    const float *b() const { return m_tf32Inputs.roundedB ? m_bRounded.get() : m_b.get(); }
    // Copies of A and B rounded to nearest TF32, written by the launches of a TF32 stage
    // (tf32_rounding.h): allocated here for this size; a() and b() name them while in use.
    float *roundedA();
    float *roundedB();
    void useTf32Inputs(const Tf32Inputs &inputs) { m_tf32Inputs = inputs; }
    const Tf32Inputs &tf32Inputs() const { return m_tf32Inputs; }
    const float *originalA() const { return m_a.get(); }
    const float *originalB() const { return m_b.get(); }
    float *c() const { return m_c.get(); }
    // Scratch for B transposed (N x K, rows `pitch` >= K floats apart), allocated on first use for
    // this size: the stages that read BT write it (transpose_b) inside every launch, so it holds
    // nothing between launches.
    float *bTransposed(int pitch);
    // Scratch for A with rows `pitch` floats apart (M x pitch), for a tensor map when K is not a
    // multiple of 4; written inside every launch that needs it, like BT.
    float *aPadded(int pitch);
    // Scratch for B with rows `pitch` floats apart (K x pitch), for a tensor map of row-major B when
    // N is not a multiple of 4; written inside every launch that needs it, like BT.
    float *bPadded(int pitch);
    const ProblemSize &size() const { return m_size; }

    void poisonC(); // every byte 0xFF: a NaN in every element, so an unwritten element fails
    // ||C - C_ref||_F / ||C_ref||_F computed with cuBLAS (Saxpy into the scratch, Snrm2). NaN if C has one.
    double relativeErrorOfC();
    // C = A*B with cuBLAS: pedantic FP32 or TF32 tensor-core math.
    void cublasGemm(Precision precision, float *c);
    // Overwrites a buffer twice the L2's size (outside any timed region).
    void flushL2(long long l2Bytes);

private:
    void ensureHandles();
    void release();

    ProblemSize m_size{0, 0, 0};
    std::uint64_t m_seed = 0;
    bool m_ready = false;
    DeviceBuffer<float> m_a, m_b, m_c, m_reference, m_scratch, m_bTransposed, m_aPadded, m_bPadded,
        m_aRounded, m_bRounded;
    Tf32Inputs m_tf32Inputs;
    DeviceBuffer<unsigned char> m_flush;
    cublasHandle_t m_pedantic = nullptr;
    cublasHandle_t m_tf32 = nullptr;
};

} // namespace gemmscope::runner
