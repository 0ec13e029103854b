// The roofline's marks drawn: each run's (roofline_marks.h says which and where), the worklog's
// published steps and the panel's settings as a hollow circle (roofline_tips.h computes them), the
// selection's ring (roofline_points.h says where); the pointer's point found by the same model.
#include "chart_layout.h"
#include "roofline_chart.h"
#include "roofline_chart_style.h"
#include "roofline_joins.h"
#include "roofline_marks.h"
#include "run_color.h"

#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using roofline_scene::levelName;
using roofline_scene::MarkRole;

namespace {

using roofline_scene::MarkerSize;

const QColor kLiveColor(0xe3, 0x1a, 0x1c);

// The markers' sizes: the symbols are drawn with them, and the label scene keeps clear of them.
constexpr MarkerSize kModelSize{8, 1};      // a run's disc at the model's intensity
constexpr MarkerSize kMeasuredSize{9, 1.2}; // its diamond at the measured one
constexpr MarkerSize kLevelSize{8, 1.2};    // its triangle at a level's
constexpr MarkerSize kPublishedSize{8, 1.5};
constexpr MarkerSize kLiveSize{13, 2};
constexpr MarkerSize kRingSize{16, 2};

QCPScatterStyle scatter(QCPScatterStyle::ScatterShape shape, const QColor &pen, const QBrush &fill,
                        const MarkerSize &size)
{
    return QCPScatterStyle(shape, QPen(pen, size.penWidth), fill, size.size);
}

} // namespace

QCPGraph *RooflineChart::addMarkerGraph(roofline_scene::MarkRole role, const MarkerSize &size)
{
    QCPGraph *graph = m_plot->addGraph();
    graph->setLineStyle(QCPGraph::lsNone);
    m_layerOf.insert(graph, m_markers.add(role, size));
    return graph;
}

void RooflineChart::removeMarkerGraph(QCPGraph *graph)
{
    m_markers.remove(m_layerOf.take(graph));
    m_plot->removeGraph(graph);
}

void RooflineChart::setMarkerPoint(QCPGraph *graph, double intensity, double tflops)
{
    const roofline_scene::MarkerLayers::Id layer = m_layerOf.value(graph);
    graph->data()->clear();
    graph->addData(intensity, tflops);
    m_markers.clearPoints(layer);
    m_markers.append(layer, intensity, tflops);
}

void RooflineChart::addRunPoints(const ActiveRoof &roof)
{
    m_tipRoof = roof;
    m_points.reserve(m_runs.size() * 2 + 16);
    for (qsizetype i = 0; i < m_runs.size(); ++i)
        addRunPoint(i);
    placeCountersNote();
}

// A mark's graph: one a kind of mark and a stage's preset, in the runtime chart's shade of the
// stage's colour (5a and 5b, or 8 and 8/BK8, are told apart without hovering); one for the
// published rows. Made where a first mark needs it.
QCPGraph *RooflineChart::markGraph(const roofline_scene::RunMark &mark, const roofline_scene::RunMarks &run)
{
    using roofline_scene::MarkRole;
    DrawnRuns &d = m_drawn;
    const QColor &color = run.color;
    if (mark.mark.role == MarkRole::Published) {
        if (!d.publishedGraph) {
            d.publishedGraph = addMarkerGraph(MarkRole::Published, kPublishedSize);
            d.publishedGraph->setName(QStringLiteral("T4, published (worklog)"));
            d.publishedGraph->setScatterStyle(
                scatter(QCPScatterStyle::ssSquare, kWorklogColor, Qt::white, kPublishedSize));
        }
        return d.publishedGraph;
    }
    QCPGraph *&graph = (mark.mark.role == MarkRole::RunModel      ? d.byStage
                        : mark.mark.role == MarkRole::RunMeasured ? d.measuredByStage
                        : mark.level == MemoryLevel::L2           ? d.l2ByStage
                                                                  : d.l1SharedByStage)[run.colorKey];
    if (graph)
        return graph;
    const MarkRole role = mark.mark.role;
    const MarkerSize size = role == MarkRole::RunModel      ? kModelSize
                            : role == MarkRole::RunMeasured ? kMeasuredSize
                                                            : kLevelSize;
    graph = addMarkerGraph(role, size);
    graph->removeFromLegend(); // one key entry explains each kind; the colours match the runtime chart
    if (role == MarkRole::RunModel) {
        graph->setName(run.stageTitle);
        graph->setScatterStyle(scatter(QCPScatterStyle::ssDisc, color.darker(120), color, size));
    } else if (role == MarkRole::RunMeasured) {
        graph->setName(run.stageTitle + QStringLiteral(", measured AI"));
        graph->setScatterStyle(scatter(QCPScatterStyle::ssDiamond, color.darker(160), color, size));
    } else {
        graph->setName(run.stageTitle + QStringLiteral(", measured ") + levelName(*mark.level) +
                       QStringLiteral(" AI"));
        graph->setScatterStyle(scatter(levelShape(*mark.level), color.darker(160), color, size));
    }
    return graph;
}

