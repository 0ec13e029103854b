#include "ceilings_peak_run.h"

#include "device_buffer.h"
#include "job_context.h"
#include "kernel_timer.h"

#include <algorithm>
#include <vector>

namespace gemmscope::runner {

PeakKernel::PeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, const NvrtcProgram &program,
                       int waves)
    : m_kernel(compiler.compile(program))
{
    const int blocksPerSm = std::max(1, m_kernel.maxActiveBlocksPerSm(kPeakThreadsPerBlock));
    m_blocks = device.spec.sms * blocksPerSm * std::max(1, waves);
}

double PeakKernel::bestMs(JobContext &job, const char *bufferName,
                          std::initializer_list<void *> moreArgs) const
{
    DeviceBuffer<float> out(size_t(threads()), bufferName);
    float *outPtr = out.get();
    std::vector<void *> args{&outPtr};
    args.insert(args.end(), moreArgs);
    TimingOptions options;
    options.warmup = 1;
    options.minReps = kPeakRepetitions;
    options.maxReps = kPeakRepetitions;
    options.budgetMs = 0;
    const TimingStats stats = timeLaunches(
        [&] { m_kernel.launch(dim3(m_blocks), dim3(kPeakThreadsPerBlock), args.data()); }, {}, options, job);
    // The peak is the best the hardware did: interference on a shared machine only lowers it.
    return stats.minMs;
}

PeakRun runPeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job,
                      const NvrtcProgram &program, const char *bufferName,
                      std::initializer_list<void *> moreArgs, int waves)
{
    const PeakKernel kernel(compiler, device, program, waves);
    return {kernel.blocks(), kernel.bestMs(job, bufferName, moreArgs)};
}

} // namespace gemmscope::runner
