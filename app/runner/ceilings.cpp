#include "ceilings.h"

#include "ceilings_memory.h"
#include "ceilings_peak_run.h"

#include "stage_types.h"

#include "cuda_check.h"
#include "device_buffer.h"
#include "job_context.h"
#include "kernel_timer.h"
#include "loaded_kernel.h"

#include "file_read.h"
#include "file_write.h"

#include <QFile>
#include <QJsonDocument>
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <vector>

namespace gemmscope::runner {

namespace {

// Eight independent FMA chains per thread hide the FMA latency (ILP) even at low occupancy; the
// data-dependent store keeps the compiler from removing the loop.
constexpr int kChains = 8;
constexpr int kThreadsPerBlock = kPeakThreadsPerBlock;
constexpr int kIterations = 1 << 16;
const char *const kFmaSource = R"cuda(
extern "C" __global__ void gemmscope_fma_peak(float *out, int iterations, float b, float c)
{
    float x[8];
    #pragma unroll
    for (int j = 0; j < 8; ++j)
        x[j] = threadIdx.x * 1e-3f + j;
    #pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
        #pragma unroll
        for (int j = 0; j < 8; ++j)
            x[j] = fmaf(x[j], b, c);
    }
    float sum = 0.f;
    #pragma unroll
    for (int j = 0; j < 8; ++j)
        sum += x[j];
    if (sum == -1.2345f) // never true for these inputs, but the compiler cannot know
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)cuda";

constexpr int kRepetitions = kPeakRepetitions;

// TF32 tensor-core peak off Hopper (sm_80, 86, 89, 100, ...): every warp issues kTf32Chains
// independent mma.sync m16n8k8 per iteration (independent accumulators, so the tensor pipe never
// waits on its own latency of ~16-32 cycles while an SM sub-partition issues one every ~8), eight
// warps a block and blocks filling every SM. asm volatile keeps every instruction; the
// data-dependent store keeps the results live.
constexpr int kTf32Chains = 8;
constexpr int kTf32Iterations = 1 << 14;
constexpr double kFlopsPerMma = 2.0 * 16 * 8 * 8;
const char *const kTf32Source = R"cuda(
extern "C" __global__ void gemmscope_tf32_mma_peak(float *out, int iterations)
{
    unsigned a[4], b[2];
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float x = 1.0f + (threadIdx.x + j) * 1e-3f;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a[j]) : "f"(x));
    }
    #pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float x = 0.5f - (threadIdx.x + j) * 1e-3f;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b[j]) : "f"(x));
    }
    float c[8][4];
    #pragma unroll
    for (int j = 0; j < 8; ++j)
        #pragma unroll
        for (int r = 0; r < 4; ++r)
            c[j][r] = 0.f;
    for (int i = 0; i < iterations; ++i) {
        #pragma unroll
        for (int j = 0; j < 8; ++j)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    float sum = 0.f;
    #pragma unroll
    for (int j = 0; j < 8; ++j)
        sum += c[j][0] + c[j][1] + c[j][2] + c[j][3];
    if (sum == -1.2345f) // never true for these inputs, but the compiler cannot know
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)cuda";

// TF32 tensor-core peak on Hopper (sm_90a): mma.sync reaches only ~65 % of it there, the rest
// needs wgmma. Each of the block's two warpgroups runs the stages' k-tile step (multiplyTileAsync in
// wgmma_ops.cuh): groups of kWgmmaPerGroup back-to-back wgmma.mma_async m64n256k8 (the widest N: the most
// work per instruction issued), both operands read from shared memory through descriptors, and keeps one
// group in flight while the next is issued (wait_group 1), as a GEMM main loop does; two warpgroups, as
// CUTLASS's consumers, keep the tensor core busy while one waits. The tiles, the canonical 128-byte-swizzled
// K-major layout of wgmma_tf32.cuh (A 64 x 32, B 256 x 32 floats, one swizzle row of 32 k each), are written
// once; their values are arbitrary finite numbers in [0.5, 1) (varied bits, not zeros, so that the tensor
// core draws the power real data makes it draw). 128 accumulators a thread allow one block per SM; the
// data-dependent store keeps them live.
constexpr int kWgmmaPerGroup = 4;
constexpr int kWgmmaIterations = 1 << 12;
constexpr int kWarpgroupsPerBlock = kThreadsPerBlock / 128;
constexpr double kFlopsPerWgmma = 2.0 * 64 * 256 * 8;
const char *const kTf32WgmmaSource = R"cuda(
#include "wgmma_ops.cuh"

