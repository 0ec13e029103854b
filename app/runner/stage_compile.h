// Compiling one stage instantiation for a job, with the `compile` progress phase.
#pragma once

#include "nvrtc_compiler.h"
#include "stage_catalog.h"
#include "stage_program.h"

#include "requests.h"

#include <QJsonObject>
#include <optional>

namespace gemmscope::runner {

class JobContext;
struct RunnerState;

CompiledKernel compileStage(RunnerState &state, const StageInfo &stage, const ParamValues &params, int arch,
                            StageBuild build, JobContext &job, bool withLineInfo = false);

// The transpose a `transposedB` stage runs first, compiled (or taken from the cache) for `arch`.
CompiledKernel compileTranspose(RunnerState &state, int arch, JobContext &job);

// What a compile or disassemble request names: the stage and parameters (checked by the catalog),
// the problem size the checks use, the architecture (the request's "arch", else the GPU's) and
// the build.
struct CompileTarget {
    const StageInfo *stage = nullptr;
    ParamValues params;
    ProblemSize size;
    int arch = 0;
    StageBuild build = StageBuild::Release;
};
CompileTarget compileTarget(const RunnerState &state, const protocol::KernelRequest &request);

// The NVRTC program a queued `run` or `compile` job will compile, for compiling it ahead
// (CompileAhead); empty when the job compiles nothing or will refuse itself first (it then does so
// at its turn, in order). Reads only what the probe set before the reader thread started.
std::optional<NvrtcProgram> programAhead(const RunnerState &state, const QJsonObject &request);

} // namespace gemmscope::runner