bool RooflineChart::addRunPoint(qsizetype index)
{
    using roofline_scene::MarkRole;
    const RunRecord &run = m_runs[index];
    DrawnRuns &d = m_drawn;
    const std::optional<roofline_scene::RunMarks> marks = d.marker.marksOf(run);
    d.anyRun = d.marker.anyModelled();
    if (!marks)
        return false;
    d.anyCounters = d.anyCounters || marks->measured.has_value();
    const roofline_scene::RunTip tip{index,           marks->predicted, marks->formula,
                                     marks->measured, marks->tflops,    marks->published,
                                     marks->tensor,   marks->l2,        marks->l1Shared};
    ++d.count;
    d.ids.insert(run.runId);
    for (const roofline_scene::RunMark &mark : marks->marks) {
        const roofline_scene::Mark &m = mark.mark;
        QCPGraph *graph = markGraph(mark, *marks);
        // Runs on one spot share a marker (roofline_marker_layers.h); every run stays in m_points
        // for hover and click.
        if (mark.drawn && m_markers.addMerged(m_layerOf.value(graph), m.intensity, m.tflops))
            graph->addData(m.intensity, m.tflops);
        if (m.role == MarkRole::RunMeasured) { // dotted to the model's intensity
            if (!d.joins) {
                d.joins = new RooflineJoins(m_plot, &m_joinSet);
                m_joinSet.setShowAll(m_showModel);
            }
            m_joinSet.add({marks->predicted, m.intensity, m.tflops, marks->color});
        }
        // A level's marker is unlabelled: the run's label sits at its DRAM point; hover names it.
        const bool level = m.role == MarkRole::RunLevel;
        const PointKind kind = m.role == MarkRole::Published     ? PointKind::WorklogT4
                               : m.role == MarkRole::RunModel    ? PointKind::RunPredicted
                               : m.role == MarkRole::RunMeasured ? PointKind::RunMeasured
                               : mark.level == MemoryLevel::L2   ? PointKind::RunMeasuredL2
                                                                 : PointKind::RunMeasuredL1Shared;
        // The tooltip is written when shown (pointWithTooltip).
        m_points.addRun({kind, run.runId, m.intensity, m.tflops, QString(), level ? QString() : marks->label,
                         level ? QColor() : marks->color},
                        tip);
        d.anyPredicted = d.anyPredicted || (m.role == MarkRole::RunModel && mark.drawn);
        d.anyMeasured = d.anyMeasured || m.role == MarkRole::RunMeasured;
        if (level)
            (mark.level == MemoryLevel::L2 ? d.anyL2 : d.anyL1Shared) = true;
    }
    return true;
}

