// The Sweep view: choose a stage, two of its parameters as axes, the rest fixed (at the
// parameter panel's values) or best over the rest, a problem size and a timing budget; Start,
// Cancel and Resume a sweep run on a pool of runners (app/core/sweep_controller.h); a QCPColorMap
// heatmap of TFLOP/s or % of cuBLAS (measured on the same GPU in the same sweep) with cells marked
// for spills, the occupancy limiter, wrong results and configurations the catalog refuses (hover
// for its sentence). Clicking a cell loads its configuration everywhere (configurationChosen) and
// says what it loaded, the sweep's size and budget included. Without a sweep the chart's
// place holds text (what a sweep is, how to start one, how to open a recorded one), never an empty
// colour map; without a runner Start is off and says why. Over the grid a title says what a cell
// holds (the best over the other parameters, or their fixed values); in a sweep "best over the
// rest" each cell names, under its value, the other parameters of its best run where it has room
// (sweep_cell_text.h). A RunView: the window exports its print layout (heatmap, title, colour
// scale, what the marks mean, where and when it was measured).
// The run panel, the shown sweep and the commands are SweepViewBase's; the sweep is planned, run,
// journaled and put into the session by the view's SweepControl (app/core/sweep_control.h).
#pragma once

#include "run_request.h"
#include "sweep_cell_text.h"
#include "sweep_summary.h"
#include "sweep_view_base.h"

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace gemmscope {

class EmptyState;

class ChartInteraction;

class SweepView : public SweepViewBase {
    Q_OBJECT
public:
    // `control`: the parameter sweeps' (SweepKind::Grid), which the window keeps.
    explicit SweepView(SweepControl *control, RunControls runControls = RunControls::InView,
                       QWidget *parent = nullptr);
    ~SweepView() override;

    QString viewName() const override { return tr("the sweep heatmap"); }

    // The fixed values of the other parameters (the parameter panel's configuration).
    void setBaseConfig(const RunConfig &config);

    // Form state, for tests and the window.
    void setSpec(const SweepSpec &spec);
    SweepSpec spec() const;

    const SweepSummary &summary() const { return m_summary; }
    QString bestText() const;
    bool showRatio() const;
    void setShowRatio(bool ratio);

    // The heatmap's hit test at a pixel of the plot: the cell index (-1 none) and its tooltip.
    std::pair<int, QString> cellAt(const QPointF &pixel) const;
    QPointF cellCenter(int cell) const; // in plot pixels
    void clickCell(int cell);           // what a click on a cell does
    QString loadedText() const;         // the line that says what the last click loaded
    QCustomPlot *plot() const { return m_plot; }
    // A cell is at most this wide and high: a 2 x 2 sweep stretched over the pane read as four
    // slabs of colour. The grid, its axes and its colour scale are centred in the spare room.
    static constexpr int kMaxCellPx = 120;
    bool showsHeatmap() const; // false: the text of the empty state stands in the chart's place
    QString emptyText() const;
    // By extension: .png/.pdf/.svg the heatmap's print layout, .csv/.json the cells.
    std::optional<QString> exportTo(const QString &path) override;

signals:
    void configurationChosen(const gemmscope::RunConfig &config);

protected:
    std::optional<SweepSpec> formSpec(QString *error) const override;
    void setForm(const SweepData &sweep) override;
    void redraw() override;

private:
    void buildForm();
    void buildFields();
    void buildHeatmap();
    void layOutForm();
    // Before each replot: the plot's margins that keep cells within kMaxCellPx, the title wrapped
    // over the grid, and each cell's text fitted to the cells' size.
    void capCellSize();
    void fitCellTexts(const QSizeF &cellPx);
    QString titleText() const;       // what a cell holds, for the title over the grid
    QStringList otherParams() const; // the shown sweep's stage's parameters that are not its axes
    QString bestOverText() const;    // "each cell the best over BK, TM and TN"
    QString printTitle() const;
    QString summaryText() const;
    void stageChanged();
    QString cellTooltip(const SweepCellSummary &c) const;

    RunConfig m_base;
    bool m_hasBase = false; // the panel's configuration came once: its stage is the form's from then
    void updateRestText();  // "fixed: BK=8 TM=4 TN=4" or "(the stage's defaults)"
    QString m_restText;     // "each cell the best over BK, TM, TN", or the fixed parameters' values
    SweepSummary m_summary;
    struct CellLabel {
        int cell = -1;
        QCPItemText *item = nullptr; // the plot's (redraw() clears and makes them)
        SweepCellText text;
    };
    QList<CellLabel> m_cellLabels;
    QCPItemText *m_title = nullptr; // over the axis rect, in its top margin; nullptr: nothing to say

    QComboBox *m_stage = nullptr, *m_x = nullptr, *m_y = nullptr, *m_rest = nullptr, *m_metric = nullptr;
    QLineEdit *m_size = nullptr;
    QSpinBox *m_budget = nullptr;
    QLabel *m_best = nullptr, *m_legend = nullptr, *m_loaded = nullptr, *m_origin = nullptr;
    EmptyState *m_empty = nullptr;
    QStackedWidget *m_canvas = nullptr; // the empty state's text, or the heatmap
    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    ChartInteraction *m_interaction = nullptr;
};

} // namespace gemmscope
