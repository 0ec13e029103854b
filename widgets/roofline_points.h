// The roofline's points as a model, free of QCustomPlot: each run's marks, the worklog's published
// steps and the panel's settings (the live point) in plot coordinates, in the order they were
// added; which of them are drawn (a run's model disc hides behind its measured diamond unless the
// model is asked for or the run is selected), which one a pointer hits, where the selection's marks
// go and which short labels the runs get. RooflineChart draws what it says and asks it what the
// pointer is over.
#pragma once

#include "roofline_label_scene.h"
#include "roofline_roofs.h"
#include "roofline_scene.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <optional>

namespace gemmscope::roofline_scene {

enum class PointKind { RunPredicted, RunMeasured, WorklogT4, Live, RunMeasuredL2, RunMeasuredL1Shared };

struct ChartPoint {
    PointKind kind = PointKind::RunPredicted;
    QString runId;        // empty for worklog and live points
    double intensity = 0; // FLOP/B
    double tflops = 0;
    QString tooltip;
    QString label;  // short step label ("3", "5a", "cuBLAS"); empty for the live point
    QColor color{}; // its marker's fill (the stage's colour), for the swatch a label list draws
};

// What a run point's tooltip is written from: only when it is shown, not for every run of a long
// session in every rebuild (roofline_tips.h writes it).
struct RunTip {
    qsizetype run = 0; // in the chart's runs
    double predicted = 0;
    QString formula;
    std::optional<double> measured;
    double tflops = 0;
    bool published = false;             // a worklog row on the T4 roof
    bool tensor = false;                // a TF32 stage: judged against the TF32 roofs
    std::optional<double> l2, l1Shared; // the levels' measured intensities, where drawn
};

// What the chart's options and selection make of the points.
struct PointView {
    bool showModel = false;    // every run's model disc, not only where nothing was measured
    QString selectedRunId;     // empty: none
    bool showSelection = true; // false in an export: it shows no selection
};

// Where the selection's marks go: its ring on the run's shown marker, and its model disc (dotted to
// the diamond) where model discs are hidden otherwise.
struct Selection {
    qsizetype model = -1;         // the run's model point
    qsizetype shown = -1;         // the ring's: its diamond where counters measured it, else `model`
    bool modelDiscShown = false;  // the model disc is drawn for the selection alone
    std::optional<qsizetype> run; // in the chart's runs
};

// A pointer this close to a marker's centre (pixels) is over it.
inline constexpr double kHitRadiusPx = 9;

class PointSet {
public:
    void clear();
    void reserve(qsizetype count)
    {
        m_points.reserve(count);
        m_tips.reserve(count); // grown as it filled, the table was rehashed at each doubling
    }
    qsizetype size() const { return m_points.size(); }
    bool isEmpty() const { return m_points.isEmpty(); }
    const ChartPoint &operator[](qsizetype index) const { return m_points[index]; }
    const QList<ChartPoint> &points() const { return m_points; }
    bool any(PointKind kind) const;

    void add(const ChartPoint &point); // its tooltip written already (a worklog step)
    void addRun(const ChartPoint &point, const RunTip &tip);
    const RunTip *runTip(qsizetype index) const; // nullptr: not a run's, or its tooltip is written
    void setTooltip(qsizetype index, const QString &tooltip);
    void runRemoved(qsizetype run); // a run never drawn left the chart's runs: the later ones move up

    // The panel's settings: one point at most, at the place it was first added; moved in place.
    void setLive(const ChartPoint &point);
    const ChartPoint *live() const { return m_live ? &m_points[*m_live] : nullptr; }
    // Hidden where a drawn run ran the panel's settings: that run's marker is theirs.
    bool liveShown() const { return m_liveShown; }
    void setLiveShown(bool shown) { m_liveShown = shown; }

    void setView(const PointView &view) { m_view = view; }
    const PointView &view() const { return m_view; }

    bool hasMeasuredPoint(qsizetype index) const; // a run's disc whose diamond follows it
    bool drawn(qsizetype index) const;            // its marker is on the plot (a pointer finds it)
    // The drawn point nearest `pixel` within kHitRadiusPx (the later on a tie); -1: none.
    qsizetype indexAt(const PlotFrame &frame, const QPointF &pixel) const;
    // Where a run is drawn: its diamond where counters measured it and its disc is hidden.
    std::optional<QPointF> pixelOfRun(const PlotFrame &frame, const QString &runId) const;
    std::optional<Selection> selection() const;
    // What the default view keeps in sight: a run's hidden model disc is not.
    QList<ViewPoint> viewPoints() const;

private:
    QList<ChartPoint> m_points;
    QHash<qsizetype, RunTip> m_tips; // by index in m_points, until written
    std::optional<qsizetype> m_live;
    bool m_liveShown = true;
    PointView m_view;
};

// A label's role in the label scene: the marker kind its swatch copies.
MarkRole labelRole(PointKind kind);

// The short labels of points[from..], added to `labels`: one per run's shown marker (its diamond
// where counters exist, else its disc); runs of one label on one spot (the same configuration run
// again) share it, runs of other labels on the very same spot are listed in one. Returns the
// indices of the labels that existed and now list more; the new ones are appended.
QList<qsizetype> addPointLabels(const PointSet &points, qsizetype from, QList<PointLabel> &labels);

} // namespace gemmscope::roofline_scene
