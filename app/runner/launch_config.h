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
};

// RunnerError(invalid_config) when the grid exceeds CUDA's limits (y and z: 65535).
LaunchDims launchDims(const StageInfo &stage, const ParamValues &params, const ProblemSize &size);

} // namespace gemmscope::runner
