// The status bar's permanent parts: what the runner said about itself (one readable sentence; the
// tooltip has all of it), the job running now and its progress, fed by the RunController.
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;

namespace gemmscope {

class RunController;

// Shows `done` of `total` on `bar`, painted with the window's next paint, never inside the call.
void showProgress(QProgressBar *bar, int done, int total);

class RunStatusBar : public QObject {
    Q_OBJECT
public:
    RunStatusBar(RunController *runs, QStatusBar *bar);

    // "Runner ready on …" or "Running is off: …" as shown; the status bar has its first sentence.
    void showRunner(bool available, const QString &reason);
    QString runnerText() const { return m_runnerText; }
    // A sentence beside the runner's state for `ms` (what opening a session changed): unlike
    // QStatusBar::showMessage it leaves the runner's state on screen.
    void showNote(const QString &text, int ms);

private:
    QLabel *m_runnerLabel;
    QLabel *m_noteLabel;
    QTimer *m_noteTimer;
    QLabel *m_jobLabel;
    QProgressBar *m_progress;
    QString m_runnerText;
};

} // namespace gemmscope
