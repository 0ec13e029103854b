// How every ceilings microbenchmark kernel runs (FMA, TF32, L2, shared memory): compiled with NVRTC,
// launched over every SM with as many blocks as fit, timed with CUDA events, the best of a few
// repetitions kept (interference on a shared machine only lowers a peak).
#pragma once

#include "gpu_device.h"
#include "nvrtc_compiler.h"

#include <initializer_list>

namespace gemmscope::runner {

class JobContext;

inline constexpr int kPeakThreadsPerBlock = 256;
inline constexpr int kPeakRepetitions = 5;

// A peak microbenchmark's run: its blocks and its best time.
struct PeakRun {
    int blocks = 0;
    double minMs = 0;
};

// The kernel takes a buffer of one float per thread first (the results, so that nothing is
// optimised away), then `moreArgs`. It gets kPeakThreadsPerBlock threads a block and `waves` times
// as many blocks as fit on all SMs at once.
PeakRun runPeakKernel(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job,
                      const NvrtcProgram &program, const char *bufferName,
                      std::initializer_list<void *> moreArgs, int waves = 4);

} // namespace gemmscope::runner
