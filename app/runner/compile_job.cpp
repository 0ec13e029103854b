// The `compile` job: NVRTC only, so it works without a GPU or driver (CI compiles every stage).
#include "compiled_event.h"
#include "job_context.h"
#include "launch_config.h"
#include "request_options.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_compile.h"
#include "stage_program.h"

namespace gemmscope::runner {

CompileTarget compileTarget(const RunnerState &state, const protocol::KernelRequest &request)
{
    const StageInfo &stage = requireStage(request.stage, request.kernel);
    const ParamValues params = paramsOrDefaults(stage, request.params);
    const QString &archText = request.arch;
    int arch = 0;
    if (!archText.isEmpty()) {
        arch = parseArch(archText);
        if (arch == 0)
            throw RunnerError(
                ErrorKind::ProtocolError,
                QStringLiteral("Field \"arch\" must look like \"sm_90\", not \"%1\".").arg(archText));
    } else if (state.probe.device) {
        arch = state.probe.device->cc();
    } else {
        throw RunnerError(ErrorKind::NoGpu,
                          QStringLiteral("The compile request names no \"arch\" and there is no "
                                         "GPU to take it from: ") +
                              state.probe.error);
    }
    const StageBuild build = stageBuild(request.build); // before the catalog or NVRTC is asked
    const ProblemSize size = request.size.value_or(ProblemSize{});
    requireValidConfig(stage, params, size, arch);
    return CompileTarget{&stage, params, size, arch, build};
}

void runCompileJob(RunnerState &state, const protocol::CompileJob &request, JobContext &job)
{
    const CompileTarget target = compileTarget(state, request);
    const StageInfo &stage = *target.stage;
    const ParamValues &params = target.params;
    const ProblemSize &size = target.size;
    const int arch = target.arch;

    CompiledKernel kernel = compileStage(state, stage, params, arch, target.build, job);
    const LaunchGeometry geometry = launchGeometry(stage.id, params, size);
    const int threads = geometry.threadsPerBlock();
    std::optional<Occupancy> occupancy;
    QString occupancyNote;
    if (state.probe.device && state.probe.device->cc() == arch) {
        const LoadedKernel loaded(kernel);
        if (geometry.dynamicSmemBytes > 0)
            loaded.allowDynamicSmem(geometry.dynamicSmemBytes);
        loaded.takeResourcesInto(kernel); // the loaded binary's registers, ptxas log or not
        state.compiler.storeIfComplete(kernel);
        requireLaunchable(kernel, threads,
                          loaded.maxActiveBlocksPerSm(threads, size_t(geometry.dynamicSmemBytes)),
                          state.probe.device->name(), {}, loaded.attributes().maxThreadsPerBlock);
        occupancy = deviceOccupancy(*state.probe.device, loaded, threads, kernel.ptxas.registers,
                                    kernel.ptxas.staticSmemBytes, {}, geometry.dynamicSmemBytes);
    } else if (kernel.ptxas.found) {
        // Compile-only: ptxas's numbers against the architecture's datasheet GPU, where one is known.
        occupancy = modelOccupancy(arch, threads, kernel.ptxas.registers,
                                   kernel.ptxas.staticSmemBytes + geometry.dynamicSmemBytes);
        const GpuSpec *datasheet = findGpuForArch(arch);
        requireLaunchable(kernel, threads,
                          occupancy ? std::optional<int>(occupancy->blocksPerSm) : std::nullopt,
                          datasheet ? QString::fromStdString(datasheet->name) + QStringLiteral(" (datasheet)")
                                    : QStringLiteral("sm_%1").arg(arch),
                          occupancy ? QString::fromStdString(occupancy->explanation) : QString());
    } else {
        // Neither a ptxas report nor a GPU to load the kernel on: no occupancy rather than one that
        // leaves the registers out and names the wrong limiter.
        occupancyNote = QStringLiteral("Unknown: NVRTC returned no ptxas report for this kernel and no "
                                       "GPU of sm_%1 has loaded it, so its registers are not known.")
                            .arg(arch);
    }
    protocol::CompiledInfo event = compiledInfo(stage, kernel, occupancy, {}, geometry.dynamicSmemBytes);
    event.id = job.id();
    event.occupancyNote = occupancyNote;
    event.params = params;
    event.threadsPerBlock = geometry.threadsPerBlock();
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
