// The run controls that the parameter sweep view and the size sweep view share: the Start, Cancel
// and Resume buttons, the list of the session's sweeps, Export…, the progress bar (with its ETA) and
// the status line, and the SweepRun (app/core/sweep_run.h) they drive. The view supplies what differs:
// the object-name prefix, the unit word and sentences (Words), how to start and resume, and how to
// show a sweep; the controls keep the session up to date as runs answer.
#pragma once

#include "sweep_record.h"
#include "sweep_run.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QVBoxLayout;
class QWidget;

namespace gemmscope {

class Session;

class SweepRunControls : public QObject {
    Q_OBJECT
public:
    struct Words {
        QString namePrefix; // object names: <prefix>Start, <prefix>Status, ...
        QString unit;       // the progress bar's "%v / %m <unit>"
        QString running;    // "Running %1 ... on %2 runner(s)…": %1 points, %2 runners
        QString stopped;    // "Stopped after %1 s: %2 ... (Resume continues).": %1 seconds, %2 left
        QString resumeTip;  // the Resume button's tooltip
    };
    using Action = std::function<bool(QString *error)>;
    using Show = std::function<void(const SweepData &sweep)>;

    // owner: the view (the export dialog's parent); show is how the view shows a sweep (and its form).
    SweepRunControls(Session *session, const Words &words, QWidget *owner, Show show);
    ~SweepRunControls() override;

    // What Start and Resume do (an error goes to the status line); what Export… writes to.
    void setActions(Action start, Action resume);
    void setExport(const QString &title, const QString &filter,
                   std::function<std::optional<QString>(const QString &path)> exportTo);
    // The buttons and the sweep list in a row, then the progress bar and the status line.
    void addTo(QVBoxLayout *layout);
    // Why Start and Resume are off (no runner to start, say), shown beside them and as their
    // tooltip; empty: they are on (while nothing runs).
    void setStartBlocked(const QString &why);
    QString startBlockedReason() const { return m_blocked; }
    QPushButton *startButton() const { return m_startButton; }

    // Starts a run of the sweep; false (and why in error) when it could not start.
    bool launch(const SweepData &sweep, const SweepRun::Options &options, QString *error);
    void cancel();
    bool isRunning() const;

    // The sweep with the runs its journal holds beyond the session's (the application was killed
    // before its autosave), for Resume.
    static SweepData withJournaledRuns(const SweepData &sweep, const QString &journalPath);
    // Why a sweep cannot start from this runner template: it names {runner} and there is no
    // gemmscope-runner here (a machine without the CUDA build). Empty: it may start.
    static QString runnerMissingReason(const QString &runnerTemplate);
    // Why Start is off for this template: no runner for {runner}, or the window's reason for
    // running nothing on this machine (`runningOff`, empty when it can). A template that reaches
    // another machine (ssh, srun) is not held back by the window's reason.
    static QString startOffReason(const QString &runnerTemplate, const QString &runningOff);

    QLabel *status() const { return m_status; }
    QComboBox *sweepList() const { return m_sweeps; }

signals:
    void runningChanged(bool running);

private:
    void onFinished(bool cancelled);
    void setRunning(bool running);
    void updateButtons();

    Session *m_session;
    Words m_words;
    QWidget *m_owner;
    Show m_show;
    std::unique_ptr<SweepRun> m_run;
    QPushButton *m_startButton = nullptr, *m_cancelButton = nullptr, *m_resumeButton = nullptr,
                *m_exportButton = nullptr;
    QComboBox *m_sweeps = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_blockedLabel = nullptr; // why Start is off
    static constexpr int kShowIntervalMs = 250;
    QTimer *m_showTimer = nullptr; // pending redraw of the running sweep
    QString m_blocked;
    bool m_running = false;
};

} // namespace gemmscope