void RooflineChart::updateSelectionRing()
{
    // The ring sits on the run's shown marker: its diamond where counters measured it (with the
    // model's disc and the dotted join beside it while the model's intensities are hidden), else its
    // disc.
    const std::optional<roofline_scene::Selection> selection = pointSet().selection();
    if (!selection) {
        if (m_selectedGraph)
            removeMarkerGraph(m_selectedGraph);
        if (m_selectedModelGraph)
            removeMarkerGraph(m_selectedModelGraph);
        m_selectedGraph = nullptr;
        m_selectedModelGraph = nullptr;
        m_joinSet.setHighlighted(std::nullopt);
        return;
    }
    if (!m_selectedGraph) {
        m_selectedGraph = addMarkerGraph(MarkRole::SelectionRing, kRingSize);
        m_selectedGraph->removeFromLegend();
        m_selectedGraph->setScatterStyle(
            scatter(QCPScatterStyle::ssCircle, Qt::black, Qt::NoBrush, kRingSize));
        m_selectedModelGraph = addMarkerGraph(MarkRole::SelectedModel, kModelSize);
        m_selectedModelGraph->removeFromLegend();
        m_selectedModelGraph->setName(QStringLiteral("the selected run at the model's AI"));
    }
    const ChartPoint &model = m_points[selection->model];
    const ChartPoint &shown = m_points[selection->shown];
    setMarkerPoint(m_selectedGraph, shown.intensity, shown.tflops);
    m_selectedModelGraph->data()->clear();
    m_markers.clearPoints(m_layerOf.value(m_selectedModelGraph));
    if (selection->modelDiscShown) {
        const QColor color = runColor(m_runs[*selection->run]);
        m_selectedModelGraph->setScatterStyle(
            scatter(QCPScatterStyle::ssDisc, color.darker(120), color, kModelSize));
        setMarkerPoint(m_selectedModelGraph, model.intensity, model.tflops);
        m_joinSet.setHighlighted(roofline_scene::Join{model.intensity, shown.intensity, model.tflops, color});
    } else {
        m_joinSet.setHighlighted(std::nullopt);
    }
}

roofline_scene::PlotFrame RooflineChart::plotFrame() const
{
    return roofline_scene::PlotFrame{m_plot->axisRect()->rect(), m_plot->xAxis->range().lower,
                                     m_plot->xAxis->range().upper, m_plot->yAxis->range().lower,
                                     m_plot->yAxis->range().upper};
}

const roofline_scene::PointSet &RooflineChart::pointSet() const
{
    m_points.setView({m_showModel, m_selectedRunId, !m_printing});
    return m_points;
}

void RooflineChart::addWorklogPoints()
{
    QCPGraph *graph = addMarkerGraph(roofline_scene::MarkRole::Published, kPublishedSize);
    graph->setName(QStringLiteral("worklog (T4, published)"));
    graph->setScatterStyle(scatter(QCPScatterStyle::ssSquare, kWorklogColor, Qt::white, kPublishedSize));
    for (const ChartPoint &point : roofline_scene::worklogPoints(findGpu("t4"))) {
        graph->addData(point.intensity, point.tflops);
        m_markers.append(m_layerOf.value(graph), point.intensity, point.tflops);
        m_points.add(point);
    }
}

bool RooflineChart::liveWasRun() const
{
    // Keyed as addRunPoint keys the runs it models.
    return m_live && m_drawn.marker.modelled(roofline_scene::liveConfiguration(*m_live));
}

void RooflineChart::addLivePoint(const ActiveRoof &fp32Roof)
{
    if (!m_live)
        return;
    roofline_scene::TipRoofs roofs = tipRoofs();
    roofs.fp32 = fp32Roof;
    const std::optional<ChartPoint> live = roofline_scene::livePoint(*m_live, roofs);
    if (!live)
        return;
    m_liveGraph = addMarkerGraph(roofline_scene::MarkRole::Live, kLiveSize);
    // What the hollow circle is: the panel's settings where the traffic model puts them (no reuse
    // in the caches), at the roof's bound there, not a run. "Predicted" read as a forecast of the
    // run's speed, which the run's own diamond contradicted.
    m_liveGraph->setName(QStringLiteral("panel's settings (Alt+0),\nnot run: at the model's AI"));
    m_liveGraph->setScatterStyle(scatter(QCPScatterStyle::ssCircle, kLiveColor, Qt::NoBrush, kLiveSize));
    setMarkerPoint(m_liveGraph, live->intensity, live->tflops);
    m_liveGraph->removeFromLegend(); // its own entry (setLiveKeyShown): the graph's icon cut the circle
    m_points.setLive(*live);
    syncLiveShown();
    setLiveKeyShown(m_points.liveShown());
}

