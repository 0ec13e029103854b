// What a Sweep view may ask of the sweeps of its kind, and what it hears back: the one interface
// between widgets/ and the sweep machinery. SweepController (sweep_controller.h) implements it with
// the plan, the runner pool, the journal and the session; a view includes only this header, so it
// never starts a runner, opens a journal or writes the session itself. Every sentence it shows
// (errors, the status line) comes from here, as plain text.
#pragma once

#include "sweep_record.h"

#include <QObject>
#include <QString>

namespace gemmscope {

class Session;

class SweepControl : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual SweepKind kind() const = 0;
    virtual Session *session() const = 0; // where the sweeps are (may be null: nothing runs)

    // Where running sweeps are journaled. Setting it (again) reads the folder once, off the UI
    // thread, and offers its unfinished sweeps for Resume (into the session; status() says so).
    virtual void setJournalDirectory(const QString &dir) = 0;
    virtual QString journalDirectory() const = 0;
    // How runners start: a command template ("{runner}", "ssh HOST gemmscope-runner") and how many
    // ({gpu} = 0 .. count-1).
    virtual void setRunners(const QString &runnerTemplate, int count) = 0;
    virtual QString runnerTemplate() const = 0;
    virtual int runnerCount() const = 0;
    // On: the runners are job steps of one Slurm allocation (one GPU each; the template is what
    // each step runs), and the status line says while the job waits in the queue. Off by default.
    virtual void setSlurm(bool on) { Q_UNUSED(on); }
    virtual bool slurm() const { return false; }
    // The window's reason for running nothing on this machine (no GPU); empty: none.
    virtual void setRunningOff(const QString &why) = 0;
    // Why Start and Resume are off now (no runner for {runner}, the window's reason); empty: on.
    virtual QString startOffReason() const = 0;

    // A new sweep of `spec`; false with a sentence when it cannot start.
    virtual bool start(const SweepSpec &spec, QString *error = nullptr) = 0;
    // The unfinished points of `shown` (with the runs its journal holds beyond it); null: none is
    // shown. False with a sentence when there is nothing to resume or it cannot start.
    virtual bool resume(const SweepData *shown, QString *error = nullptr) = 0;
    virtual void cancel() = 0;
    virtual bool isRunning() const = 0;
    // The running sweep with its runs so far; null when none runs.
    virtual const SweepData *runningSweep() const = 0;
    // The last sentence for the status line (running, stopped, a runner down, journals found).
    virtual QString status() const = 0;

signals:
    void startOffChanged(const QString &why);
    void runningChanged(bool running); // after a start: runningSweep() is the sweep
    void runningSweepChanged();        // the running sweep took another run (the session has it)
    void progressChanged(int answered, int total, double etaSeconds); // eta < 0: unknown yet
    void statusChanged(const QString &sentence);
    // The sweep that ran, finished or stopped, as the session now holds it; runningChanged(false)
    // follows.
    void sweepEnded(const gemmscope::SweepData &sweep);
};

} // namespace gemmscope