extern "C" __global__ void __launch_bounds__(256, 1) gemmscope_tf32_wgmma_peak(float *out, int iterations)
{
    using namespace gemmscope;
    constexpr int TILE_FLOATS = (64 + 256) * 32; // A [64][32], then B [256][32]
    // The swizzle is a function of the shared address: 1 KiB more, the base rounded up to 1 KiB.
    __shared__ __align__(16) float raw[TILE_FLOATS + 256];
    float *tiles = reinterpret_cast<float *>((reinterpret_cast<unsigned long long>(raw) + 1023) & ~1023ull);
    for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
        tiles[i] = __uint_as_float(0x3f000000u | ((unsigned(i) * 2654435761u) >> 9));
    fenceProxyAsync(); // the threads' writes reach the tensor core (the async proxy)
    __syncthreads();
    float d[128];
    #pragma unroll
    for (int r = 0; r < 128; ++r)
        d[r] = 0.f;
    // The stages' own k-tile step: four wgmma m64n256k8 a group, one group in flight while the
    // next is issued.
    for (int i = 0; i < iterations; ++i)
        multiplyTileAsync<256>(d, tiles, tiles + 64 * 32);
    wgmmaWait<0>();
    fenceAccumulators(d);
    float sum = 0.f;
    #pragma unroll
    for (int r = 0; r < 128; ++r)
        sum += d[r];
    if (sum == -1.2345f) // never true for these inputs, but the compiler cannot know
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)cuda";
static_assert(kWgmmaPerGroup == 4 && kThreadsPerBlock == 256,
              "multiplyTileAsync issues four wgmma a group (a 32-deep k tile), and the source above has two "
              "warpgroups a block");

bool usesWgmma(int arch)
{
    return arch == 90; // wgmma exists on sm_90a alone: not on sm_100 (tcgen05) nor sm_89
}

} // namespace

const char *tf32PeakKernel(int arch)
{
    return usesWgmma(arch) ? kTf32WgmmaPeakKernel : kTf32MmaPeakKernel;
}

NvrtcProgram tf32PeakProgram(int arch)
{
    if (!usesWgmma(arch))
        return standaloneProgram(QStringLiteral("tf32_mma_peak.cu"), kTf32Source,
                                 QStringLiteral("gemmscope_tf32_mma_peak"), arch);
    NvrtcProgram program = standaloneProgram(QStringLiteral("tf32_wgmma_peak.cu"), kTf32WgmmaSource,
                                             QStringLiteral("gemmscope_tf32_wgmma_peak"), arch);
    program.withKernelHeaders = true; // #include "wgmma_ops.cuh", the stages' wgmma helpers
    program.archSpecific = true;      // sm_90a: wgmma
    return program;
}

QString tf32Unavailable(const DeviceInfo &device)
{
    if (device.cc() < 80)
        return QStringLiteral("%1 has no TF32 tensor cores: they arrived with sm_80 (Ampere).")
            .arg(device.arch());
    return {};
}

bool tf32NeedsMeasuring(const Ceilings &cached, const DeviceInfo &device)
{
    if (!tf32Unavailable(device).isEmpty())
        return false;
    return cached.tf32Tflops <= 0 || cached.tf32Kernel != QLatin1String(tf32PeakKernel(device.cc()));
}

bool memoryLevelsNeedMeasuring(const Ceilings &cached)
{
    return !(cached.l2GBs > 0) || !(cached.sharedGBs > 0) ||
           cached.memoryBenchmark != QLatin1String(kMemoryBenchmark);
}

double measureTf32PeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    const NvrtcProgram program = tf32PeakProgram(device.cc());
    if (usesWgmma(device.cc())) {
        int iterations = kWgmmaIterations;
        const PeakRun run =
            runPeakKernel(compiler, device, job, program, "the TF32 benchmark output", {&iterations});
        const double warpgroups = double(run.blocks) * kWarpgroupsPerBlock;
        const double flops = kFlopsPerWgmma * kWgmmaPerGroup * double(kWgmmaIterations) * warpgroups;
        return gemmscope::ProblemSize::tflopsOf(flops, run.minMs);
    }
    int iterations = kTf32Iterations;
    const PeakRun run =
        runPeakKernel(compiler, device, job, program, "the TF32 benchmark output", {&iterations});
    const double warps = double(run.blocks) * kThreadsPerBlock / kWarpSize;
    const double flops = kFlopsPerMma * kTf32Chains * double(kTf32Iterations) * warps;
    return gemmscope::ProblemSize::tflopsOf(flops, run.minMs);
}

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    int iterations = kIterations;
    float b = 0.999999f, c = 1e-7f;
    const PeakRun run = runPeakKernel(compiler, device, job,
                                      standaloneProgram(QStringLiteral("fma_peak.cu"), kFmaSource,
                                                        QStringLiteral("gemmscope_fma_peak"), device.cc()),
                                      "the FMA benchmark output", {&iterations, &b, &c});
    const double flops = 2.0 * kChains * double(kIterations) * double(run.blocks) * kThreadsPerBlock;
    return gemmscope::ProblemSize::tflopsOf(flops, run.minMs);
}

