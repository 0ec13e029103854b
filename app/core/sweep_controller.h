// The sweeps of one kind (a parameter grid, or problem sizes) for the window: plans a sweep
// (kernels/sweep_plan.h), runs it on a pool of runners started from the runner template
// (SweepRun, sweep_run.h), journals it in the journal folder (sweep_journals.h: names from the
// plan's hash, one writer per journal by its lock file, finished journals archived) and keeps the
// session up to date as runs answer: the sweep enters the session when it starts, takes each run
// as it answers (autosaved within a second) and is saved at once when it ends. At start-up (and
// whenever the folder is set again) the journals a crash left unfinished are offered for Resume.
//
// The Sweep views (widgets/) see it only as a SweepControl (sweep_control.h); QtCore only, so a
// test drives it with the stand-in runner and no widget (tests/tst_sweep_controller.cpp).
#pragma once

#include "sweep_control.h"

#include <memory>

namespace gemmscope {

class SweepRun;

class SweepController : public SweepControl {
    Q_OBJECT
public:
    // Journals in the application data folder's "sweeps" until setJournalDirectory() (read at once).
    SweepController(Session *session, SweepKind kind, QObject *parent = nullptr);
    ~SweepController() override; // stops the runners; every answered run is already journaled

    SweepKind kind() const override { return m_kind; }
    Session *session() const override { return m_session; }
    void setJournalDirectory(const QString &dir) override;
    QString journalDirectory() const override { return m_journalDir; }
    void setRunners(const QString &runnerTemplate, int count) override;
    QString runnerTemplate() const override { return m_template; }
    int runnerCount() const override { return m_runnerCount; }
    void setSlurm(bool on) override;
    bool slurm() const override { return m_slurm; }
    void setRunningOff(const QString &why) override;
    QString startOffReason() const override { return m_startOff; }

    bool start(const SweepSpec &spec, QString *error = nullptr) override;
    bool resume(const SweepData *shown, QString *error = nullptr) override;
    void cancel() override;
    bool isRunning() const override;
    const SweepData *runningSweep() const override;
    QString status() const override { return m_status; }

    // The sweep with the runs its journal holds beyond the session's (the application was killed
    // before its autosave), for Resume.
    static SweepData withJournaledRuns(const SweepData &sweep, const QString &journalPath);
    // Why a sweep cannot start from this template: it names {runner} and there is no
    // gemmscope-runner here. Empty: it may start.
    static QString runnerMissingReason(const QString &runnerTemplate);
    // Why Start is off for this template: no runner for {runner}, or the window's reason for
    // running nothing here (`runningOff`). A template that reaches another machine (ssh, srun) is
    // not held back by the window's reason.
    static QString startOffReason(const QString &runnerTemplate, const QString &runningOff);

private:
    struct Words; // the sentences that name the kind ("parameter sets", "sizes")
    const Words &words() const;
    bool launch(const SweepData &sweep, QString *error);
    void onFinished(bool cancelled);
    void updateStartOff();
    void setStatus(const QString &sentence);

    Session *m_session;
    SweepKind m_kind;
    QString m_journalDir;
    QString m_template = QStringLiteral("{runner}");
    int m_runnerCount = 1;
    bool m_slurm = false;
    QString m_runningOff, m_startOff, m_status;
    std::unique_ptr<SweepRun> m_run;
    bool m_launching = false;            // inside SweepRun::start()
    std::optional<bool> m_endedInLaunch; // it finished there (nothing to send): cancelled or not
};

} // namespace gemmscope
