#include "compiled_event.h"

#include <QJsonValue>

namespace gemmscope::runner {

QJsonObject occupancyJson(const Occupancy &o, const BlockLimit &limit)
{
    QJsonObject json{
        {QStringLiteral("blocks_per_sm"), o.blocksPerSm},
        {QStringLiteral("active_warps"), o.activeWarps},
        {QStringLiteral("max_warps"), o.maxWarps},
        {QStringLiteral("fraction"), o.fraction},
        {QStringLiteral("limiter"),
         QString::fromLatin1(limiterName(o.limiter).data(), qsizetype(limiterName(o.limiter).size()))},
        {QStringLiteral("explanation"), QString::fromStdString(o.explanation)}};
    if (limit.requested > 0) {
        json.insert(QStringLiteral("requested_blocks_per_sm"), limit.requested);
        json.insert(QStringLiteral("padding_smem_bytes"), limit.paddingBytes);
    }
    return json;
}

Occupancy deviceOccupancy(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                          int registers, int smemBytes, const BlockLimit &limit, int dynamicSmemBytes)
{
    Occupancy model =
        computeOccupancy(specFromDevice(device), threadsPerBlock, registers, smemBytes + dynamicSmemBytes);
    int blocks = kernel.maxActiveBlocksPerSm(threadsPerBlock, size_t(dynamicSmemBytes));
    const int carveout = kernel.attributes().preferredShmemCarveout; // -1: the driver's choice
    if (blocks < model.blocksPerSm && carveout >= 0) {
        // The calculator assumes the largest shared-memory share; a smaller one the run asked for
        // (smem_carveout) is what holds the blocks back.
        model.explanation = std::to_string(blocks) + " block(s) of " + std::to_string(threadsPerBlock) +
                            " threads per SM, limited by the shared-memory carve-out the run asked for (" +
                            std::to_string(carveout) + " % of the largest)";
        model.limiter = OccupancyLimiter::SharedMemory;
        model.blocksPerSm = blocks;
    } else if (blocks != model.blocksPerSm) {
        // The runtime is the authority; keep the model's limiter but say that it disagreed.
        model.explanation += " (the CUDA runtime says " + std::to_string(blocks) + " blocks per SM)";
        model.blocksPerSm = blocks;
    }
    if (limit.binding()) {
        blocks = limit.blocksPerSm;
        model.explanation = std::to_string(blocks) + " block(s) of " + std::to_string(threadsPerBlock) +
                            " threads per SM, limited on request by " + std::to_string(limit.paddingBytes) +
                            " bytes of unused shared memory per block (without it: " + model.explanation +
                            ")";
        model.blocksPerSm = blocks;
        model.limiter = OccupancyLimiter::Requested;
    }
    const int warpsPerBlock = (threadsPerBlock + 31) / 32;
    model.maxWarps = device.maxThreadsPerSm / 32;
    model.activeWarps = blocks * warpsPerBlock;
    model.fraction = model.maxWarps > 0 ? double(model.activeWarps) / model.maxWarps : 0;
    return model;
}

std::optional<Occupancy> modelOccupancy(int arch, int threadsPerBlock, int registers, int smemBytes)
{
    const GpuSpec *gpu = findGpuForArch(arch);
    if (!gpu)
        return std::nullopt;
    return computeOccupancy(*gpu, threadsPerBlock, registers, smemBytes);
}

QJsonObject compiledFields(const StageInfo &stage, const CompiledKernel &kernel,
                           const std::optional<Occupancy> &occupancy, const BlockLimit &limit)
{
    return QJsonObject{{QStringLiteral("stage"), QString::fromStdString(stage.key)},
                       {QStringLiteral("kernel"), kernel.nameExpression},
                       {QStringLiteral("lowered_name"), kernel.loweredName},
                       {QStringLiteral("arch"), QStringLiteral("sm_%1").arg(kernel.arch)},
                       {QStringLiteral("cache_hit"), kernel.cacheHit},
                       {QStringLiteral("compile_ms"), kernel.compileMs},
                       {QStringLiteral("cubin_bytes"), double(kernel.cubin.size())},
                       {QStringLiteral("registers"), kernel.ptxas.registers},
                       {QStringLiteral("spill_store_bytes"), kernel.ptxas.spillStoreBytes},
                       {QStringLiteral("spill_load_bytes"), kernel.ptxas.spillLoadBytes},
                       {QStringLiteral("stack_frame_bytes"), kernel.ptxas.stackFrameBytes},
                       {QStringLiteral("static_smem_bytes"), kernel.ptxas.staticSmemBytes},
                       {QStringLiteral("occupancy"), occupancy ? QJsonValue(occupancyJson(*occupancy, limit))
                                                               : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("ptxas_log"), kernel.log}};
}

} // namespace gemmscope::runner
