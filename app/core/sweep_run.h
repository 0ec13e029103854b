// Runs a sweep on a pool of runners (docs/sweeps.md). Each runner is started from its command
// template (runner_command.h) on its own RunnerClient thread, with a window of jobs in flight so
// that its queue is never empty. The sweep's points wait in one shared queue and each runner
// takes the next one whenever it has room in its window (work stealing): a fast GPU simply takes
// more. Every runner first times cuBLAS FP32 at the sweep's size, so that each GPU's ratios have
// a baseline measured on that GPU in the same sweep.
//
// Every answered run is written to the sweep's journal (fsync'ed) before anything else happens
// with it, so cancel, a runner fault, closing the application or kill -9 lose no finished point;
// start() on a sweep that already has runs sends only the points without a finished run. The
// journal is locked (sweep_journals.h) from start() to the end: one writer per journal. A journal
// that cannot take another run (full disk, its size limit) stops the sweep with a sentence.
// QtCore only: the GUI's SweepController (sweep_controller.h) and gemmscope-bench --sweep both
// drive this.
#pragma once

#include "runner_client.h"
#include "sweep_record.h"
#include "sweep_slurm.h"

#include <QElapsedTimer>
#include <QHash>
#include <QLockFile>
#include <QObject>
#include <QVector>
#include <memory>

namespace gemmscope {

inline const QString kSweepTag = QStringLiteral("sweep");

class SweepRun : public QObject {
    Q_OBJECT
public:
    struct Options {
        QList<RunnerCommand> runners; // one runner each; empty: one local runner
        int window = 0;               // jobs in flight per runner; 0: twice this machine's cores
        QString journalPath;          // empty: runs are not journaled (tests, throwaway sweeps)
        std::optional<RunnerClient::Watchdog> watchdog;
        int attemptsPerPoint = 2; // a point whose runner crashed under it is sent again once
        // Non-empty (the GUI's journal folder): a journal there holding another sweep of the same
        // plan is set aside into this folder first, and the journal of a sweep that finished
        // every point is moved here after finished() (its sweep is then in the session).
        QString archiveDirectory;
        // Set: each runner is a job step of one Slurm allocation (sweep_slurm.h) asked for at
        // start(); the runners' commands are what each step runs.
        std::optional<SlurmOptions> slurm;
    };

    SweepRun(SweepData sweep, Options options, QObject *parent = nullptr);
    ~SweepRun() override; // stops the runners; every answered run is already in the journal

    // Plans the sweep, opens its journal and starts the runners; false with a sentence when the
    // plan or the journal cannot be made. Points already finished in the sweep's runs are skipped.
    bool start(QString *error = nullptr);
    void cancel();

    const SweepData &sweep() const { return m_sweep; }
    const SweepPlan &plan() const { return m_plan; }
    bool isRunning() const { return m_running; }
    int pointsToRun() const { return m_total; } // at start()
    int pointsAnswered() const { return m_answered; }
    // Seconds left at the pace so far; negative while unknown.
    double etaSeconds() const;
    int runnerCount() const { return int(m_runners.size()); }
    double wallSeconds() const { return m_wall.isValid() ? m_wall.elapsed() / 1000.0 : 0; }
    // The Slurm job the runners are steps of; empty before it is known or without Slurm.
    QString slurmJobId() const { return m_allocation ? m_allocation->jobId() : QString(); }

signals:
    // After the run is in the sweep (and its journal). `point` is the plan's index, -1 for a baseline.
    void runAnswered(const gemmscope::RunRecord &run, int point);
    void progressChanged(int answered, int total, double etaSeconds);
    void runnerStatusChanged(int runner, bool available, const QString &reason);
    void journalError(const QString &message);
    // Where the scheduler has the sweep: "waiting for Slurm: Priority (job 12)", then "Slurm job
    // 12: 4 runners as job steps". Only with Options::slurm.
    void schedulerStatusChanged(const QString &status);
    // Slurm refused or lost the allocation before a runner started: a sentence naming the cause
    // in Slurm's own words; finished(true) follows, with every answered run in the journal.
    void schedulerFailed(const QString &sentence);
    void finished(bool cancelled);

private:
    struct Runner {
        std::unique_ptr<RunnerHost> host;
        int inFlight = 0;
        bool dead = false; // unavailable: it takes no more points
    };
    struct Sent {
        int runner = -1;
        int point = -1; // -1: the runner's cuBLAS baseline
    };
    bool openJournal(QString &why);
    void startRunners(const QList<RunnerCommand> &commands, int window);
    void requestAllocation(const QList<RunnerCommand> &commands, int window);
    void stopRunnersNow();
    RunRequest requestFor(int point) const;
    RunRequest baselineRequest() const;
    void fill(int runner);
    void onAnswered(int runner, const RunRecord &run);
    void finishIfDone();

    SweepData m_sweep;
    Options m_options;
    SweepPlan m_plan;
    SweepJournal m_journal;
    std::unique_ptr<QLockFile> m_journalLock;
    std::vector<Runner> m_runners;
    std::unique_ptr<SlurmAllocation> m_allocation;
    QList<int> m_todo;
    QHash<int, int> m_attempts;
    QHash<QString, Sent> m_sent; // job id -> what it was
    QElapsedTimer m_wall;
    int m_total = 0, m_answered = 0;
    bool m_running = false, m_cancelled = false;
};

} // namespace gemmscope
