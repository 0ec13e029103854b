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
                            StageBuild build, JobContext &job);

// The request's "params", or the stage's defaults when it has none.
ParamValues requestParams(const StageInfo &stage, const QJsonObject &request);

} // namespace gemmscope::runner
