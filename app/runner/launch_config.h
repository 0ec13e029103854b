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
    unsigned clusterX = 1;    // blocks per thread-block cluster, side by side in x (1: no clusters)
};

// RunnerError(invalid_config) when the grid exceeds CUDA's limits (y and z: 65535).
// A kernel with dynamic shared memory needs LoadedKernel::allowDynamicSmem before it launches.
// A persistent stage's grid is its tiles in x alone, rounded up to whole clusters; persistentGrid()
// then fits it to the GPU.
LaunchDims launchDims(const StageInfo &stage, const ParamValues &params, const ProblemSize &size);

// A persistent stage's grid (StageInfo::persistent): as many blocks as the GPU holds at once
// (SMs x resident blocks per SM, at least one), never more than there are tiles.
unsigned persistentGrid(unsigned tiles, int sms, int blocksPerSm);

// The same for clusters of `clusterX` blocks: as many whole clusters as the GPU holds at once
// (`maxClusters`, from the occupancy API: GPCs, not SMs, bound them), never more than the tiles need.
unsigned persistentClusterGrid(unsigned tiles, unsigned clusterX, int maxClusters);

} // namespace gemmscope::runner
