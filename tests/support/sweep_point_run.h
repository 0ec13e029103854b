// The configuration of a sweep point written into a run (stage, parameters, size): how the tests'
// recorded sweeps and journals make their runs. Timing and status are the caller's.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"

namespace gemmscope::test {

inline void setPointConfiguration(RunRecord &run, const SweepPoint &point)
{
    run.stage = point.stage;
    for (const auto &[name, value] : point.params)
        run.params.insert(QString::fromStdString(name), value);
    run.m = point.size.m;
    run.n = point.size.n;
    run.k = point.size.k;
}

} // namespace gemmscope::test
