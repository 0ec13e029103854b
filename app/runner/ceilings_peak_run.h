// How every ceilings microbenchmark kernel runs (FMA, TF32, L2, shared memory): compiled with NVRTC,
// launched over every SM with as many blocks as fit, timed with CUDA events, the best of a few
// repetitions kept (interference on a shared machine only lowers a peak).
#pragma once

#include "gpu_device.h"
#include "loaded_kernel.h"
#include "nvrtc_compiler.h"

#include <initializer_list>

namespace gemmscope::runner {

class JobContext;

inline constexpr int kPeakThreadsPerBlock = 256;
inline constexpr int kPeakRepetitions = 5;

// A peak microbenchmark's kernel, loaded, with its grid: kPeakThreadsPerBlock threads a block and
// `waves` times as many blocks as fit on all SMs at once.
class PeakKernel {
public:
    PeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, const NvrtcProgram &program,
               int waves);
    int blocks() const { return m_blocks; }
    long long threads() const { return (long long)m_blocks * kPeakThreadsPerBlock; }
    // The best time in ms of kPeakRepetitions launches after one warm-up. The kernel takes a buffer
    // of one float per thread first (the results, so that nothing is optimised away), then
    // `moreArgs`.
    double bestMs(JobContext &job, const char *bufferName, std::initializer_list<void *> moreArgs) const;

private:
    LoadedKernel m_kernel;
    int m_blocks = 0;
};

// A peak microbenchmark's run: its blocks and its best time.
struct PeakRun {
    int blocks = 0;
    double minMs = 0;
};

PeakRun runPeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job,
                      const NvrtcProgram &program, const char *bufferName,
                      std::initializer_list<void *> moreArgs, int waves = 4);

} // namespace gemmscope::runner
