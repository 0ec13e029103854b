// The run panel that both Sweep views show (sweep_view_base.h): the runner template and count,
// Start, Cancel, Resume and Export…, the list of the session's sweeps, why Start is off, the
// progress bar (with its ETA) and the status line. It shows what the view's SweepControl
// (app/core/sweep_control.h) says and hands it the runner template; what Start, Resume, Export and
// choosing a sweep do is the view's (the signals below).
#pragma once

#include "sweep_control.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <optional>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;
class QWidget;

namespace gemmscope {

class ElidingLabel;

class SweepRunPanel : public QObject {
    Q_OBJECT
public:
    struct Words {
        QString namePrefix; // object names: <prefix>Start, <prefix>Status, <prefix>RunnerTemplate...
        QString unit;       // the progress bar's "%v / %m <unit>"
        QString resumeTip;  // the Resume button's tooltip
        QString runnersTip; // the runner template's tooltip
    };

    // owner: the view (the export dialog's parent). The widgets stay parentless until laid out.
    SweepRunPanel(SweepControl *control, const Words &words, QWidget *owner);
    ~SweepRunPanel() override;

    // "Runners": the template and the count, as a row of the view's form, Slurm and what the template
    // may be under them.
    void addRunnersRow(QFormLayout *form);
    // The same in the Sweep workspace's run bar: "Runners", the template, the count and Slurm in
    // `fields`, what the template may be in one line in `help`.
    void addRunnersLine(QBoxLayout *fields, QBoxLayout *help);
    // The runner fields set `other`'s runners too: the Sweep workspace has one runner command for
    // both kinds of sweep (its bar shows one panel's fields, sweep_run_bar.h).
    void alsoSetRunnersOf(SweepControl *other);
    // This panel's own runner fields go (never shown: another panel's set its control's runners).
    void dropRunnerFields();
    // The buttons in a row, why Start is off, the progress bar, the status line.
    void addTo(QVBoxLayout *layout);
    // The same in two rows of the Sweep workspace's run bar: the buttons in `buttons`; the progress,
    // why Start is off and the status in one line in `line`, each cut to its share (its tooltip
    // says the whole).
    void addCompactTo(QBoxLayout *buttons, QBoxLayout *line);
    // "Shown" and the session's sweeps, over the chart: in the form's narrow column a title such as
    // "Sizes of +wgmma, +tuned, 8, cuBLAS FP32, cuBLAS TF32: 256³ … 8192³" was cut after 30
    // characters. As wide as its longest title; the shown one whole in its tooltip. Hidden while the
    // session holds no sweep of the kind.
    void addShownTo(QVBoxLayout *layout);
    // What Export… writes to (an error goes to the status line).
    void setExport(const QString &title, const QString &filter,
                   std::function<std::optional<QString>(const QString &path)> exportTo);

    // Export… is on only while there is something to export; off, its tooltip says why.
    void setExportEnabled(bool enabled, const QString &whyNot);
    // The window's reason it cannot run (SweepControl::setRunningOff): the status bar says it
    // already, so the line under the buttons says what Start needs instead of repeating it.
    void setRunningOff(const QString &why);
    void setRunnerTemplate(const QString &text, int count);
    void setStatus(const QString &text);
    QString statusText() const;
    QComboBox *sweepList() const { return m_sweeps; }

signals:
    void startClicked();
    void resumeClicked();
    void sweepChosen(const QString &id);

private:
    void updateButtons();
    void setRunning(bool running);
    void applyRunners();
    void applySlurm(bool on);
    QLabel *runnerHelp(bool oneLine); // what the runner template may be, in a few words

    QPointer<SweepControl> m_control;
    Words m_words;
    QWidget *m_owner;
    QLineEdit *m_runners = nullptr;
    QSpinBox *m_runnerCount = nullptr;
    QCheckBox *m_slurm = nullptr; // Runners: Slurm (job steps of one allocation)
    QPushButton *m_startButton = nullptr, *m_cancelButton = nullptr, *m_resumeButton = nullptr,
                *m_exportButton = nullptr;
    QWidget *m_shownRow = nullptr;
    QComboBox *m_sweeps = nullptr;
    QProgressBar *m_progress = nullptr;
    ElidingLabel *m_status = nullptr;
    ElidingLabel *m_blockedLabel = nullptr; // why Start is off
    QString m_runningOff;
    QList<QPointer<SweepControl>> m_alsoRuns; // controls whose runners these fields set too
};

} // namespace gemmscope
