// The size sweep's chart: TFLOP/s against problem size, one curve per series
// (a stage or preset, cuBLAS), on a log-2 size axis with a legend in ladder order (the form's list
// of series has the same, size_series_order.h). A ▽ marks a size where the
// kernel's last wave of thread blocks barely started (wave quantization: tiles / (SMs x resident
// blocks per SM) just above a whole number), which is where such a curve steps down; the note
// under the chart names each one ("8.05 waves: the last wave runs 7 of 132 SMs"). Sizes the
// catalog refuses for a stage sit as grey × on the axis, their sentence on hover. Hover any point
// for its numbers. Painted from a SweepPlan and its SizeSweepSummary; nothing here runs anything.
#pragma once

#include "size_sweep_summary.h"
#include "sweep_plan.h"

#include <QSharedPointer>
#include <QWidget>
#include <optional>
#include <vector>

class QCPAxisTickerText;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QStackedWidget;

namespace gemmscope {

class EmptyState;

class ChartInteraction;

class SizeSweepChart : public QWidget {
    Q_OBJECT
public:
    explicit SizeSweepChart(QWidget *parent = nullptr);

    static constexpr int kLegendSeries = 24, kNotedSteps = 8;
    // Up to this many series the legend names each with its stage's name too ("8  Final: …"); more
    // take the short label alone ("8"), as the results table's Stage column writes it.
    static constexpr int kLegendLongNames = 8;
    // A curve of more sizes than this is drawn as its line alone: its circles would overlap on any
    // screen, and drawing thousands of them made each replot of a long sweep grow with it.
    static constexpr int kSizesWithCircles = 400;

    // `provenance`: where and when the runs were measured (sweepProvenance), for the note.
    void setData(const SweepPlan &plan, const SizeSweepSummary &summary, const QString &provenance = {});
    // The same plan's summary after more runs answered (a running sweep): only the `changed` points
    // are drawn again, each added to its curve, so the work is the points', not the sweep's. False
    // (nothing changed) where a drawn point moved (a run replaced): setData draws it whole then.
    bool updatePoints(const SizeSweepSummary &summary, const QList<int> &changed, const QString &provenance);
    void clear(const QString &message); // the message stands in the plot's place
    bool showsPlot() const;
    QString emptyText() const;
    EmptyState *emptyState() const { return m_empty; } // shown in the plot's place by clear()

    // The point under a pixel of the plot (index into the summary's points, -1 none) and its tooltip.
    std::pair<int, QString> pointAt(const QPointF &pixel) const;
    std::optional<QPointF> pointPixel(int point) const; // where a point is drawn, if it is
    QCustomPlot *plot() const { return m_plot; }
    QString noteText() const;
    int markedSteps() const { return m_marked; }
    // .png/.pdf/.svg: the chart's print layout (sweep_print_layout.h): `title` above, the legend,
    // the note (what the marks mean, where and when it was measured) below.
    std::optional<QString> exportTo(const QString &path, const QString &title);

    // The x coordinate of a size: its largest dimension (M for both the square and the worklog's shapes).
    static double sizeCoordinate(const ProblemSize &size);

private:
    void fitLegend();         // as many legend columns as the plot's width holds
    void fitSizeTicks();      // as many swept sizes labelled as the x axis' width holds
    void markStep(int point); // a ▽ at a drawn point whose last wave barely started
    void setTop(double tflops);
    void writeNote();
    QString tooltip(int point) const;
    std::optional<QPointF> coordinates(int point) const;

    QCustomPlot *m_plot = nullptr;
    QLabel *m_note = nullptr;
    EmptyState *m_empty = nullptr;
    QStackedWidget *m_canvas = nullptr;
    ChartInteraction *m_interaction = nullptr;
    SweepPlan m_plan;
    SizeSweepSummary m_summary;
    QString m_provenance;
    QList<QCPGraph *> m_curves; // one per series, in the plan's order
    QCPGraph *m_steps = nullptr, *m_refused = nullptr;
    std::vector<double> m_sweptSizes;              // the sizes' x coordinates, ascending, each once
    QSharedPointer<QCPAxisTickerText> m_sizeTicks; // the x axis' ticker while a sweep is drawn
    int m_tickedWidth = -1;                        // the axis width and range its ticks were chosen for
    std::pair<double, double> m_tickedRange;
    QList<int> m_markedPoints; // the points under a ▽, in the summary's order (the note names the first)
    std::vector<int> m_seriesPlace;          // each series' place in the legend (ladder order)
    double m_top = 0;                        // the highest TFLOP/s drawn
    double m_bottom = 0;                     // the lowest TFLOP/s above 0 drawn (0: none)
    static constexpr double kLogSpread = 10; // top / bottom past which the TFLOP/s axis is logarithmic
    int m_marked = 0;
};

} // namespace gemmscope