bool RooflineChart::syncLiveShown()
{
    // Settings that a drawn run ran are that run's marker: a circle "not run" at the model's AI
    // beside the run's own diamond contradicted it (the panel on step 3
    // put a circle on the FP32 ridge, 4x the run's speed). Hidden, not removed: a slider tick off
    // those settings shows it again without a rebuild.
    if (!m_liveGraph)
        return false;
    const bool shown = !liveWasRun();
    if (m_points.liveShown() == shown)
        return false;
    m_points.setLiveShown(shown);
    m_liveGraph->setVisible(shown);
    m_markers.setVisible(m_layerOf.value(m_liveGraph), shown);
    setLiveKeyShown(shown);
    return true;
}

void RooflineChart::setLiveKeyShown(bool shown)
{
    if (shown == (m_liveKey != nullptr))
        return;
    if (m_liveKey) {
        m_plot->legend->removeItem(m_liveKey);
        m_liveKey = nullptr;
        return;
    }
    m_liveKey = addMarkerKey(m_plot, m_liveGraph->name(), m_liveGraph->scatterStyle());
}

bool RooflineChart::moveLivePoint()
{
    // A slider tick moves the hollow circle and nothing else; false where more changes (it appears
    // or goes, or a TF32 stage brings the tensor cores' roofs).
    if (m_printing || !m_liveGraph || (m_drawn.tensorRuns || liveUsesTensorCores()) != m_drawn.tensorRoofs)
        return false;
    roofline_scene::TipRoofs roofs = tipRoofs();
    roofs.fp32 = activeRoof().value_or(ActiveRoof{});
    const std::optional<ChartPoint> live = roofline_scene::livePoint(*m_live, roofs);
    if (!live)
        return false;
    setMarkerPoint(m_liveGraph, live->intensity, live->tflops);
    syncLiveShown();
    m_points.setLive(*live);
    if (!m_plot->xAxis->range().contains(live->intensity) || !m_plot->yAxis->range().contains(live->tflops)) {
        applyDefaultView();
    }
    requestReplot();
    return true;
}

std::optional<QPointF> RooflineChart::predictedPoint() const
{
    const ChartPoint *live = m_points.live();
    if (!live || !m_points.liveShown())
        return std::nullopt;
    return QPointF(live->intensity, live->tflops);
}

roofline_scene::TipRoofs RooflineChart::tipRoofs() const
{
    return {m_tipRoof,    tensorDatasheetRoof(), tensorMeasuredRoof(), m_measuredFma.value_or(0),
            m_measuredL2, m_measuredShared};
}

const RooflineChart::ChartPoint &RooflineChart::pointWithTooltip(int index) const
{
    if (m_points[index].tooltip.isEmpty())
        if (const roofline_scene::RunTip *tip = m_points.runTip(index))
            m_points.setTooltip(index, roofline_scene::runTooltip(m_runs[tip->run], *tip, tipRoofs()));
    return m_points[index];
}

const QList<RooflineChart::ChartPoint> &RooflineChart::points() const
{
    for (int i = 0; i < m_points.size(); ++i)
        pointWithTooltip(i);
    return m_points.points();
}

int RooflineChart::pointIndexAt(const QPointF &pixel) const
{
    return int(pointSet().indexAt(plotFrame(), pixel));
}

QString RooflineChart::runIdAt(const QPointF &pixel) const
{
    const int index = pointIndexAt(pixel);
    return index < 0 ? QString() : m_points[index].runId;
}

QString RooflineChart::tooltipAt(const QPointF &pixel) const
{
    const int index = pointIndexAt(pixel);
    return index < 0 ? QString() : pointWithTooltip(index).tooltip;
}

std::optional<QPointF> RooflineChart::pixelOfRun(const QString &runId) const
{
    return pointSet().pixelOfRun(plotFrame(), runId);
}

} // namespace gemmscope
