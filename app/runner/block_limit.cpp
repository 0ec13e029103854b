#include "block_limit.h"

#include "runner_error.h"

namespace gemmscope::runner {

BlockLimit limitBlocksPerSm(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                            int requested, int dynamicSmemBytes)
{
    const size_t base = size_t(dynamicSmemBytes);
    BlockLimit limit;
    limit.requested = requested;
    limit.naturalBlocks = kernel.maxActiveBlocksPerSm(threadsPerBlock, base);
    limit.blocksPerSm = limit.naturalBlocks;
    if (requested == 0 || limit.naturalBlocks <= requested)
        return limit;

    // The runtime's own count of the kernel's static shared memory (not ptxas's log): the opt-in
    // limit applies to static plus dynamic.
    const int staticBytes = int(kernel.attributes().sharedSizeBytes) + dynamicSmemBytes;
    const int maxPadding = device.spec.sharedMemPerBlockOptin - staticBytes;
    if (maxPadding > 0) {
        try {
            kernel.allowDynamicSmem(dynamicSmemBytes + maxPadding);
        } catch (const RunnerError &error) {
            throw RunnerError(
                ErrorKind::InvalidConfig,
                QStringLiteral(
                    "Cannot limit this kernel to %1 block(s) per SM: the GPU refused %2 "
                    "bytes of dynamic shared memory next to its %3 static and own dynamic bytes (opt-in "
                    "limit %4).")
                    .arg(requested)
                    .arg(maxPadding)
                    .arg(staticBytes)
                    .arg(device.spec.sharedMemPerBlockOptin),
                error.log());
        }
    }
    if (maxPadding <= 0 ||
        kernel.maxActiveBlocksPerSm(threadsPerBlock, base + size_t(maxPadding)) > requested)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("Cannot limit this kernel to %1 block(s) per SM: even the most "
                                         "shared memory a block may have leaves more resident.")
                              .arg(requested));
    // Blocks per SM fall as padding grows: search for the least padding that is enough.
    int low = 0, high = maxPadding; // low: too little; high: enough
    while (high - low > 1) {
        const int mid = low + (high - low) / 2;
        if (kernel.maxActiveBlocksPerSm(threadsPerBlock, base + size_t(mid)) <= requested)
            high = mid;
        else
            low = mid;
    }
    limit.paddingBytes = high;
    limit.blocksPerSm = kernel.maxActiveBlocksPerSm(threadsPerBlock, base + size_t(high));
    return limit;
}

} // namespace gemmscope::runner
