// The status bar's permanent parts: what the runner said about itself (one readable sentence; the
// tooltip has all of it), the job running now and its progress, fed by the RunController.
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace gemmscope {

class RunController;

class RunStatusBar : public QObject {
    Q_OBJECT
public:
    RunStatusBar(RunController *runs, QStatusBar *bar);

    // "Runner ready on …" or "Running is off: …" as shown; the status bar has its first sentence.
    void showRunner(bool available, const QString &reason);
    QString runnerText() const { return m_runnerText; }

private:
    QLabel *m_runnerLabel;
    QLabel *m_jobLabel;
    QProgressBar *m_progress;
    QString m_runnerText;
};

} // namespace gemmscope
