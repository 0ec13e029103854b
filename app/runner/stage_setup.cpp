#include "stage_setup.h"

#include "block_limit.h"
#include "compiled_event.h"
#include "gpu_device.h"
#include "job_context.h"
#include "launch_config.h"
#include "runner_state.h"
#include "smem_carveout.h"
#include "stage_compile.h"
#include "stage_launch.h"

namespace gemmscope::runner {

PreparedStage prepareStage(RunnerState &state, const StageInfo &stage, const ParamValues &params,
                           const ProblemSize &size, const DeviceInfo &device,
                           const StageSetupOptions &options, JobContext &job)
{
    PreparedStage prepared;
    GemmWorkspace &ws = state.workspace;
    if (stage.isLibrary) {
        prepared.launch = [&ws, &stage] { ws.cublasGemm(stage.precision, ws.c()); };
        return prepared;
    }
    LaunchDims dims = launchDims(stage, params, size);
    CompiledKernel compiledKernel =
        compileStage(state, stage, params, device.cc(), options.build, job, options.lineInfo);
    prepared.kernel = std::make_unique<LoadedKernel>(compiledKernel);
    LoadedKernel &kernel = *prepared.kernel;
    // Registers and shared memory of the binary that runs, whether or not ptxas printed them
    // (on a warm machine NVRTC can return an empty log); cached only now, complete.
    kernel.takeResourcesInto(compiledKernel);
    state.compiler.storeIfComplete(compiledKernel);
    if (dims.dynamicSmemBytes > 0)
        kernel.allowDynamicSmem(dims.dynamicSmemBytes);
    // A configuration that compiles but cannot launch (registers x threads above the register
    // file) is refused with its numbers before anything is launched.
    requireLaunchable(compiledKernel, dims.threads,
                      kernel.maxActiveBlocksPerSm(dims.threads, size_t(dims.dynamicSmemBytes)), device.name(),
                      {}, kernel.attributes().maxThreadsPerBlock);
    applySmemCarveout(kernel, options.smemCarveout); // before occupancy: the split can change it
    const BlockLimit limit =
        limitBlocksPerSm(device, kernel, dims.threads, options.maxBlocksPerSm, dims.dynamicSmemBytes);
    const Occupancy occupancy =
        deviceOccupancy(device, kernel, dims.threads, compiledKernel.ptxas.registers,
                        compiledKernel.ptxas.staticSmemBytes, limit, dims.dynamicSmemBytes);
    prepared.compiled = compiledInfo(stage, compiledKernel, occupancy, limit, dims.dynamicSmemBytes);
    // One wave of resident blocks (or clusters), read from this GPU, walking all the tiles.
    if (stage.persistent && dims.clusterX > 1)
        dims.grid.x = persistentClusterGrid(
            dims.grid.x, dims.clusterX,
            kernel.maxActiveClusters(dims.clusterX, dims.threads,
                                     size_t(dims.dynamicSmemBytes) + limit.paddingBytes));
    else if (stage.persistent)
        dims.grid.x = persistentGrid(dims.grid.x, device.spec.sms, occupancy.blocksPerSm);
    if (options.smemCarveout >= 0) // what the runtime now holds for the kernel, not the request's echo
        prepared.compiled->smemCarveout = kernel.attributes().preferredShmemCarveout;
    protocol::CompiledInfo event = *prepared.compiled;
    event.id = job.id();
    job.send(protocol::toJson(event));
    const size_t padding = size_t(dims.dynamicSmemBytes) + size_t(limit.paddingBytes);
    // B transposed first (and, for TMA, A padded) in every launch: the stage's time is all of it.
    if (stage.transposedB)
        prepared.transposeKernel = std::make_unique<LoadedKernel>(compileTranspose(state, device.cc(), job));
    prepared.launch = stageLaunch(ws, stage, params, kernel, prepared.transposeKernel.get(), dims, padding);
    prepared.cubin = compiledKernel.cubin;
    return prepared;
}

} // namespace gemmscope::runner
