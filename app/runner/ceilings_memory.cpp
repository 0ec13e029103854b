#include "ceilings_memory.h"

#include "ceilings_peak_run.h"
#include "cuda_check.h"
#include "device_buffer.h"

#include <algorithm>

namespace gemmscope::runner {

namespace {

// Every thread loads `perThread` float4s a pass (a multiple of 4), float4 start + i * stride of the
// buffer (stride: all threads): the buffer is exactly perThread x stride float4s, so no load needs a
// bounds check, and four loads go out back to back before their sums wait for them. Every pass
// starts 4096 float4s (64 KiB) further on, wrapping at the end: no thread reads in one pass what it
// read in the one before, so no compiler can keep a load out of the loop and no L1 could serve it
// even if ld.global.cg were ignored. Four sums keep the adds off the loads' critical path; the
// data-dependent store keeps every load.
constexpr int kL2PassShift = 4096;
constexpr int kL2Batch = 4;
const char *const kL2Source = R"cuda(
extern "C" __global__ void gemmscope_l2_bandwidth(float *out, const float4 *data, int perThread, int passes)
{
    const int stride = gridDim.x * blockDim.x;
    const int n4 = perThread * stride;
    const int start = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.f, b = 0.f, c = 0.f, d = 0.f;
    int shift = 0;
    for (int p = 0; p < passes; ++p) {
        for (int i = 0; i < perThread; i += 4) {
            float4 v[4];
            #pragma unroll
            for (int u = 0; u < 4; ++u) {
                int index = start + (i + u) * stride + shift;
                if (index >= n4)
                    index -= n4;
                asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                             : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                             : "l"(data + index));
            }
            #pragma unroll
            for (int u = 0; u < 4; ++u) {
                a += v[u].x;
                b += v[u].y;
                c += v[u].z;
                d += v[u].w;
            }
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
// reads float4 (t + 128 j) mod 1024 for j = 0..7, the same eight every iteration: a quarter-warp's
// eight 16-byte loads cover all 32 banks once, so each warp-wide 128-bit load is four wavefronts, the
// hardware's best. ld.volatile keeps ptxas from hoisting the loads, whose addresses repeat each
// iteration, out of the loop. 128 iterations: 16 KiB read a thread, ~18 GB a launch on the H200
// (4 waves of 8 blocks on 132 SMs), about half a millisecond at its ~33 TB/s.
constexpr int kSharedLoadsPerIteration = 8;
constexpr int kSharedIterations = 1 << 7;
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

int l2LoadsPerThread(double l2Bytes, long long threads)
{
    const double target = l2Bytes > 0 ? l2Bytes / 3 : double(size_t(2) << 20);
    const long long loads = threads > 0 ? (long long)(target / 16.0 / double(threads)) : 0;
    return int(std::max<long long>(kL2Batch, loads / kL2Batch * kL2Batch));
}

double measureL2BandwidthGBs(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    static_assert(kL2PassShift == 4096 && kL2Batch == 4,
                  "the kernel's source shifts each pass by 4096 float4 "
                  "and loads four at a time");
    // One wave: every block resident at once, each thread's loads spread over the whole launch.
    const PeakKernel kernel(compiler, device, l2BandwidthProgram(device.cc()), 1);
    int perThread = l2LoadsPerThread(device.spec.l2Bytes, kernel.threads());
    const size_t bytes = size_t(perThread) * size_t(kernel.threads()) * 16;
    DeviceBuffer<unsigned char> buffer(bytes, "the L2 benchmark buffer");
    GEMMSCOPE_CUDA(cudaMemset(buffer.get(), 0x3c, bytes)); // finite floats (0.0115), not zeros
    const void *data = buffer.get();
    int passes = std::max(1, int(kL2BytesPerLaunch / double(bytes)));
    // The warm-up launch brings the buffer into L2; the timed ones read it from there.
    const double ms = kernel.bestMs(job, "the L2 benchmark output", {&data, &perThread, &passes});
    return double(passes) * double(bytes) / (ms * 1e-3) / 1e9;
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
