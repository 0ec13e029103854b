#include "run_actions.h"

#include "parameter_panel.h"
#include "plain_text.h"
#include "run_controller.h"
#include "run_selection.h"
#include "run_status_bar.h"
#include "window_action.h"

#include <QMainWindow>
#include <QStatusBar>

namespace gemmscope {

RunActions::RunActions(RunController *runs, ParameterPanel *panel, RunSelection *selection,
                       QMainWindow *window)
    : QObject(window), m_runs(runs), m_panel(panel), m_selection(selection),
      m_statusBar(new RunStatusBar(runs, window->statusBar())),
      m_run(addWindowAction(window, "actionRun", tr("&Run"), QKeySequence(tr("Ctrl+R")))),
      m_runLadder(
          addWindowAction(window, "actionRunLadder", tr("Run &Ladder"), QKeySequence(tr("Ctrl+Shift+R")))),
      m_cancel(addWindowAction(window, "actionCancel", tr("&Cancel Runs"), QKeySequence(Qt::Key_Escape)))
{
    connect(m_run, &QAction::triggered, this, &RunActions::runCurrent);
    connect(m_runLadder, &QAction::triggered, this, [this] { runLadder(m_panel->config().size); });
    connect(m_cancel, &QAction::triggered, this, &RunActions::cancel);
    connect(m_panel, &ParameterPanel::validityChanged, this, &RunActions::updateState);
    connect(m_panel, &ParameterPanel::runRequested, this, &RunActions::runCurrent);
    connect(m_runs, &RunController::runnerStatusChanged, this, &RunActions::showRunnerStatus);
}

void RunActions::runCurrent()
{
    if (!m_runs->hasRunner() || !m_available || !m_panel->isValid())
        return;
    m_selection->select(m_runs->runCurrent(m_panel->config()));
}

QStringList RunActions::runLadder(const ProblemSize &size)
{
    return m_runs->runLadder(size, m_panel->config().timing);
}

void RunActions::cancel()
{
    m_runs->cancelAll();
}

void RunActions::showRunnerStatus(bool available, const QString &reason)
{
    m_available = available;
    m_why = reason;
    m_statusBar->showRunner(available, reason);
    m_status = m_statusBar->runnerText();
    updateState();
}

void RunActions::updateState()
{
    // Every action says what it does, or why it is off: in its tooltip and in the status bar
    // (statusTip) when the pointer is on it. m_status already says "Running is off: …".
    const auto state = [](QAction *a, bool enabled, const QString &does, const QString &whyNot) {
        a->setEnabled(enabled);
        a->setStatusTip(enabled ? does : whyNot);
        a->setToolTip(plainTextAsHtml(a->statusTip())); // the runner's words, never markup
    };
    const QString invalid =
        m_panel->isValid()
            ? QString()
            : tr("Run is off: %1").arg(m_panel->violationText().replace(QLatin1Char('\n'), QLatin1Char(' ')));
    state(m_run, m_available && m_panel->isValid(), tr("Run the configured stage (Ctrl+R)"),
          !m_available ? m_status : invalid);
    state(m_runLadder, m_available,
          tr("Run every preset of the ladder at the configured size (Ctrl+Shift+R)"), m_status);
    state(m_cancel, m_available, tr("Cancel the queued and running runs (Esc)"), m_status);
    m_panel->setRunEnabledByRunner(m_available, m_status);
    emit stateChanged(m_available ? QString() : m_why);
}

} // namespace gemmscope
