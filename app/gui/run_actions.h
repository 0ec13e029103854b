// Run (Ctrl+R), Run Ladder (Ctrl+Shift+R), Profile (Ctrl+P) and Cancel (Esc): the parameter
// panel's configuration sent to the run controller (a profile to its ProfileController: the
// configuration and, where the session lacks it, cuBLAS of its precision at its size), and each
// action on, or off with the reason in its tooltip and status tip — the runner's sentence ("Running
// is off: …", as the status bar says it) or the panel's refusal. Also the status bar's runner
// sentence and job progress (RunStatusBar), and what became of each profile.
#pragma once

#include "run_request.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QMainWindow;

namespace gemmscope {

class ParameterPanel;
class RunController;
class RunSelection;
class RunStatusBar;

class RunActions : public QObject {
    Q_OBJECT
public:
    // The actions are named "actionRun", "actionRunLadder", "actionProfile", "actionCancel" and added
    // to `window`;
    // the panel's Run button and its validity drive them too.
    RunActions(RunController *runs, ParameterPanel *panel, RunSelection *selection, QMainWindow *window);

    bool runnerAvailable() const { return m_available; }
    QString runnerStatus() const { return m_status; } // "Runner ready on …" / "Running is off: …"

    void runCurrent(); // the panel's configuration, selected once it is queued
    QStringList runLadder(const ProblemSize &size);
    // Profiles the panel's configuration (and its cuBLAS baseline where the session has none); the
    // job ids, empty when profiling is off.
    QStringList profileCurrent();
    void cancel();
    // What the runner said about itself (RunController::runnerStatusChanged).
    void showRunnerStatus(bool available, const QString &reason);
    // A sentence in the status bar beside the runner's state, for `ms`.
    void showNote(const QString &text, int ms = 10000);
    // Enables each action or says why it is off; then stateChanged.
    void updateState();

signals:
    // The actions were updated: what else runs on this runner follows. `whyOff` is the runner's
    // own sentence while it is off (without "Running is off:"), empty while it is available.
    void stateChanged(const QString &whyOff);

private:
    RunController *m_runs;
    ParameterPanel *m_panel;
    RunSelection *m_selection;
    RunStatusBar *m_statusBar;
    void showProfileOutcome(const QString &what, const QString &sentence);

    QAction *m_run, *m_runLadder, *m_profile, *m_cancel;
    bool m_available = false;
    QString m_status; // as the status bar says it
    QString m_why;    // the runner's own sentence, without that prefix
};

} // namespace gemmscope
