// The `trace_owner` job: which thread stores each element of one block tile, as the real kernel
// does it. The trace build (-DGEMMSCOPE_TRACE_OWNER=1) makes the kernels' GEMMSCOPE_STORE_C macro
// write threadIdx.y * blockDim.x + threadIdx.x instead of the value; on a problem of exactly one
// block tile, C then is the owner map the GUI's mapping model must match.
#include "compiled_event.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "events.h"
#include "gpu_wait.h"
#include "job_context.h"
#include "launch_config.h"
#include "request_options.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_compile.h"
#include "stage_launch.h"
#include "stage_program.h"
#include "tensor_map.h"

#include <QJsonArray>
#include <cmath>
#include <vector>

namespace gemmscope::runner {

namespace {

// A length every tile size of the catalog divides (2^8 * 3^2 * 5 * 7): from the grid of an
// L x 1 and a 1 x L problem, the tile's rows and columns follow whatever axis the grid uses.
constexpr long long kProbe = 80640;

// Rows and columns of C one block computes.
std::pair<int, int> blockTileShape(const StageInfo &stage, const ParamValues &params)
{
    const LaunchGeometry tall = launchGeometry(stage.id, params, ProblemSize{kProbe, 1, 1});
    const LaunchGeometry wide = launchGeometry(stage.id, params, ProblemSize{1, kProbe, 1});
    const long long rows = kProbe / std::max(1LL, tall.gridX * tall.gridY);
    const long long cols = kProbe / std::max(1LL, wide.gridX * wide.gridY);
    return {int(rows), int(cols)};
}

} // namespace

void runTraceOwnerJob(RunnerState &state, const protocol::TraceOwnerJob &request, JobContext &job)
{
    const StageInfo &stage = requireStage(request.stage, request.kernel);
    if (stage.isLibrary)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("cuBLAS has no source GemmScope can trace; pick a ladder stage."));
    const ParamValues params = paramsOrDefaults(stage, request.params);
    requireValidConfig(stage, params, ProblemSize{}, 0);
    const auto [rows, cols] = blockTileShape(stage, params);
    const ProblemSize size{rows, cols, 2LL * paramValue(params, "BK", 8)};
    requireValidConfig(stage, params, size, 0);
    const DeviceInfo &device = state.requireDevice();

    const CompiledKernel compiled =
        compileStage(state, stage, params, device.cc(), StageBuild::TraceOwner, job);
    const LoadedKernel kernel(compiled);
    const LaunchDims dims = launchDims(stage, params, size);
    // One block computes the one tile. In a cluster (the persistent TF32 stage's pairs) its
    // partners are launched with it; their tiles lie past N, so they copy and multiply but store
    // nothing, and every owner in the map is the first block's thread.
    if (dims.grid.x * dims.grid.y != dims.clusterX)
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("The tile shape %1 x %2 derived for tracing needs %3 blocks, not one.")
                .arg(rows)
                .arg(cols)
                .arg(dims.grid.x * dims.grid.y));

    // Inputs do not matter for ownership; zeros keep the trace build's arithmetic finite.
    const size_t mk = size_t(size.m * size.k), kn = size_t(size.k * size.n), mn = size_t(size.m * size.n);
    DeviceBuffer<float> a(mk, "the trace A"), b(kn, "the trace B"), c(mn, "the owner map");
    GEMMSCOPE_CUDA(cudaMemset(a.get(), 0, a.bytes()));
    GEMMSCOPE_CUDA(cudaMemset(b.get(), 0, b.bytes()));
    GEMMSCOPE_CUDA(cudaMemset(c.get(), 0xFF, c.bytes())); // NaN: "nobody stored here"
    // A TMA stage takes tensor maps of A and BT (or B) too; the zero B stands in for BT (same size,
    // and k = 2 x BK and the tile's columns are multiples of 4, so no row needs padding).
    std::optional<OperandMaps> maps;
    if (stage.tensorMaps)
        maps = encodeOperandMaps(stage, params, a.get(), b.get(), size, tensorMapPitch(int(size.k)),
                                 tensorMapPitch(int(size.n)));
    StageKernelArgs args(a.get(), b.get(), c.get(), size, maps ? &*maps : nullptr);
    if (dims.dynamicSmemBytes > 0)
        kernel.allowDynamicSmem(dims.dynamicSmemBytes);
    kernel.launch(dims.grid, dims.block, args.args(), nullptr, size_t(dims.dynamicSmemBytes), dims.clusterX);
    // One block of the trace build: the shortest deadline is ample for it.
    const KernelDeadlineScope deadline(job, kernelDeadlineSeconds(0));
    waitForDefaultStream();
    std::vector<float> host(mn);
    GEMMSCOPE_CUDA(cudaMemcpy(host.data(), c.get(), c.bytes(), cudaMemcpyDeviceToHost));

    protocol::OwnerMapEvent event;
    event.id = job.id();
    event.stage = QString::fromStdString(stage.key);
    event.params = params;
    event.rows = rows;
    event.cols = cols;
    event.k = size.k;
    event.threads = dims.threads;
    for (float v : host)
        event.owners.append(std::isfinite(v) ? int(std::lround(v)) : -1);
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
