#include "ceilings.h"

#include "stage_types.h"

#include "cuda_check.h"
#include "device_buffer.h"
#include "job_context.h"
#include "kernel_timer.h"
#include "loaded_kernel.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <algorithm>
#include <initializer_list>
#include <vector>

namespace gemmscope::runner {

namespace {

// Eight independent FMA chains per thread hide the FMA latency (ILP) even at low occupancy; the
// data-dependent store keeps the compiler from removing the loop.
constexpr int kChains = 8;
constexpr int kThreadsPerBlock = 256;
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

constexpr int kRepetitions = 5;

// TF32 tensor-core peak: every warp issues kTf32Chains independent mma.sync m16n8k8 per iteration
// (independent accumulators, so the tensor pipe never waits on its own latency of ~16-32 cycles
// while an SM sub-partition issues one every ~8), eight warps a block and blocks filling every
// SM. asm volatile keeps every instruction; the data-dependent store keeps the results live.
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

} // namespace

const char *tf32MmaPeakSource()
{
    return kTf32Source;
}

QString tf32Unavailable(const DeviceInfo &device)
{
    if (device.cc() < 80)
        return QStringLiteral("%1 has no TF32 tensor cores: they arrived with sm_80 (Ampere).")
            .arg(device.arch());
    return {};
}

namespace {

// A peak microbenchmark's run: its blocks and its best time. The kernel takes a buffer of one
// float per thread first (the results, so that nothing is optimised away), then `moreArgs`; it
// fills every SM with as many blocks as fit, several waves deep.
struct PeakRun {
    int blocks = 0;
    double minMs = 0;
};

PeakRun runPeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job,
                      const QString &programName, const char *source, const QString &kernelName,
                      const char *bufferName, std::initializer_list<void *> moreArgs)
{
    NvrtcProgram program;
    program.programName = programName;
    program.mainSource = source;
    program.withKernelHeaders = false;
    program.nameExpression = kernelName;
    program.arch = device.cc();
    const LoadedKernel kernel(compiler.compile(program));

    const int blocksPerSm = std::max(1, kernel.maxActiveBlocksPerSm(kThreadsPerBlock));
    const int blocks = device.spec.sms * blocksPerSm * 4;
    DeviceBuffer<float> out(size_t(blocks) * kThreadsPerBlock, bufferName);
    float *outPtr = out.get();
    std::vector<void *> args{&outPtr};
    args.insert(args.end(), moreArgs);
    TimingOptions options;
    options.warmup = 1;
    options.minReps = kRepetitions;
    options.maxReps = kRepetitions;
    options.budgetMs = 0;
    const TimingStats stats = timeLaunches(
        [&] { kernel.launch(dim3(blocks), dim3(kThreadsPerBlock), args.data()); }, {}, options, job);
    // The peak is the best the hardware did: interference on a shared machine only lowers it.
    return {blocks, stats.minMs};
}

} // namespace

double measureTf32MmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    int iterations = kTf32Iterations;
    const PeakRun run =
        runPeakKernel(compiler, device, job, QStringLiteral("tf32_mma_peak.cu"), kTf32Source,
                      QStringLiteral("gemmscope_tf32_mma_peak"), "the TF32 benchmark output", {&iterations});
    const double warps = double(run.blocks) * kThreadsPerBlock / kWarpSize;
    const double flops = kFlopsPerMma * kTf32Chains * double(kTf32Iterations) * warps;
    return gemmscope::ProblemSize::tflopsOf(flops, run.minMs);
}

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    int iterations = kIterations;
    float b = 0.999999f, c = 1e-7f;
    const PeakRun run = runPeakKernel(compiler, device, job, QStringLiteral("fma_peak.cu"), kFmaSource,
                                      QStringLiteral("gemmscope_fma_peak"), "the FMA benchmark output",
                                      {&iterations, &b, &c});
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
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    Ceilings c{o.value(QStringLiteral("fma_tflops")).toDouble(),
               o.value(QStringLiteral("dram_gbs")).toDouble(),
               o.value(QStringLiteral("measured_at")).toString(),
               o.value(QStringLiteral("tf32_tflops")).toDouble(), // absent in a file written before it
               o.value(QStringLiteral("tf32_unavailable")).toString()};
    if (!(c.fmaTflops > 0) || !(c.dramGBs > 0))
        return std::nullopt; // a corrupt or partial file: measure again
    return c;
}

void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &c)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return; // not fatal: the numbers are still reported
    QJsonObject o{{QStringLiteral("gpu"), protocol::toJson(gpuInfo(device))},
                  {QStringLiteral("fma_tflops"), c.fmaTflops},
                  {QStringLiteral("dram_gbs"), c.dramGBs},
                  {QStringLiteral("measured_at"), c.measuredAt}};
    if (c.tf32Tflops > 0)
        o.insert(QStringLiteral("tf32_tflops"), c.tf32Tflops);
    if (!c.tf32Unavailable.isEmpty())
        o.insert(QStringLiteral("tf32_unavailable"), c.tf32Unavailable);
    f.write(QJsonDocument(o).toJson());
    f.commit();
}

} // namespace gemmscope::runner
