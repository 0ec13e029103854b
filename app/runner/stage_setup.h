// A stage made ready to launch on the GPU for a job: compiled (or from the cache), loaded, its
// launch refused with its numbers when it cannot run, the `compiled` event sent, and the launch
// closure built (the B transpose included for a `transposedB` stage). cuBLAS stages need none of
// it: their launch is the library call. The `run` and `profile` jobs share it.
#pragma once

#include "loaded_kernel.h"
#include "nvrtc_compiler.h"
#include "stage_catalog.h"
#include "stage_program.h"

#include "events.h"

#include <functional>
#include <memory>
#include <optional>

namespace gemmscope::runner {

class JobContext;
struct RunnerState;
struct DeviceInfo;

struct StageSetupOptions {
    StageBuild build = StageBuild::Release;
    int maxBlocksPerSm = 0; // 0: no limit
    int smemCarveout = -1;  // -1: the driver's choice
    bool lineInfo = false;  // -lineinfo: source lines for the profile (no instruction changes)
};

struct PreparedStage {
    std::function<void()> launch; // the stage's own kernels on the workspace's A, B and C
    std::unique_ptr<LoadedKernel> kernel, transposeKernel;
    std::optional<protocol::CompiledInfo> compiled; // GemmScope's kernels only
    QByteArray cubin;                               // the stage's CUBIN; empty for cuBLAS
};

PreparedStage prepareStage(RunnerState &state, const StageInfo &stage, const ParamValues &params,
                           const ProblemSize &size, const DeviceInfo &device,
                           const StageSetupOptions &options, JobContext &job);

} // namespace gemmscope::runner
