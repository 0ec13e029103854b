#include "ceilings_memory.h"

#include "ceilings_peak_run.h"
#include "cuda_check.h"
#include "device_buffer.h"

#include <algorithm>

namespace gemmscope::runner {

namespace {

// Every pass starts kL2PassShift float4s (64 KiB) further on, wrapping at the end: no thread reads
// in one pass what it read in the one before, so no compiler can keep a load out of the loop and no
// L1 could serve it even if ld.global.cg were ignored. Four independent sums keep the adds off the
// loads' critical path; the data-dependent store keeps every load.
constexpr int kL2PassShift = 4096;
const char *const kL2Source = R"cuda(
extern "C" __global__ void gemmscope_l2_bandwidth(float *out, const float4 *data, int n4, int passes)
{
    const int stride = gridDim.x * blockDim.x;
    const int start = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.f, b = 0.f, c = 0.f, d = 0.f;
    int shift = 0;
    for (int p = 0; p < passes; ++p) {
        #pragma unroll 4
        for (int i = start; i < n4; i += stride) {
            int index = i + shift;
            if (index >= n4)
                index -= n4;
            float x, y, z, w;
            asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                         : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
                         : "l"(data + index));
            a += x;
            b += y;
            c += z;
            d += w;
        }
        shift += 4096;
        if (shift >= n4)
            shift -= n4;
    }
    const float sum = a + b + c + d;
    if (sum == -1.2345f) // never true for these inputs, but the compiler cannot know
        out[start] = sum;
}
)cuda";

// 1024 float4 (16 KiB) a block: eight blocks of 256 threads fit an SM with room to spare. Thread t
// reads float4 (t + 128 j) mod 1024 for j = 0..7: a quarter-warp's eight 16-byte loads cover all 32
// banks once, so each warp-wide 128-bit load is four wavefronts, the hardware's best. ld.volatile
// keeps ptxas from merging the loads that repeat an address (j and j + 8) or from hoisting them out
// of the loop.
constexpr int kSharedLoadsPerIteration = 8;
constexpr int kSharedIterations = 1 << 10;
const char *const kSharedSource = R"cuda(
extern "C" __global__ void gemmscope_shared_bandwidth(float *out, int iterations)
{
    __shared__ float4 tile[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        tile[i] = make_float4(i, i + 0.25f, i + 0.5f, i + 0.75f);
    __syncthreads();
    unsigned base;
    asm("{ .reg .u64 p; cvta.to.shared.u64 p, %1; cvt.u32.u64 %0, p; }" : "=r"(base) : "l"(tile));
    unsigned address[8];
    #pragma unroll
    for (int j = 0; j < 8; ++j)
        address[j] = base + ((threadIdx.x + 128u * j) & 1023u) * 16u;
    float a = 0.f, b = 0.f, c = 0.f, d = 0.f;
    for (int it = 0; it < iterations; ++it) {
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            float x, y, z, w;
            asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                         : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
                         : "r"(address[j]));
            a += x;
            b += y;
            c += z;
            d += w;
        }
    }
    const float sum = a + b + c + d;
    if (sum == -1.2345f) // never true for these inputs, but the compiler cannot know
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)cuda";

// About 8 GiB a launch: on the H200 (an L2 of ~10 TB/s) a launch of about a millisecond, long
// against the launch and the events' resolution.
constexpr double kL2BytesPerLaunch = 8.0 * (1 << 30);

} // namespace

NvrtcProgram l2BandwidthProgram(int arch)
{
    return standaloneProgram(QStringLiteral("l2_bandwidth.cu"), kL2Source,
                             QStringLiteral("gemmscope_l2_bandwidth"), arch);
}

NvrtcProgram sharedBandwidthProgram(int arch)
{
    return standaloneProgram(QStringLiteral("shared_bandwidth.cu"), kSharedSource,
                             QStringLiteral("gemmscope_shared_bandwidth"), arch);
}

size_t l2BenchmarkBytes(double l2Bytes)
{
    if (!(l2Bytes > 0))
        return size_t(2) << 20;
    return std::max<size_t>(16, size_t(l2Bytes / 3) / 16 * 16);
}

double measureL2BandwidthGBs(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    const size_t bytes = l2BenchmarkBytes(device.spec.l2Bytes);
    DeviceBuffer<unsigned char> buffer(bytes, "the L2 benchmark buffer");
    GEMMSCOPE_CUDA(cudaMemset(buffer.get(), 0x3c, bytes)); // finite floats (1.15), not zeros
    const void *data = buffer.get();
    int n4 = int(bytes / 16);
    int passes = std::max(1, int(kL2BytesPerLaunch / double(bytes)));
    static_assert(kL2PassShift == 4096, "the kernel's source shifts each pass by 4096 float4");
    // One wave: every block resident at once, each thread's loads spread over the whole launch. The
    // warm-up launch brings the buffer into L2; the timed ones read it from there.
    const PeakRun run = runPeakKernel(compiler, device, job, l2BandwidthProgram(device.cc()),
                                      "the L2 benchmark output", {&data, &n4, &passes}, 1);
    return double(passes) * double(n4) * 16.0 / (run.minMs * 1e-3) / 1e9;
}

double measureSharedBandwidthGBs(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    int iterations = kSharedIterations;
    const PeakRun run = runPeakKernel(compiler, device, job, sharedBandwidthProgram(device.cc()),
                                      "the shared-memory benchmark output", {&iterations});
    const double bytes =
        double(iterations) * kSharedLoadsPerIteration * 16.0 * double(run.blocks) * kPeakThreadsPerBlock;
    return bytes / (run.minMs * 1e-3) / 1e9;
}

} // namespace gemmscope::runner
