#include "tf32_rounding.h"

#include "nvrtc_compiler.h"

namespace gemmscope::runner {

namespace {

// Grid-stride, four floats a thread a step where the count allows: bandwidth-bound like a copy.
constexpr const char *kRoundSource = R"cuda(
__device__ __forceinline__ float roundTf32(float x)
{
    unsigned bits;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
    return __uint_as_float(bits);
}

extern "C" __global__ void gemmscope_round_tf32(const float *in, float *out, long long count)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long vectors = count / 4;
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    float4 *out4 = reinterpret_cast<float4 *>(out);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < vectors; i += stride) {
        float4 v = in4[i];
        out4[i] = make_float4(roundTf32(v.x), roundTf32(v.y), roundTf32(v.z), roundTf32(v.w));
    }
    for (long long i = vectors * 4 + blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = roundTf32(in[i]);
}
)cuda";

constexpr int kThreads = 256;

} // namespace

Tf32Rounder::Tf32Rounder(const NvrtcCompiler &compiler, int arch)
{
    m_kernel = std::make_unique<LoadedKernel>(compiler.compile(standaloneProgram(
        QStringLiteral("round_tf32.cu"), kRoundSource, QStringLiteral("gemmscope_round_tf32"), arch)));
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    m_blocks = std::max(1, sms) * std::max(1, m_kernel->maxActiveBlocksPerSm(kThreads));
}

Tf32Inputs roundedTf32Inputs(const StageInfo &stage)
{
    if (stage.roundsTf32InKernel)
        return {.roundedInKernel = true};
    return {.roundedA = true, .roundedB = !stage.transposedB, .bRoundedInTranspose = stage.transposedB};
}

void Tf32Rounder::roundInputs(GemmWorkspace &ws, const Tf32Inputs &inputs) const
{
    const ProblemSize &size = ws.size();
    if (inputs.roundedA)
        round(ws.originalA(), ws.roundedA(), size.m * size.k);
    if (inputs.roundedB)
        round(ws.originalB(), ws.roundedB(), size.k * size.n);
}

void Tf32Rounder::round(const float *in, float *out, long long count) const
{
    void *args[] = {&in, &out, &count};
    m_kernel->launch(dim3(unsigned(m_blocks)), dim3(kThreads), args);
}

} // namespace gemmscope::runner
