// Test helper: the small 4 x 4 parameter sweep (BM x TM of the final stage at 512^3) that the
// SweepRun and Sweep view tests run on stand-in runners (stand_in_runner.h): one shared spec, so
// both test the same sweep.
#pragma once

#include "sweep_plan.h"

inline gemmscope::SweepSpec smallSweepSpec()
{
    gemmscope::SweepSpec spec;
    spec.stage = gemmscope::StageId::Final;
    spec.x = {"BM", {32, 64, 128, 256}};
    spec.y = {"TM", {2, 4, 8, 12}};
    spec.fixed = {{"BN", 64}, {"BK", 8}, {"TN", 4}};
    spec.size = {512, 512, 512};
    spec.budgetMs = 5;
    return spec;
}
