#include "ceilings_peak_run.h"

#include "device_buffer.h"
#include "job_context.h"
#include "kernel_timer.h"
#include "loaded_kernel.h"

#include <algorithm>
#include <vector>

namespace gemmscope::runner {

PeakRun runPeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job,
                      const NvrtcProgram &program, const char *bufferName,
                      std::initializer_list<void *> moreArgs, int waves)
{
    const LoadedKernel kernel(compiler.compile(program));

    const int blocksPerSm = std::max(1, kernel.maxActiveBlocksPerSm(kPeakThreadsPerBlock));
    const int blocks = device.spec.sms * blocksPerSm * std::max(1, waves);
    DeviceBuffer<float> out(size_t(blocks) * kPeakThreadsPerBlock, bufferName);
    float *outPtr = out.get();
    std::vector<void *> args{&outPtr};
    args.insert(args.end(), moreArgs);
    TimingOptions options;
    options.warmup = 1;
    options.minReps = kPeakRepetitions;
    options.maxReps = kPeakRepetitions;
    options.budgetMs = 0;
    const TimingStats stats = timeLaunches(
        [&] { kernel.launch(dim3(blocks), dim3(kPeakThreadsPerBlock), args.data()); }, {}, options, job);
    // The peak is the best the hardware did: interference on a shared machine only lowers it.
    return {blocks, stats.minMs};
}

} // namespace gemmscope::runner
