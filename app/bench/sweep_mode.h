// gemmscope-bench --sweep: a parameter sweep (kernels/sweep_plan.h) run headlessly on a pool of
// runners (app/core/sweep_run.h), the same planner and pool as the GUI's Sweep view. Prints the
// grid and a summary (valid configurations per minute, GPU busy fraction) and records JSON.
#pragma once

#include "runner_command.h"
#include "sweep_plan.h"
#include "sweep_slurm.h"

#include <QList>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace gemmscope::bench {

struct SweepBenchOptions {
    SweepSpec spec;
    QList<RunnerCommand> runners;
    int window = 0;      // 0: twice this machine's cores
    QString journalPath; // resume from it when it exists; empty: a temporary one
    QString jsonPath;
    bool byRatio = false;
    std::optional<SlurmOptions> slurm; // --slurm: the runners are job steps (sweep_slurm.h)
};

// Exit status as the bench's: 0 every point answered, 1 the sweep could not start, 3 some points
// could not be run (the table and JSON still hold every answered one).
int runSweep(const SweepBenchOptions &options);

// --slurm --detach: submits this very command (without --detach) as a Slurm batch job that runs
// the sweep with its runners as steps of the job, prints the job id and the journal, and returns at
// once. `benchArguments` are the bench's own arguments (without the program). The journal is
// --journal, or slurm-<job id>.gsweep in GemmScope's journal folder, where the GUI finds and merges
// it (detachedJournalDirectory()).
int submitDetachedSweep(const SweepBenchOptions &options, int runners, const QStringList &benchArguments);

// --sweep-status JOBID: the job's state in the queue and its journal's progress. `journalPath`
// empty: the detached journal of that job in the journal folder (its archive included).
int printSweepStatus(const QString &jobId, const QString &journalPath);

// Until the returned object is destroyed, SIGINT and SIGTERM call `cancel` from the event loop, so
// that Ctrl-C on a Slurm sweep cancels its job (an allocation outlives the process that made it).
std::unique_ptr<QObject> cancelOnSignals(std::function<void()> cancel);

// The GUI's journal folder (GemmScope's application data folder's "sweeps"), where detached sweeps
// write slurm-<job id>.gsweep.
QString detachedJournalDirectory();

} // namespace gemmscope::bench
