#include "occupancy_limiter.h"

#include "gpu_specs.h"
#include "stage_catalog.h"

namespace gemmscope {

namespace {

QString spoken(QString word)
{
    return word.replace(QLatin1Char('_'), QLatin1Char(' '));
}

std::optional<int> archNumber(QString arch)
{
    if (arch.endsWith(QLatin1Char('a'))) // sm_90a: the architecture-specific build of sm_90
        arch.chop(1);
    return parseSmArch(arch.toStdString());
}

} // namespace

QString occupancyLimiter(const OccupancyInputs &in)
{
    const bool runnersAuthority =
        in.recorded == QLatin1String("requested") || in.recorded == QLatin1String("none");
    if (runnersAuthority || in.registers < 0 || in.threadsPerBlock <= 0)
        return spoken(in.recorded);
    const std::optional<int> arch = archNumber(in.arch);
    const GpuSpec *gpu = arch ? findGpuForArch(*arch) : nullptr;
    if (!gpu)
        return spoken(in.recorded);
    const Occupancy model = computeOccupancy(*gpu, in.threadsPerBlock, in.registers, in.smemBytes);
    if (in.recordedBlocks > 0 && model.blocksPerSm != in.recordedBlocks)
        return spoken(in.recorded); // the runtime counted otherwise: its word, not the model's
    const std::string_view name = limiterName(model.limiter);
    return spoken(QString::fromLatin1(name.data(), qsizetype(name.size())));
}

int launchDynamicSmemBytes(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    if (!stage || stage->isLibrary)
        return 0;
    return launchGeometry(stage->id, paramValuesOf(run), {run.m, run.n, run.k}).dynamicSmemBytes;
}

QString occupancyLimiter(const RunRecord &run)
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

QString occupancyLimiter(const protocol::CompiledInfo &compiled)
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
