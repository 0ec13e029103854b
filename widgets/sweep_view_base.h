// What the parameter-sweep view (sweep_view.h) and the size-sweep view (size_sweep_view.h) share:
// the page (the form and the run panel in a column beside the chart, sweep_page_layout.h), the run
// panel (sweep_run_panel.h), which of the session's sweeps of their kind is shown (and its plan),
// and the commands, handed to the view's SweepControl (app/core/sweep_control.h), which plans, runs,
// journals and writes the session. The view adds its form and its chart: what the form describes
// (formSpec), the form for a shown sweep (setForm), and the drawing (redraw).
//
// While a sweep runs, its chart is drawn again at most every kShowIntervalMs (longer for a sweep
// that takes long to draw), not once per answer: a whole redraw costs time linear in the sweep, so
// one per answer would grow with its square. The shown sweep takes only the runs answered since
// the last drawing, and a view that can draw just those (showAnswered: the size view) does, so
// that its work per drawing stays the same however long the sweep grows.
#pragma once

#include "run_view.h"
#include "sweep_control.h"
#include "sweep_page_layout.h"
#include "sweep_record.h"
#include "sweep_run_panel.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QTimer;

namespace gemmscope {

class EmptyState;
class Session;
class SweepViewBase : public QWidget, public RunView {
    Q_OBJECT
public:
    // Where the run panel's runner row, buttons and status go: in the view's own column (a view on
    // its own, as the tests make one), or in a bar the Sweep workspace shares between its tabs
    // (sweep_run_bar.h), which lays them out itself: one Start, one runner command, on either tab.
    enum class RunControls { InView, Shared };

    ~SweepViewBase() override;

    SweepControl *control() const { return m_control; }
    SweepRunPanel *runPanel() const { return m_panel.get(); }

    // Where running sweeps are journaled (see SweepControl::setJournalDirectory).
    void setJournalDirectory(const QString &dir);
    QString journalDirectory() const;
    // The runner command template ("{runner}", "python3 stand_in.py", "ssh {host} gemmscope-runner")
    // and how many runners to start from it ({gpu} = 0..count-1).
    void setRunnerTemplate(const QString &text, int count = 1);
    // Why the window cannot run anything now (the runner answered that there is no GPU, say);
    // empty: nothing. Start is then off and shows this sentence (beside its own reasons).
    void setRunningOff(const QString &why);
    QString startOffReason() const; // empty when Start is on

    bool start(QString *error = nullptr);  // a new sweep of what the form describes
    bool resume(QString *error = nullptr); // the shown sweep's unfinished points
    void cancel();
    bool isRunning() const;

    // Shows a sweep (one of the session's, or given).
    void showSweep(const SweepData &sweep);
    const std::optional<SweepData> &shownSweep() const { return m_shown; }
    const SweepPlan &plan() const { return m_plan; }
    QString statusText() const;

signals:
    void sweepStateChanged(bool running);
    // The empty state's button: add the H200 sweeps recorded in the default session to this one.
    void recordedSweepsRequested();
    // The empty state's "Open Sweep File…": the window's File > Open (it tells a sweep file by its
    // format).
    void openFileRequested();

protected:
    SweepViewBase(SweepControl *control, const SweepRunPanel::Words &words, RunControls runControls,
                  QWidget *parent);
    bool runControlsInView() const { return m_runControls == RunControls::InView; }
    // The derived constructor lays out its form and chart, then calls this: the view follows the
    // session and the control from here on, and shows the session's latest sweep of its kind.
    void follow();
    void resizeEvent(QResizeEvent *event) override;

    // The sweep the form describes, or std::nullopt with a sentence (a size that does not parse).
    virtual std::optional<SweepSpec> formSpec(QString *error) const = 0;
    // The form says what `sweep` is (Start then repeats it); not called while a sweep runs.
    virtual void setForm(const SweepData &sweep) = 0;
    // Draws shownSweep() (with plan()), or the empty state when there is none.
    virtual void redraw() = 0;
    // The running sweep's runs from `firstNew` on were appended to shownSweep() since it was last
    // drawn: draws what they change and says true, or false (nothing drawn) for a whole redraw().
    virtual bool showAnswered(int firstNew);
    // How the Shown list names a sweep (SweepData::title(); the size view names its series as the
    // results table does).
    virtual QString listTitle(const SweepData &sweep) const;
    // Whether the session holds a sweep of this view's kind (its Shown list is not empty).
    bool sessionHasSweeps() const;
    // The empty state's last paragraph: where a recorded sweep of this kind can be looked at ("sweep"
    // or "size sweep"); and its buttons: Start (the form's), open a sweep file, and the recorded
    // sweeps while the session holds none (the default session's).
    QString recordedSweepHint(const QString &what) const;
    void offerRecordedSweeps(EmptyState *empty);

    SweepPage m_page;
    std::unique_ptr<SweepRunPanel> m_panel; // its widgets are this view's children once laid out

private:
    void refreshSweepList();
    void showRunning();
    void showRunningSweep(const SweepData &sweep); // shown with runs of its own, not the run's
    void showChosen();                             // the form and the Shown list for m_shown
    // `sweep` is the shown one with runs appended (Known while it runs; Check compares the ids
    // of those shown): appends them and draws what they change. False: not so, nothing done.
    enum class RunsAppended { Known, Check };
    bool showMoreRuns(const SweepData &sweep, RunsAppended appended);
    void redrawAndUpdateExport(); // redraw(), and Export on only while a sweep is drawn

    QPointer<SweepControl> m_control; // the window's: it may outlive the view, or not
    RunControls m_runControls;
    std::optional<SweepData> m_shown;
    SweepPlan m_plan;
    static constexpr int kShowIntervalMs = 250;
    QTimer *m_showTimer = nullptr; // pending redraw of the running sweep
};

} // namespace gemmscope
