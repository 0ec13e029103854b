// Compiling one stage instantiation for a job, with the `compile` progress phase.
#pragma once

#include "nvrtc_compiler.h"
#include "stage_catalog.h"
#include "stage_program.h"

#include <QJsonObject>

namespace gemmscope::runner {

class JobContext;
struct RunnerState;

CompiledKernel compileStage(RunnerState &state, const StageInfo &stage, const ParamValues &params, int arch,
                            StageBuild build, JobContext &job, bool withLineInfo = false);

// The transpose a `transposedB` stage runs first, compiled (or taken from the cache) for `arch`.
CompiledKernel compileTranspose(RunnerState &state, int arch, JobContext &job);

// What a compile or disassemble request names: the stage and parameters (checked by the catalog),
// the problem size the checks use, and the architecture (the request's "arch", else the GPU's).
struct CompileTarget {
    const StageInfo *stage = nullptr;
    ParamValues params;
    ProblemSize size;
    int arch = 0;
};
CompileTarget compileTarget(RunnerState &state, const QJsonObject &request);

// The request's "params", or the stage's defaults when it has none.
ParamValues requestParams(const StageInfo &stage, const QJsonObject &request);

} // namespace gemmscope::runner
