// Analytic global-memory traffic and arithmetic intensity of a stage at its parameters, using
// the worklog's own formulas so its numbers come out exactly (naive 0.25 FLOP/B, tiled T/4,
// block tile BM*BN / (2 (BM + BN)), i.e. 16.0 at 64x64).
#pragma once

#include "stage_catalog.h"

#include <string>

namespace gemmscope {

struct TrafficEstimate {
    double flops = 0;               // 2 M N K
    double loadBytes = 0;           // global bytes the kernel's loads request (A and B), per its tiling
    double storeBytes = 0;          // C written once: 4 M N
    double compulsoryBytes = 0;     // A and B read once, C written once: 4 (MK + KN + MN)
    double intensity = 0;           // FLOP per byte loaded, the worklog's formula (ignores C stores)
    double compulsoryIntensity = 0; // FLOP per compulsory byte: the best any tiling can do
    std::string formula;            // the formula used, e.g. "BM*BN / (2 (BM + BN)) = 64*64 / (2 (64 + 64))"
    int threadsPerBlock = 0;
    int smemBytesPerBlock = 0; // static plus dynamic
};

// From the stage's catalog entry (its traffic hook). A stage whose traffic is not modelled yet
// gets intensity 0 and a formula that says so; cuBLAS gets the compulsory intensity.

TrafficEstimate estimateTraffic(StageId id, const ParamValues &params, const ProblemSize &size);

} // namespace gemmscope
