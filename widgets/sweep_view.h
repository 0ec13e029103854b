// The Sweep view (issue 14): choose a stage, two of its parameters as axes, the rest fixed (at the
// parameter panel's values) or best over the rest, a problem size and a timing budget; Start,
// Cancel and Resume a sweep run on a pool of runners (app/core/sweep_run.h); a QCPColorMap
// heatmap of TFLOP/s or % of cuBLAS (measured on the same GPU in the same sweep) with cells marked
// for spills, the occupancy limiter, wrong results and configurations the catalog refuses (hover
// for its sentence). Clicking a cell loads its configuration everywhere (configurationChosen) and
// says what it loaded, the sweep's size and budget included (issue 19). Without a sweep the chart's
// place holds text (what a sweep is, how to start one, how to open a recorded one), never an empty
// colour map; without a runner Start is off and says why. A RunView: the window exports its print
// layout (heatmap, title, colour scale, what the marks mean, where and when it was measured).
// Sweeps live in the session; each running sweep is also journaled (fsync per run) in
// journalDirectory(), so that a crash or kill -9 loses no finished cell and Resume continues.
#pragma once

#include "run_request.h"
#include "run_view.h"
#include "sweep_page_layout.h"
#include "sweep_record.h"
#include "sweep_summary.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace gemmscope {

class ChartInteraction;
class Session;
class SweepRunControls;

class SweepView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit SweepView(Session *session, QWidget *parent = nullptr);
    ~SweepView() override;

    QString viewName() const override { return tr("the sweep heatmap"); }

    // Where running sweeps are journaled; default: the application data folder's "sweeps".
    void setJournalDirectory(const QString &dir);
    QString journalDirectory() const { return m_journalDir; }
    // The runner command template ("{runner}", "python3 stand_in.py", "ssh {host} gemmscope-runner")
    // and how many runners to start from it ({gpu} = 0..count-1).
    void setRunnerTemplate(const QString &text, int count = 1);
    // The fixed values of the other parameters (the parameter panel's configuration).
    void setBaseConfig(const RunConfig &config);
    // Why the window cannot run anything now (the runner answered that there is no GPU, say);
    // empty: nothing. Start is then off and shows this sentence (beside its own reasons).
    void setRunningOff(const QString &why);
    QString startOffReason() const; // empty when Start is on

    // Form state, for tests and the window.
    void setSpec(const SweepSpec &spec);
    SweepSpec spec() const;
    bool start(QString *error = nullptr);
    bool resume(QString *error = nullptr);
    void cancel();
    bool isRunning() const;

    // Shows a sweep (one of the session's, or given) on the heatmap.
    void showSweep(const SweepData &sweep);
    const std::optional<SweepData> &shownSweep() const { return m_shown; }
    const SweepSummary &summary() const { return m_summary; }
    const SweepPlan &plan() const { return m_plan; }
    QString bestText() const;
    bool showRatio() const;
    void setShowRatio(bool ratio);

    // The heatmap's hit test at a pixel of the plot: the cell index (-1 none) and its tooltip.
    std::pair<int, QString> cellAt(const QPointF &pixel) const;
    QPointF cellCenter(int cell) const; // in plot pixels
    void clickCell(int cell);           // what a click on a cell does
    QString loadedText() const;         // the line that says what the last click loaded
    QCustomPlot *plot() const { return m_plot; }
    bool showsHeatmap() const; // false: the text of the empty state stands in the chart's place
    QString emptyText() const;
    // By extension: .png/.pdf/.svg the heatmap's print layout, .csv/.json the cells.
    std::optional<QString> exportTo(const QString &path) override;

signals:
    void configurationChosen(const gemmscope::RunConfig &config);
    void sweepStateChanged(bool running);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildForm();
    void updateStartState();
    QString printTitle() const;
    QString summaryText() const;
    void stageChanged();
    void refreshSweepList();
    void redraw();
    bool launch(SweepData sweep, QString *error);
    QString cellTooltip(const SweepCellSummary &c) const;
    QString journalPathFor(const SweepData &sweep) const;

    Session *m_session;
    QString m_journalDir;
    QString m_template = QStringLiteral("{runner}");
    int m_runnerCount = 1;
    RunConfig m_base;
    QString m_runningOff;
    QString m_restText; // "best over the rest", or the fixed parameters' values
    SweepPage m_page;
    std::unique_ptr<SweepRunControls> m_controls; // Start / Cancel / Resume, progress, status, the run
    std::optional<SweepData> m_shown;
    SweepPlan m_plan;
    SweepSummary m_summary;

    QComboBox *m_stage = nullptr, *m_x = nullptr, *m_y = nullptr, *m_rest = nullptr, *m_metric = nullptr,
              *m_sweeps = nullptr;
    QLineEdit *m_size = nullptr, *m_runners = nullptr;
    QSpinBox *m_budget = nullptr, *m_runnerCountBox = nullptr;
    QLabel *m_status = nullptr, *m_best = nullptr, *m_legend = nullptr, *m_loaded = nullptr,
           *m_empty = nullptr;
    QStackedWidget *m_canvas = nullptr; // the empty state's text, or the heatmap
    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    ChartInteraction *m_interaction = nullptr;
};

} // namespace gemmscope
