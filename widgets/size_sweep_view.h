// The Sweep tab's problem-size mode: choose stages or presets (and cuBLAS), a
// shape (square, or the worklog's 8192:4096:6144 scaled), a range of sizes and a timing budget;
// Start, Cancel and Resume a size sweep on the same runner pool and journal as a parameter sweep
// (app/core/sweep_controller.h: cells are (series, size), each journaled the moment it answers).
// The chart (size_sweep_chart.h) shows TFLOP/s against size with wave quantization marked. The
// form and the run panel it shares with the parameter sweep (sweep_view_base.h) sit beside the
// chart, which keeps the page's height; without a runner Start is off and says why. A
// RunView: the window exports the chart's print layout.
#pragma once

#include "size_sweep_summary.h"
#include "sweep_view_base.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QSpinBox;

namespace gemmscope {

class SizeSweepChart;

class SizeSweepView : public SweepViewBase {
    Q_OBJECT
public:
    // `control`: the size sweeps' (SweepKind::Sizes), which the window keeps.
    explicit SizeSweepView(SweepControl *control, RunControls runControls = RunControls::InView,
                           QWidget *parent = nullptr);
    ~SizeSweepView() override;

    QString viewName() const override { return tr("the problem-size plot"); }

    // The form: which series (preset or stage keys) are checked, the sizes.
    void setSeries(const QStringList &keys);
    QStringList checkedSeries() const;
    void setSizes(SizeShape shape, long long from, long long to, bool midpoints);
    SweepSpec spec() const;

    const SizeSweepSummary &summary() const { return m_live.summary(); }
    SizeSweepChart *chart() const { return m_chart; }
    // .png/.pdf/.svg the chart's print layout, .csv/.json the points.
    std::optional<QString> exportTo(const QString &path) override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    std::optional<SweepSpec> formSpec(QString *error) const override;
    void setForm(const SweepData &sweep) override;
    void redraw() override;
    bool showAnswered(int firstNew) override;
    QString listTitle(const SweepData &sweep) const override; // "Sizes of 8, cuBLAS FP32: 256³ … 8192³"

private:
    void buildForm();
    void listSeries();    // the shown sweep's series, or every preset (none shown, or asked for)
    void fitSeriesList(); // as high as its rows, within a third of the view
    QString emptyText() const;

    LiveSizeSweepSummary m_live; // the shown sweep's summary, brought up to date run by run

    QListWidget *m_seriesList = nullptr;
    QLabel *m_seriesLabel = nullptr;
    QCheckBox *m_allSeries = nullptr; // lists the presets the shown sweep did not run
    QComboBox *m_shape = nullptr, *m_from = nullptr, *m_to = nullptr;
    QCheckBox *m_midpoints = nullptr;
    QSpinBox *m_budget = nullptr;
    SizeSweepChart *m_chart = nullptr;
};

} // namespace gemmscope
