// gemmscope-bench --sweep and --size-sweep as a command: the sweep's points (grid_sweep_mode.h,
// size_sweep_mode.h) and what both share, read once from the command line: the budget, the runners
// from their templates, the window, the journal, the JSON and the Slurm options.
#pragma once

#include "bench_options.h"
#include "sweep_mode.h"

namespace gemmscope::bench {

struct SweepCommand {
    SweepBenchOptions options;
    bool detach = false; // --slurm --detach: submit a batch job and return

    // Exit status as runSweep's, or submitDetachedSweep's with --detach.
    int run() const;
};

// The rest of a sweep whose points are set in command.options.spec: its budget (`budgetText`, the
// mode's default applied), --runners, --window, the plan (refused with its sentence), the runners
// from --runner-template x --hosts x --runners, --json (never a device, pipe or socket, nor the
// journal), --journal and the Slurm options.
std::optional<OptionError> readSweepPool(const BenchCommandLine &commandLine, const QString &budgetText,
                                         SweepCommand &command);

} // namespace gemmscope::bench
