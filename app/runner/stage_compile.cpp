#include "stage_compile.h"

#include "job_context.h"
#include "request_options.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_program.h"

#include <QElapsedTimer>

namespace gemmscope::runner {

CompiledKernel compileStage(RunnerState &state, const StageInfo &stage, const ParamValues &params, int arch,
                            StageBuild build, JobContext &job, bool withLineInfo)
{
    if (stage.isLibrary)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("Stage %1 is a cuBLAS baseline: it has no source to compile.")
                              .arg(QString::fromStdString(stage.key)));
    job.progress(protocol::ProgressPhase::Compile, 0, 1);
    const NvrtcProgram program = stageProgram(stage, params, arch, build, withLineInfo);
    CompiledKernel kernel;
    if (state.compileAhead) {
        CompileAhead::Taken taken = state.compileAhead->take(job.id(), program);
        kernel = std::move(taken.kernel);
        kernel.compiledAhead = taken.ahead;
        kernel.waitMs = taken.waitMs;
    } else {
        QElapsedTimer waited;
        waited.start();
        kernel = state.compiler.compile(program);
        kernel.waitMs = double(waited.nsecsElapsed()) / 1e6;
    }
    job.progress(protocol::ProgressPhase::Compile, 1, 1);
    job.checkCancelled();
    return kernel;
}

CompiledKernel compileTranspose(RunnerState &state, int arch, JobContext &job)
{
    CompiledKernel kernel = state.compiler.compile(transposeProgram(arch));
    job.checkCancelled();
    return kernel;
}

std::optional<NvrtcProgram> programAhead(const RunnerState &state, const QJsonObject &request)
{
    try {
        switch (protocol::requestTypeOf(request).value_or(protocol::RequestType::Quit)) {
        case protocol::RequestType::Run: {
            const auto run = decodeRequest<protocol::RunJob>(request);
            const StageInfo &stage = requireStage(run.stage, run.kernel);
            if (stage.isLibrary || !state.probe.device)
                return std::nullopt;
            const ParamValues params = paramsOrDefaults(stage, run.params);
            const int arch = state.probe.device->cc();
            requireValidConfig(stage, params, run.size, arch);
            return stageProgram(stage, params, arch, stageBuild(run.build));
        }
        case protocol::RequestType::Compile: {
            const CompileTarget target = compileTarget(state, decodeRequest<protocol::CompileJob>(request));
            if (target.stage->isLibrary)
                return std::nullopt;
            return stageProgram(*target.stage, target.params, target.arch, target.build);
        }
        default:
            return std::nullopt;
        }
    } catch (const std::exception &) {
        return std::nullopt; // the job refuses itself at its turn, with its own error
    }
}

} // namespace gemmscope::runner
