#include "compiled_event.h"

#include "runner_error.h"

namespace gemmscope::runner {

protocol::OccupancyInfo occupancyInfo(const Occupancy &o, const BlockLimit &limit)
{
    protocol::OccupancyInfo info;
    info.blocksPerSm = o.blocksPerSm;
    info.activeWarps = o.activeWarps;
    info.maxWarps = o.maxWarps;
    info.fraction = o.fraction;
    info.limiter = o.limiter;
    info.explanation = QString::fromStdString(o.explanation);
    if (limit.requested > 0) {
        info.requestedBlocksPerSm = limit.requested;
        info.paddingSmemBytes = limit.paddingBytes;
    }
    return info;
}

Occupancy deviceOccupancy(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                          int registers, int smemBytes, const BlockLimit &limit, int dynamicSmemBytes)
{
    Occupancy model = computeOccupancy(device.spec, threadsPerBlock, registers, smemBytes + dynamicSmemBytes);
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
        // The runtime is the authority. The calculator's limiter was for its own count, so it is
        // not named for the runtime's: the sentence leads with the runtime's number and quotes the
        // calculator as such, never contradicting blocks_per_sm.
        model.explanation =
            std::to_string(blocks) + " block(s) of " + std::to_string(threadsPerBlock) +
            " threads per SM, as the CUDA runtime computes it; GemmScope's calculator, from " +
            (registers > 0 ? std::to_string(registers) : std::string("unknown")) +
            " registers per thread and " + std::to_string(smemBytes) +
            " bytes of shared memory per block, says " + model.explanation;
        model.limiter = OccupancyLimiter::None;
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
    model.maxWarps = device.spec.maxThreadsPerSm / 32;
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

void requireLaunchable(const CompiledKernel &kernel, int threadsPerBlock, std::optional<int> blocksPerSm,
                       const QString &where, const QString &why, int maxThreadsForKernel)
{
    const QString head = QStringLiteral("%1 compiles for sm_%2%3 but cannot launch: ")
                             .arg(kernel.nameExpression)
                             .arg(kernel.arch)
                             .arg(kernel.archSpecific ? QStringLiteral("a") : QString());
    const int registers = kernel.ptxas.found ? kernel.ptxas.registers : -1;
    if (registers > 0 && threadsPerBlock > 0) {
        const long long warps = (threadsPerBlock + 31) / 32;
        const long long perWarp = (registers * 32LL + 255) / 256 * 256;
        const long long perBlock = warps * perWarp;
        constexpr long long kRegistersPerBlock = 65536; // every architecture CUDA 13 builds for
        if (perBlock > kRegistersPerBlock)
            throw RunnerError(
                ErrorKind::OutOfResources,
                head + QStringLiteral("%1 registers per thread x %2 threads need %3 registers per block "
                                      "(%4 per warp of 32, allocated in units of 256), more than the %5 a "
                                      "block may use. Use fewer threads per block (a larger TM x TN) or a "
                                      "smaller thread tile (fewer registers).")
                           .arg(registers)
                           .arg(threadsPerBlock)
                           .arg(perBlock)
                           .arg(perWarp)
                           .arg(kRegistersPerBlock),
                kernel.log);
    }
    if (maxThreadsForKernel > 0 && threadsPerBlock > maxThreadsForKernel)
        throw RunnerError(ErrorKind::OutOfResources,
                          head + QStringLiteral("the CUDA runtime allows at most %1 threads per block for it "
                                                "(%2 registers per thread), fewer than its %3.")
                                     .arg(maxThreadsForKernel)
                                     .arg(registers)
                                     .arg(threadsPerBlock),
                          kernel.log);
    if (blocksPerSm && *blocksPerSm <= 0)
        throw RunnerError(ErrorKind::OutOfResources,
                          head +
                              QStringLiteral("not one block of %1 threads (%2 registers per thread, %3 bytes "
                                             "of static shared memory) fits on an SM of %4%5.")
                                  .arg(threadsPerBlock)
                                  .arg(registers)
                                  .arg(kernel.ptxas.staticSmemBytes)
                                  .arg(where, why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why)),
                          kernel.log);
}

protocol::CompiledInfo compiledInfo(const StageInfo &stage, const CompiledKernel &kernel,
                                    const std::optional<Occupancy> &occupancy, const BlockLimit &limit,
                                    int dynamicSmemBytes)
{
    protocol::CompiledInfo info;
    info.stage = QString::fromStdString(stage.key);
    info.kernel = kernel.nameExpression;
    info.loweredName = kernel.loweredName;
    info.arch = QString::fromStdString(nvrtcArchitecture(stage, kernel.arch)); // "sm_90a" for wgmma
    info.cacheHit = kernel.cacheHit;
    info.compileMs = kernel.compileMs;
    info.cubinBytes = double(kernel.cubin.size());
    info.registers = kernel.ptxas.found ? kernel.ptxas.registers : -1;
    // "ptxas" (its -v report), "cuda_runtime" (the loaded kernel's attributes) or empty, sent as
    // null: unknown (an empty NVRTC log in compile-only mode without a GPU).
    info.resourcesSource = kernel.resourcesSource;
    info.spillStoreBytes = kernel.ptxas.spillStoreBytes;
    info.spillLoadBytes = kernel.ptxas.spillLoadBytes;
    info.stackFrameBytes = kernel.ptxas.stackFrameBytes;
    info.staticSmemBytes = kernel.ptxas.staticSmemBytes;
    info.dynamicSmemBytes = dynamicSmemBytes;
    if (occupancy)
        info.occupancy = occupancyInfo(*occupancy, limit);
    info.ptxasLog = kernel.log;
    if (kernel.waitMs >= 0) {
        info.compiledAhead = kernel.compiledAhead;
        info.compileWaitMs = kernel.waitMs;
    }
    return info;
}

} // namespace gemmscope::runner