double measureDramBandwidthGBs(const DeviceInfo &device, JobContext &job)
{
    // 2 GiB each way, far beyond any L2; less on a small GPU (source and destination must fit).
    size_t bytes = size_t(2) << 30;
    while (bytes > (size_t(64) << 20) && 2 * bytes > size_t(device.memBytes) / 2)
        bytes /= 2;
    DeviceBuffer<unsigned char> src(bytes, "the bandwidth benchmark source"),
        dst(bytes, "the bandwidth benchmark copy");
    GEMMSCOPE_CUDA(cudaMemset(src.get(), 1, bytes));
    TimingOptions options;
    options.warmup = 1;
    options.minReps = kRepetitions;
    options.maxReps = kRepetitions;
    options.budgetMs = 0;
    const TimingStats stats = timeLaunches(
        [&] { GEMMSCOPE_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice)); }, {},
        options, job);
    return 2.0 * double(bytes) / (stats.medianMs * 1e-3) / 1e9; // bytes read + written
}

QString ceilingsCachePath(const QString &cacheDir, const DeviceInfo &device)
{
    QString id = device.uuid.isEmpty() ? device.name() : device.uuid;
    for (QChar &ch : id)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-'))
            ch = QLatin1Char('_');
    return cacheDir + QStringLiteral("/ceilings-") + id + QStringLiteral(".json");
}

std::optional<Ceilings> loadCeilings(const QString &path)
{
    // A regular file of a sane size only: a FIFO or device planted at the name must not block
    // or flood the runner.
    const FileBytes file = readRegularFile(path, 1024 * 1024);
    if (!file.bytes)
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(*file.bytes).object();
    Ceilings c{o.value(QStringLiteral("fma_tflops")).toDouble(),
               o.value(QStringLiteral("dram_gbs")).toDouble(),
               o.value(QStringLiteral("measured_at")).toString(),
               o.value(QStringLiteral("tf32_tflops")).toDouble(), // absent in a file written before it
               o.value(QStringLiteral("tf32_unavailable")).toString(),
               o.value(QStringLiteral("tf32_kernel")).toString(),
               // absent in a file written before the memory levels: memoryLevelsNeedMeasuring()
               o.value(QStringLiteral("l2_gbs")).toDouble(), o.value(QStringLiteral("shared_gbs")).toDouble(),
               o.value(QStringLiteral("memory_benchmark")).toString()};
    if (!(c.fmaTflops > 0) || !(c.dramGBs > 0))
        return std::nullopt; // a corrupt or partial file: measure again
    // A file written before the kernel's name was stored holds an mma.sync peak: the only kind
    // measured then. On Hopper tf32NeedsMeasuring() then asks for the wgmma one.
    if (c.tf32Tflops > 0 && c.tf32Kernel.isEmpty())
        c.tf32Kernel = QString::fromLatin1(kTf32MmaPeakKernel);
    return c;
}

void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &c)
{
    QJsonObject o{{QStringLiteral("gpu"), protocol::toJson(gpuInfo(device))},
                  {QStringLiteral("fma_tflops"), c.fmaTflops},
                  {QStringLiteral("dram_gbs"), c.dramGBs},
                  {QStringLiteral("measured_at"), c.measuredAt}};
    if (c.tf32Tflops > 0) {
        o.insert(QStringLiteral("tf32_tflops"), c.tf32Tflops);
        o.insert(QStringLiteral("tf32_kernel"), c.tf32Kernel);
    }
    if (!c.tf32Unavailable.isEmpty())
        o.insert(QStringLiteral("tf32_unavailable"), c.tf32Unavailable);
    if (c.l2GBs > 0 && c.sharedGBs > 0) {
        o.insert(QStringLiteral("l2_gbs"), c.l2GBs);
        o.insert(QStringLiteral("shared_gbs"), c.sharedGBs);
        o.insert(QStringLiteral("memory_benchmark"), c.memoryBenchmark);
    }
    // Whole or not at all (a torn file would read as no ceilings and be measured again, but
    // is never written); a failure is not fatal: the numbers are still reported.
    WriteOptions own;
    own.followSymlinks = false; // the cache folder is the runner's own
    if (const FileWrite written = writeFileAtomically(path, QJsonDocument(o).toJson(), own); !written)
        std::fprintf(stderr, "gemmscope-runner: the ceilings were not cached: %s\n",
                     qPrintable(written.error));
}

} // namespace gemmscope::runner
