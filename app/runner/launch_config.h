// Grid and block of a stage launch as CUDA types, with the checks the catalog cannot make
// (grid limits of the CUDA launch itself).
#pragma once

#include "stage_catalog.h"

#include <cuda_runtime_api.h>

namespace gemmscope::runner {

struct LaunchDims {
    dim3 grid;
    dim3 block;
    int threads = 0;
    int dynamicSmemBytes = 0; // the stage's own extern __shared__ bytes (catalog), without padding
};

// RunnerError(invalid_config) when the grid exceeds CUDA's limits (y and z: 65535).
// A kernel with dynamic shared memory needs LoadedKernel::allowDynamicSmem before it launches.
// A persistent stage's grid is its tiles in x alone; persistentGrid() then fits it to the GPU.
LaunchDims launchDims(const StageInfo &stage, const ParamValues &params, const ProblemSize &size);

// A persistent stage's grid (StageInfo::persistent): as many blocks as the GPU holds at once
// (SMs x resident blocks per SM, at least one), never more than there are tiles.
unsigned persistentGrid(unsigned tiles, int sms, int blocksPerSm);

} // namespace gemmscope::runner
