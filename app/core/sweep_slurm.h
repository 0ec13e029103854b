// Runners as Slurm job steps (docs/sweeps.md, "Slurm"). A sweep asks Slurm for ONE allocation
// (`salloc --no-shell`, N tasks, G GPUs each) and starts each runner as a step inside it
// (`srun --jobid=ID -n1 --exact [--gres=gpu:G] RUNNER`): the queue is waited on once for the whole
// pool, a runner that dies is restarted as a new step in a fraction of a second without queueing
// again, and Cancel is one `scancel ID`. Inside an allocation already (SLURM_JOB_ID set: a batch
// job, an salloc shell) the steps go into that one, as srun itself does, and it is not cancelled.
//
// While the allocation is pending, squeue's reason is reported every few seconds ("Priority",
// "Resources"); a refusal (a partition that does not exist, a controller that does not answer, a
// munge failure) ends with a sentence naming the cause and quoting Slurm's own words. The client
// tools are found on PATH and read SLURM_CONF from the environment, like any Slurm command.
#pragma once

#include "runner_command.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <optional>

namespace gemmscope {

struct SlurmOptions {
    QString partition;     // empty: the cluster's default partition
    int gpusPerRunner = 0; // 0: no GPU asked for (a cluster without a gpu gres)
    QString timeLimit;     // salloc --time (e.g. "30", "2:00:00"); empty: the partition's
    QString jobName = QStringLiteral("gemmscope-sweep");
    friend bool operator==(const SlurmOptions &, const SlurmOptions &) = default;
};

// `inner` started as one job step of `jobId`: srun's words before it, the runner's after `--`; its
// environment stays on srun, which hands it to the step (--export=ALL, srun's default).
RunnerCommand slurmStepCommand(const RunnerCommand &inner, const QString &jobId, const SlurmOptions &options);

// The salloc arguments for `runners` runners.
QStringList slurmAllocationArguments(int runners, const SlurmOptions &options);

// One sentence naming why a Slurm command failed, quoting its own error lines: `output` is what it
// wrote (stderr), `tool` its name.
QString slurmFailureSentence(const QString &tool, const QString &output);

// squeue's state and reason of a job ("PENDING", "Priority"); nullopt when squeue no longer lists
// it (finished, or never there). Synchronous, bounded by `timeoutMs`.
struct SlurmJobState {
    QString state, reason;
};
std::optional<SlurmJobState> slurmJobState(const QString &jobId, int timeoutMs = 10000,
                                           QString *error = nullptr);

// `scancel ID`; false with Slurm's sentence when it refused. Synchronous, bounded.
bool cancelSlurmJob(const QString &jobId, QString *error = nullptr);

class SlurmAllocation : public QObject {
    Q_OBJECT
public:
    static constexpr int kPollMs = 2000; // how often a pending allocation's reason is asked

    explicit SlurmAllocation(SlurmOptions options, QObject *parent = nullptr);
    ~SlurmAllocation() override; // release()

    // Asks for the allocation; granted() or failed() follow (never from inside this call).
    void request(int runners);
    // Cancels the allocation when this object made it (pending or granted), and waits (bounded) for
    // salloc to end. Idempotent.
    void release();
    QString jobId() const { return m_jobId; }
    bool isOwn() const { return m_own; }
    const SlurmOptions &options() const { return m_options; }

signals:
    void waiting(const QString &jobId, const QString &reason); // pending: squeue's reason
    void granted(const QString &jobId);
    void failed(const QString &sentence);

private:
    void readSallocOutput();
    void sallocFinished(int exitCode, QProcess::ExitStatus status);
    void poll();

    SlurmOptions m_options;
    QPointer<QProcess> m_salloc;
    QProcess *m_squeue = nullptr;
    QTimer m_poll{this};
    QString m_jobId, m_output;
    bool m_own = false, m_released = false, m_done = false;
};

} // namespace gemmscope
