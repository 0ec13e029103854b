// Fewer blocks per SM on request: each block gets dynamic shared memory it never touches, so
// that only `max_blocks_per_sm` of them fit on an SM. An experiment knob (how does a kernel do
// with fewer warps beside it?) and one of the launch conditions the shared-store counter
// comparison varies (docs/gpu-verification.md).
#pragma once

#include "gpu_device.h"
#include "loaded_kernel.h"

namespace gemmscope::runner {

struct BlockLimit {
    int requested = 0;     // 0: no request
    int naturalBlocks = 0; // blocks per SM without padding
    int blocksPerSm = 0;   // with the padding
    int paddingBytes = 0;  // dynamic shared memory per launch
    bool binding() const { return paddingBytes > 0; }
};

// The least padding that brings the kernel to at most `requested` blocks per SM (none when it
// already fits). invalid_config when even the largest allowed padding leaves more blocks.
// `dynamicSmemBytes`: the stage's own dynamic shared memory; the padding comes on top of it.
BlockLimit limitBlocksPerSm(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                            int requested, int dynamicSmemBytes = 0);

} // namespace gemmscope::runner
