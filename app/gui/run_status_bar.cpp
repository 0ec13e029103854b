#include "run_status_bar.h"

#include "plain_text.h"
#include "profile_controller.h"
#include "progress_phase_words.h"
#include "run_controller.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>

namespace gemmscope {

void showProgress(QProgressBar *bar, int done, int total)
{
    bar->setVisible(true);
    // QProgressBar::setValue paints at once (repaint(), not update()) whenever its text or chunk
    // changes, and Qt 6 then paints every dirty region of the window inside the call: with a
    // 10,000-run session, a runner's progress line painted the charts a finished run had just
    // changed, 3-4 ms of one event. With its updates off it only schedules a paint.
    bar->setUpdatesEnabled(false);
    bar->setRange(0, std::max(total, 1));
    bar->setValue(done);
    bar->setUpdatesEnabled(true); // update(): painted with the window's next paint
}

RunStatusBar::RunStatusBar(RunController *runs, QStatusBar *bar)
    : QObject(bar), m_runnerLabel(new QLabel), m_noteLabel(new QLabel), m_noteTimer(new QTimer(this)),
      m_jobLabel(new QLabel), m_progress(new QProgressBar)
{
    m_runnerLabel->setObjectName(QStringLiteral("runnerStatusLabel"));
    m_runnerLabel->setTextFormat(Qt::PlainText); // the runner's own words, never markup
    m_runnerLabel->setMinimumWidth(1);           // never widens the window; the tooltip has the whole text
    m_runnerLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_noteLabel->setObjectName(QStringLiteral("statusNoteLabel"));
    m_noteLabel->setTextFormat(Qt::PlainText); // may name a file's sizes: never markup
    m_noteLabel->setMinimumWidth(1);
    m_noteLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_noteTimer->setSingleShot(true);
    connect(m_noteTimer, &QTimer::timeout, m_noteLabel, &QLabel::clear);
    m_jobLabel->setTextFormat(Qt::PlainText);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    bar->addWidget(m_runnerLabel, 1);
    bar->addWidget(m_noteLabel, 1);
    bar->addPermanentWidget(m_jobLabel);
    bar->addPermanentWidget(m_progress);

    connect(runs, &RunController::progress, this,
            [this](const QString &id, protocol::ProgressPhase phase, int done, int total) {
                m_jobLabel->setText(tr("%1: %2").arg(id, phaseWords(phase)));
                showProgress(m_progress, done, total);
            });
    // RunController puts the preliminary median into the run's row too (marked preliminary).
    connect(runs, &RunController::preliminaryMedian, this, [this](const QString &id, double ms, int timed) {
        m_jobLabel->setText(tr("%1: %2 ms preliminary median of %3 repetitions, refining to the budget")
                                .arg(id)
                                .arg(ms, 0, 'f', 3)
                                .arg(timed));
    });
    connect(runs, &RunController::runStarted, this,
            [this](const QString &id) { m_jobLabel->setText(tr("Running %1").arg(id)); });
    // A profile's phases (compile, stalls, instructions, limiters) as it goes, named by what it profiles.
    connect(
        runs->profiles(), &ProfileController::profileStarted, this,
        [this](const QString &, const QString &what) { m_jobLabel->setText(tr("Profiling %1").arg(what)); });
    connect(runs->profiles(), &ProfileController::progress, this,
            [this](const QString &, const QString &what, protocol::ProgressPhase phase, int done, int total) {
                m_jobLabel->setText(tr("Profiling %1: %2").arg(what, phaseWords(phase)));
                showProgress(m_progress, done, total);
            });
    connect(runs, &RunController::idle, this, [this] {
        m_jobLabel->clear();
        m_progress->setVisible(false);
    });
}

void RunStatusBar::showRunner(bool available, const QString &reason)
{
    m_runnerText = available ? tr("Runner ready on %1").arg(reason) : tr("Running is off: %1").arg(reason);
    // The status bar holds one readable sentence (the runner's first); the tooltip has all of it.
    QString shortText = m_runnerText;
    const int cut = shortText.indexOf(QLatin1String(" ("));
    if (!available && cut > 0)
        shortText = shortText.left(cut) + QLatin1Char('.');
    // What is left without a runner, said so that it holds where Compile is off for another reason
    // (the Editor with no kernel open): "still works" read as a contradiction beside a grey button.
    if (!available)
        shortText += tr(" Compiling (Ctrl+B) needs no GPU.");
    m_runnerLabel->setText(shortText);
    m_runnerLabel->setToolTip(plainTextAsHtml(m_runnerText)); // the runner's words, never markup
}

void RunStatusBar::showNote(const QString &text, int ms)
{
    m_noteLabel->setText(text);
    m_noteLabel->setToolTip(plainTextAsHtml(text));
    m_noteTimer->start(ms);
}

} // namespace gemmscope
