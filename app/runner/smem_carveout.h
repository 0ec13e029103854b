// The L1 / shared-memory split on request: an SM's 256 KB of on-chip SRAM is shared between L1
// cache and shared memory, and the driver picks the split per launch unless the kernel states a
// preference. An experiment knob (does this kernel want more L1?) and one of the conditions the
// shared-store counter comparison varies (docs/gpu-verification.md).
#pragma once

#include "loaded_kernel.h"

namespace gemmscope::runner {

// States the preference on the kernel: `percent` of the largest shared-memory share, 0..100
// (the request's "smem_carveout"); -1 (none asked for) leaves the driver's choice.
void applySmemCarveout(const LoadedKernel &kernel, int percent);

} // namespace gemmscope::runner
