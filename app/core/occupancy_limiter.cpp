#include "occupancy_limiter.h"

#include "gpu_specs.h"
#include "stage_catalog.h"

#include <QCoreApplication>

namespace gemmscope {

namespace {

struct LimiterWords {
    Q_DECLARE_TR_FUNCTIONS(OccupancyLimiter)
};

std::optional<int> archNumber(QString arch)
{
    if (arch.endsWith(QLatin1Char('a'))) // sm_90a: the architecture-specific build of sm_90
        arch.chop(1);
    return parseSmArch(arch.toStdString());
}

} // namespace

std::optional<OccupancyLimiter> occupancyLimiter(const OccupancyInputs &in)
{
    const bool runnersAuthority =
        in.recorded == OccupancyLimiter::Requested || in.recorded == OccupancyLimiter::None;
    if (runnersAuthority || in.registers < 0 || in.threadsPerBlock <= 0)
        return in.recorded;
    const std::optional<int> arch = archNumber(in.arch);
    const GpuSpec *gpu = arch ? findGpuForArch(*arch) : nullptr;
    if (!gpu)
        return in.recorded;
    const Occupancy model = computeOccupancy(*gpu, in.threadsPerBlock, in.registers, in.smemBytes);
    if (in.recordedBlocks > 0 && model.blocksPerSm != in.recordedBlocks)
        return in.recorded; // the runtime counted otherwise: its word, not the model's
    return model.limiter;
}

QString limiterWords(std::optional<OccupancyLimiter> limiter, LimiterWording wording)
{
    if (!limiter)
        return {};
    const bool brief = wording == LimiterWording::Short;
    switch (*limiter) {
    case OccupancyLimiter::Threads:
        return brief ? LimiterWords::tr("thr") : LimiterWords::tr("threads");
    case OccupancyLimiter::Registers:
        return brief ? LimiterWords::tr("reg") : LimiterWords::tr("registers");
    case OccupancyLimiter::SharedMemory:
        return brief ? LimiterWords::tr("smem") : LimiterWords::tr("shared memory");
    case OccupancyLimiter::Blocks:
        return brief ? LimiterWords::tr("blk") : LimiterWords::tr("blocks");
    case OccupancyLimiter::Requested:
        return brief ? LimiterWords::tr("req") : LimiterWords::tr("requested");
    case OccupancyLimiter::None:
        return LimiterWords::tr("none");
    case OccupancyLimiter::Unknown: // a newer runner's or a damaged file's name
        break;
    }
    return brief ? LimiterWords::tr("?") : LimiterWords::tr("a resource this GemmScope does not know");
}

int launchDynamicSmemBytes(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    if (!stage || stage->isLibrary)
        return 0;
    return launchGeometry(stage->id, paramValuesOf(run), {run.m, run.n, run.k}).dynamicSmemBytes;
}

std::optional<OccupancyLimiter> occupancyLimiter(const RunRecord &run)
{
    OccupancyInputs in;
    in.arch = run.gpuArch;
    in.registers = run.registers;
    in.recorded = run.occupancyLimiter;
    in.recordedBlocks = run.blocksPerSm;
    in.smemBytes = run.staticSmemBytes;
    if (const StageInfo *stage = findStage(run.stage.key()); stage && !stage->isLibrary) {
        const LaunchGeometry launch = launchGeometry(stage->id, paramValuesOf(run), {run.m, run.n, run.k});
        in.threadsPerBlock = launch.threadsPerBlock();
        in.smemBytes += launch.dynamicSmemBytes;
    }
    return occupancyLimiter(in);
}

std::optional<OccupancyLimiter> occupancyLimiter(const protocol::CompiledInfo &compiled)
{
    OccupancyInputs in;
    in.arch = compiled.arch;
    in.registers = compiled.registers;
    in.smemBytes = compiled.smemBytes();
    in.threadsPerBlock = compiled.threadsPerBlock.value_or(0);
    if (compiled.occupancy) {
        in.recorded = compiled.occupancy->limiter;
        in.recordedBlocks = compiled.occupancy->blocksPerSm;
    }
    return occupancyLimiter(in);
}

} // namespace gemmscope
