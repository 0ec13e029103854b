#include "stage_compile.h"

#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_program.h"

namespace gemmscope::runner {

CompiledKernel compileStage(RunnerState &state, const StageInfo &stage, const ParamValues &params, int arch,
                            StageBuild build, JobContext &job, bool withLineInfo)
{
    if (stage.isLibrary)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("Stage %1 is a cuBLAS baseline: it has no source to compile.")
                              .arg(QString::fromStdString(stage.key)));
    job.progress(QStringLiteral("compile"), 0, 1);
    CompiledKernel kernel = state.compiler.compile(stageProgram(stage, params, arch, build, withLineInfo));
    job.progress(QStringLiteral("compile"), 1, 1);
    job.checkCancelled();
    return kernel;
}

} // namespace gemmscope::runner
