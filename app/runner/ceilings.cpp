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

} // namespace

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job)
{
    NvrtcProgram program;
    program.programName = QStringLiteral("fma_peak.cu");
    program.mainSource = kFmaSource;
    program.withKernelHeaders = false;
    program.nameExpression = QStringLiteral("gemmscope_fma_peak");
    program.arch = device.cc();
    const LoadedKernel kernel(compiler.compile(program));

    // Fill every SM with as many blocks as fit, several waves deep.
    const int blocksPerSm = std::max(1, kernel.maxActiveBlocksPerSm(kThreadsPerBlock));
    const int blocks = device.spec.sms * blocksPerSm * 4;
    DeviceBuffer<float> out(size_t(blocks) * kThreadsPerBlock, "the FMA benchmark output");
    float *outPtr = out.get();
    int iterations = kIterations;
    float b = 0.999999f, c = 1e-7f;
    void *args[] = {&outPtr, &iterations, &b, &c};
    TimingOptions options;
    options.warmup = 1;
    options.minReps = kRepetitions;
    options.maxReps = kRepetitions;
    options.budgetMs = 0;
    const TimingStats stats =
        timeLaunches([&] { kernel.launch(dim3(blocks), dim3(kThreadsPerBlock), args); }, {}, options, job);
    const double flops = 2.0 * kChains * double(kIterations) * double(blocks) * kThreadsPerBlock;
    // The peak is the best the hardware did: interference on a shared machine only lowers it.
    return gemmscope::ProblemSize::tflopsOf(flops, stats.minMs);
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
               o.value(QStringLiteral("measured_at")).toString()};
    if (!(c.fmaTflops > 0) || !(c.dramGBs > 0))
        return std::nullopt; // a corrupt or partial file: measure again
    return c;
}

void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &c)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return; // not fatal: the numbers are still reported
    const QJsonObject o{{QStringLiteral("gpu"), protocol::toJson(gpuInfo(device))},
                        {QStringLiteral("fma_tflops"), c.fmaTflops},
                        {QStringLiteral("dram_gbs"), c.dramGBs},
                        {QStringLiteral("measured_at"), c.measuredAt}};
    f.write(QJsonDocument(o).toJson());
    f.commit();
}

} // namespace gemmscope::runner
