#include "run_actions.h"

#include "parameter_panel.h"
#include "plain_text.h"
#include "profile_controller.h"
#include "run_controller.h"
#include "run_record.h"
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
      m_profile(addWindowAction(window, "actionProfile", tr("&Profile"), QKeySequence(tr("Ctrl+P")))),
      m_cancel(addWindowAction(window, "actionCancel", tr("&Cancel Runs"), QKeySequence(Qt::Key_Escape)))
{
    connect(m_profile, &QAction::triggered, this, &RunActions::profileCurrent);
    // What became of a profile, in the status bar: its figures, or its kind and sentence.
    ProfileController *profiles = m_runs->profiles();
    connect(profiles, &ProfileController::profileFinished, this, [this](const protocol::ProfileEvent &p) {
        QString sentence =
            tr("Profiled %1 at %2 on %3").arg(p.stage, squareOrFullSizeText(p.size), p.gpu.name);
        if (p.totalSamples)
            sentence += tr(": %1 stall samples").arg(*p.totalSamples, 0, 'f', 0);
        if (p.durationMs)
            sentence += tr(" in %1 s").arg(*p.durationMs / 1000.0, 0, 'f', 1);
        QStringList parts; // a part that could not be collected says why; the others stand
        for (const QString &why : {p.stallsError, p.instructionsError, p.limitersError})
            if (!why.isEmpty())
                parts << why;
        showProfileOutcome(sentence + QLatin1Char('.'), parts.join(QLatin1Char(' ')));
    });
    connect(profiles, &ProfileController::profileFailed, this,
            [this](const QString &, const QString &what, const QString &kind, const QString &message) {
                showProfileOutcome(tr("The profile of %1 failed (%2):").arg(what, kind), message);
            });
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

QStringList RunActions::profileCurrent()
{
    if (!m_runs->hasRunner() || !m_available || !m_panel->isValid())
        return {};
    return m_runs->profiles()->profile(m_panel->config());
}

void RunActions::showProfileOutcome(const QString &what, const QString &sentence)
{
    if (auto *window = qobject_cast<QMainWindow *>(parent()))
        window->statusBar()->showMessage(sentence.isEmpty() ? what : what + QLatin1Char(' ') + sentence,
                                         15000);
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
    state(m_profile, m_available && m_panel->isValid(),
          tr("Profile the configured stage (Ctrl+P): stall samples per source line, memory metrics per "
             "instruction and the limiters, and cuBLAS at the same size for comparison where this session "
             "has no profile of it yet. The timed results stay as they are."),
          !m_available ? tr("Profiling is off: %1").arg(m_why)
                       : tr("Profile is off: %1")
                             .arg(m_panel->violationText().replace(QLatin1Char('\n'), QLatin1Char(' '))));
    state(m_cancel, m_available, tr("Cancel the queued and running runs and profiles (Esc)"), m_status);
    m_panel->setRunEnabledByRunner(m_available, m_status);
    emit stateChanged(m_available ? QString() : m_why);
}

void RunActions::showNote(const QString &text, int ms)
{
    m_statusBar->showNote(text, ms);
}

} // namespace gemmscope
