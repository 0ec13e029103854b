// The `compile` job: NVRTC only, so it works without a GPU or driver (CI compiles every stage).
#include "compiled_event.h"
#include "job_context.h"
#include "launch_config.h"
#include "request_fields.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_compile.h"
#include "stage_program.h"

namespace gemmscope::runner {

CompileTarget compileTarget(RunnerState &state, const QJsonObject &request)
{
    const StageInfo &stage = requireStage(requireString(request, QStringLiteral("stage")));
    const ParamValues params = requestParams(stage, request);
    const ProblemSize size = request.contains(QStringLiteral("size")) ? parseSize(request) : ProblemSize{};

    int arch = 0;
    const QString archText = optionalString(request, QStringLiteral("arch"));
    if (!archText.isEmpty()) {
        arch = parseArch(archText);
        if (arch == 0)
            throw RunnerError(
                ErrorKind::ProtocolError,
                QStringLiteral("Field \"arch\" must look like \"sm_90\", not \"%1\".").arg(archText));
    } else if (state.probe.device) {
        arch = state.probe.device->cc;
    } else {
        throw RunnerError(ErrorKind::NoGpu,
                          QStringLiteral("The compile request names no \"arch\" and there is no "
                                         "GPU to take it from: ") +
                              state.probe.error);
    }
    requireValidConfig(stage, params, size, arch);
    return CompileTarget{&stage, params, size, arch};
}

void runCompileJob(RunnerState &state, const QJsonObject &request, JobContext &job)
{
    const CompileTarget target = compileTarget(state, request);
    const StageInfo &stage = *target.stage;
    const ParamValues &params = target.params;
    const ProblemSize &size = target.size;
    const int arch = target.arch;

    const CompiledKernel kernel = compileStage(state, stage, params, arch, requestBuild(request), job);
    const LaunchGeometry geometry = launchGeometry(stage.id, params, size);
    std::optional<Occupancy> occupancy;
    if (state.probe.device && state.probe.device->cc == arch) {
        const LoadedKernel loaded(kernel);
        if (geometry.dynamicSmemBytes > 0)
            loaded.allowDynamicSmem(geometry.dynamicSmemBytes);
        occupancy =
            deviceOccupancy(*state.probe.device, loaded, geometry.threadsPerBlock(), kernel.ptxas.registers,
                            kernel.ptxas.staticSmemBytes, {}, geometry.dynamicSmemBytes);
    } else {
        occupancy = modelOccupancy(arch, geometry.threadsPerBlock(), kernel.ptxas.registers,
                                   kernel.ptxas.staticSmemBytes + geometry.dynamicSmemBytes);
    }
    QJsonObject event = compiledFields(stage, kernel, occupancy);
    event.insert(QStringLiteral("event"), QStringLiteral("compiled"));
    event.insert(QStringLiteral("params"), paramsToJson(params));
    event.insert(QStringLiteral("threads_per_block"), geometry.threadsPerBlock());
    job.send(event);
}

} // namespace gemmscope::runner
