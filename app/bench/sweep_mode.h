// gemmscope-bench --sweep: a parameter sweep (kernels/sweep_plan.h) run headlessly on a pool of
// runners (app/core/sweep_run.h), the same planner and pool as the GUI's Sweep view. Prints the
// grid and a summary (valid configurations per minute, GPU busy fraction) and records JSON.
#pragma once

#include "runner_command.h"
#include "sweep_plan.h"

#include <QList>
#include <QString>

namespace gemmscope::bench {

struct SweepBenchOptions {
    SweepSpec spec;
    QList<RunnerCommand> runners;
    int window = 0;      // 0: twice this machine's cores
    QString journalPath; // resume from it when it exists; empty: a temporary one
    QString jsonPath;
    bool byRatio = false;
};

// Exit status as the bench's: 0 every point answered, 1 the sweep could not start, 3 some points
// could not be run (the table and JSON still hold every answered one).
int runSweep(const SweepBenchOptions &options);

} // namespace gemmscope::bench
