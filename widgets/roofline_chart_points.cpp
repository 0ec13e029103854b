// The roofline's marks: each run's (roofline_marks.h says which and where), the worklog's published
// steps, the panel's settings as a hollow circle, the selection's ring; their tooltips and hover.
#include "chart_text.h"
#include "roofline_chart.h"
#include "roofline_chart_style.h"
#include "roofline_joins.h"
#include "roofline_marks.h"
#include "roofline_math.h"
#include "run_color.h"
#include "runtime_series.h"
#include "traffic_model.h"

#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using roofline_scene::levelName;
using roofline_scene::plottedIntensity;

namespace {

constexpr double kHitRadiusPx = 9;
const QColor kLiveColor(0xe3, 0x1a, 0x1c);

QString roofPercentText(double tflops, double intensity, const QString &roofLabel, double peak, double bw)
{
    return QStringLiteral("%1% of the %2 roof at this intensity (attainable %3)")
        .arg(roofline::percentOfRoof(tflops, intensity, peak, bw), 0, 'f', 1)
        .arg(roofLabel, formatTflops(roofline::roofAt(intensity, peak, bw)));
}

QString fmtIntensity(double ai)
{
    return QString::number(ai, 'g', 4) + QStringLiteral(" FLOP/B");
}

} // namespace

void RooflineChart::addRunPoints(const ActiveRoof &roof)
{
    m_tipRoof = roof;
    m_points.reserve(m_runs.size() * 2 + 16);
    m_runTips.reserve(m_runs.size() * 2);
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
            d.publishedGraph = m_plot->addGraph();
            m_graphRoles.insert(d.publishedGraph, MarkRole::Published);
            d.publishedGraph->setName(QStringLiteral("T4, published (worklog)"));
            d.publishedGraph->setLineStyle(QCPGraph::lsNone);
            d.publishedGraph->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kWorklogColor, 1.5), Qt::white, 8));
        }
        return d.publishedGraph;
    }
    QCPGraph *&graph = (mark.mark.role == MarkRole::RunModel      ? d.byStage
                        : mark.mark.role == MarkRole::RunMeasured ? d.measuredByStage
                        : mark.level == MemoryLevel::L2           ? d.l2ByStage
                                                                  : d.l1SharedByStage)[run.colorKey];
    if (graph)
        return graph;
    graph = m_plot->addGraph();
    m_graphRoles.insert(graph, mark.mark.role);
    graph->removeFromLegend(); // one key entry explains each kind; the colours match the runtime chart
    graph->setLineStyle(QCPGraph::lsNone);
    if (mark.mark.role == MarkRole::RunModel) {
        graph->setName(run.stageTitle);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(120), color, 8));
    } else if (mark.mark.role == MarkRole::RunMeasured) {
        graph->setName(run.stageTitle + QStringLiteral(", measured AI"));
        graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color.darker(160), 1.2), color, 9));
    } else {
        graph->setName(run.stageTitle + QStringLiteral(", measured ") + levelName(*mark.level) +
                       QStringLiteral(" AI"));
        graph->setScatterStyle(
            QCPScatterStyle(levelShape(*mark.level), QPen(color.darker(160), 1.2), color, 8));
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
    const RunTip tip{index,           marks->predicted, marks->formula,
                     marks->measured, marks->tflops,    marks->published,
                     marks->tensor,   marks->l2,        marks->l1Shared};
    ++d.count;
    d.ids.insert(run.runId);
    // Points closer than ~0.1 % on both log axes are one marker (a pixel is ~0.5 %): in a long
    // session many runs of one configuration fall on the same spot, and each marker costs a drawn
    // ellipse in every replot and export. Every run stays in m_points for hover and click.
    const auto firstMarker = [&d](QCPGraph *graph, double x, double y) {
        return d.markers
            .insert({graph, qint64(std::llround(std::log10(x) * 2000)),
                     qint64(std::llround(std::log10(y) * 2000))})
            .second;
    };
    for (const roofline_scene::RunMark &mark : marks->marks) {
        const roofline_scene::Mark &m = mark.mark;
        QCPGraph *graph = markGraph(mark, *marks);
        if (mark.drawn && firstMarker(graph, m.intensity, m.tflops))
            graph->addData(m.intensity, m.tflops);
        if (m.role == MarkRole::RunMeasured) { // dotted to the model's intensity
            if (!d.joins) {
                d.joins = new RooflineJoins(m_plot);
                d.joins->setShowAll(m_showModel);
            }
            d.joins->add(marks->predicted, m.intensity, m.tflops, marks->color);
        }
        // A level's marker is unlabelled: the run's label sits at its DRAM point; hover names it.
        const bool level = m.role == MarkRole::RunLevel;
        const PointKind kind = m.role == MarkRole::Published     ? PointKind::WorklogT4
                               : m.role == MarkRole::RunModel    ? PointKind::RunPredicted
                               : m.role == MarkRole::RunMeasured ? PointKind::RunMeasured
                               : mark.level == MemoryLevel::L2   ? PointKind::RunMeasuredL2
                                                                 : PointKind::RunMeasuredL1Shared;
        m_runTips.insert(int(m_points.size()), tip); // the tooltip is written when shown: runTooltip()
        m_points.append({kind, run.runId, m.intensity, m.tflops, QString(), level ? QString() : marks->label,
                         level ? QColor() : marks->color});
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
    qsizetype selected = -1;
    if (!m_printing && !m_selectedRunId.isEmpty())
        for (qsizetype i = 0; i < m_points.size(); ++i)
            if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == m_selectedRunId) {
                selected = i;
                break;
            }
    if (selected < 0) {
        if (m_selectedGraph)
            m_plot->removeGraph(m_selectedGraph);
        if (m_selectedModelGraph)
            m_plot->removeGraph(m_selectedModelGraph);
        m_selectedGraph = nullptr;
        m_selectedModelGraph = nullptr;
        if (m_drawn.joins)
            m_drawn.joins->setHighlighted(std::nullopt);
        return;
    }
    if (!m_selectedGraph) {
        m_selectedGraph = m_plot->addGraph();
        m_selectedGraph->removeFromLegend();
        m_selectedGraph->setLineStyle(QCPGraph::lsNone);
        m_selectedGraph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 16));
        m_selectedModelGraph = m_plot->addGraph();
        m_selectedModelGraph->removeFromLegend();
        m_selectedModelGraph->setName(QStringLiteral("the selected run at the model's AI"));
        m_selectedModelGraph->setLineStyle(QCPGraph::lsNone);
    }
    const ChartPoint &model = m_points[selected];
    const bool diamond = hasMeasuredPoint(selected);
    const ChartPoint &shown = diamond ? m_points[selected + 1] : model;
    m_selectedGraph->data()->clear();
    m_selectedGraph->addData(shown.intensity, shown.tflops);
    m_selectedModelGraph->data()->clear();
    const RunRecord *run = nullptr;
    if (const auto tip = m_runTips.constFind(int(selected)); tip != m_runTips.cend())
        run = &m_runs[tip->run];
    if (diamond && !m_showModel && run) {
        const QColor color = runColor(*run);
        m_selectedModelGraph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(120), color, 8));
        m_selectedModelGraph->addData(model.intensity, model.tflops);
        if (m_drawn.joins)
            m_drawn.joins->setHighlighted(std::tuple(model.intensity, shown.intensity, model.tflops, color));
    } else if (m_drawn.joins) {
        m_drawn.joins->setHighlighted(std::nullopt);
    }
}

bool RooflineChart::hasMeasuredPoint(qsizetype index) const
{
    return m_points[index].kind == PointKind::RunPredicted && index + 1 < m_points.size() &&
           m_points[index + 1].kind == PointKind::RunMeasured &&
           m_points[index + 1].runId == m_points[index].runId;
}

bool RooflineChart::pointDrawn(qsizetype index) const
{
    // A run's disc is hidden behind its diamond's measurement unless the model is asked for or the
    // run is selected.
    if (m_points[index].kind == PointKind::Live)
        return m_liveGraph && m_liveGraph->visible();
    return !hasMeasuredPoint(index) || m_showModel ||
           (!m_printing && m_points[index].runId == m_selectedRunId);
}

void RooflineChart::addWorklogPoints()
{
    const GpuSpec *t4 = findGpu("t4");
    QCPGraph *graph = m_plot->addGraph();
    m_graphRoles.insert(graph, roofline_scene::MarkRole::Published);
    graph->setName(QStringLiteral("worklog steps (T4, published)"));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kWorklogColor, 1.5), Qt::white, 8));
    const ProblemSize worklogSize; // the default is the worklog's 8192 x 4096 x 6144
    for (const Preset &preset : presets()) {
        if (!preset.worklogT4Ms)
            continue;
        const TrafficEstimate traffic = estimateTraffic(preset.stage, preset.params, worklogSize);
        const double ai = plottedIntensity(traffic);
        const double tflops = roofline::tflopsFor(roofline::kWorklogFlops, *preset.worklogT4Ms);
        if (ai <= 0 || tflops <= 0)
            continue;
        graph->addData(ai, tflops);
        QStringList lines{
            QString::fromStdString(preset.title) + QStringLiteral(" (worklog, T4)"),
            QStringLiteral("AI predicted: %1  (%2)")
                .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula)),
            QStringLiteral("published %1 -> %2").arg(formatMs(*preset.worklogT4Ms), formatGflops(tflops))};
        if (t4)
            lines << roofPercentText(tflops, ai, QStringLiteral("T4 datasheet"), t4->fp32Tflops, t4->dramGBs);
        m_points.append({PointKind::WorklogT4, QString(), ai, tflops, lines.join(QLatin1Char('\n')),
                         shortPresetLabel(QString::fromStdString(preset.key))});
    }
}

std::optional<RooflineChart::ChartPoint> RooflineChart::livePoint(const ActiveRoof &fp32Roof) const
{
    if (!m_live)
        return std::nullopt;
    // A TF32 stage is capped by the tensor cores' roof: the datasheet's (what the hardware can do at
    // best), else the one measured here (wgmma on Hopper, mma.sync elsewhere).
    std::optional<ActiveRoof> tensor;
    if (stageInfo(m_live->stage).precision == Precision::Tf32)
        tensor = tensorDatasheetRoof() ? tensorDatasheetRoof() : tensorMeasuredRoof();
    const ActiveRoof roof = tensor ? *tensor : fp32Roof;
    const TrafficEstimate traffic = estimateTraffic(m_live->stage, m_live->params, m_live->size);
    const double ai = plottedIntensity(traffic);
    if (ai <= 0)
        return std::nullopt;
    // Without a run the model predicts only where the roof caps this configuration.
    const double attainable =
        roof.peakTflops > 0 ? roofline::roofAt(ai, roof.peakTflops, roof.bandwidthGBs) : 1.0;
    QStringList lines{QStringLiteral("%1, current settings (not run)")
                          .arg(QString::fromStdString(stageInfo(m_live->stage).title)),
                      QString::fromStdString(formatParams(m_live->params)),
                      QStringLiteral("AI predicted: %1  (%2)")
                          .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula))};
    if (roof.peakTflops > 0)
        lines << QStringLiteral("attainable under the %1 roof: %2").arg(roof.label, formatGflops(attainable));
    return ChartPoint{PointKind::Live, QString(), ai, attainable, lines.join(QLatin1Char('\n')), QString()};
}

bool RooflineChart::liveWasRun() const
{
    // Keyed as addRunPoint keys the runs it models.
    if (!m_live)
        return false;
    RunRecord live;
    live.stage = m_live->stage;
    live.m = m_live->size.m;
    live.n = m_live->size.n;
    live.k = m_live->size.k;
    for (const auto &[name, value] : m_live->params)
        live.params.insert(QString::fromStdString(name), value);
    return m_drawn.marker.modelled(live);
}

void RooflineChart::addLivePoint(const ActiveRoof &fp32Roof)
{
    const std::optional<ChartPoint> live = livePoint(fp32Roof);
    if (!live)
        return;
    m_liveGraph = m_plot->addGraph();
    // What the hollow circle is: the panel's settings where the traffic model puts them (no reuse
    // in the caches), at the roof's bound there, not a run. "Predicted" read as a forecast of the
    // run's speed, which the run's own diamond contradicted (review of 2026-12-03).
    m_liveGraph->setName(QStringLiteral("panel's settings (Alt+0),\nnot run: at the model's AI"));
    m_liveGraph->setLineStyle(QCPGraph::lsNone);
    m_liveGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kLiveColor, 2), Qt::NoBrush, 13));
    m_liveGraph->addData(live->intensity, live->tflops);
    m_points.append(*live);
    syncLiveShown();
}

bool RooflineChart::syncLiveShown()
{
    // Settings that a drawn run ran are that run's marker: a circle "not run" at the model's AI
    // beside the run's own diamond contradicted it (two reviews of 2026-12-03: the panel on step 3
    // put a circle on the FP32 ridge, 4x the run's speed). Hidden, not removed: a slider tick off
    // those settings shows it again without a rebuild.
    if (!m_liveGraph)
        return false;
    const bool shown = !liveWasRun();
    if (m_liveGraph->visible() == shown)
        return false;
    m_liveGraph->setVisible(shown);
    if (shown)
        m_liveGraph->addToLegend();
    else
        m_liveGraph->removeFromLegend();
    return true;
}

bool RooflineChart::moveLivePoint()
{
    // A slider tick moves the hollow circle and nothing else; false where more changes (it appears
    // or goes, or a TF32 stage brings the tensor cores' roofs).
    if (m_printing || !m_liveGraph || (m_drawn.tensorRuns || liveUsesTensorCores()) != m_drawn.tensorRoofs)
        return false;
    const std::optional<ChartPoint> live = livePoint(activeRoof().value_or(ActiveRoof{}));
    if (!live)
        return false;
    m_liveGraph->data()->clear();
    m_liveGraph->addData(live->intensity, live->tflops);
    syncLiveShown();
    for (qsizetype i = m_points.size() - 1; i >= 0; --i)
        if (m_points[i].kind == PointKind::Live) {
            m_points[i] = *live;
            break;
        }
    if (!m_plot->xAxis->range().contains(live->intensity) || !m_plot->yAxis->range().contains(live->tflops)) {
        const auto [x, y] = defaultView();
        m_plot->xAxis->setRange(x);
        m_plot->yAxis->setRange(y);
    }
    requestReplot();
    return true;
}

std::optional<QPointF> RooflineChart::predictedPoint() const
{
    if (!m_liveGraph || !m_liveGraph->visible() || m_liveGraph->data()->isEmpty())
        return std::nullopt;
    const auto it = m_liveGraph->data()->constBegin();
    return QPointF(it->key, it->value);
}

QString RooflineChart::runTooltip(const RunTip &tip) const
{
    const RunRecord &run = m_runs[tip.run];
    QStringList lines{runTitle(run)};
    if (!run.params.isEmpty())
        lines << formatRunParams(run);
    lines << QStringLiteral("AI predicted: %1  (%2)").arg(fmtIntensity(tip.predicted), tip.formula);
    lines << (tip.measured
                  ? QStringLiteral("AI measured: %1 (DRAM counters)").arg(fmtIntensity(*tip.measured))
                  : QStringLiteral("AI measured: hardware counters not available"));
    for (MemoryLevel level : kLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared)
            lines << QStringLiteral("AI measured at %1: %2 (counters)")
                         .arg(levelName(level), fmtIntensity(*ai));
    lines << QStringLiteral("achieved %1 (%2)").arg(formatGflops(tip.tflops), formatMs(run.medianMs));
    const double intensity = tip.measured.value_or(tip.predicted);
    // A TF32 run is judged against the tensor cores' roofs, never the FP32 one it can pass.
    const auto datasheetTf32 = tip.tensor ? tensorDatasheetRoof() : std::nullopt;
    const auto measuredTf32 = tip.tensor ? tensorMeasuredRoof() : std::nullopt;
    if (measuredTf32)
        lines << roofPercentText(tip.tflops, intensity, measuredTf32->label, measuredTf32->peakTflops,
                                 measuredTf32->bandwidthGBs);
    if (datasheetTf32)
        lines << roofPercentText(tip.tflops, intensity, datasheetTf32->label, datasheetTf32->peakTflops,
                                 datasheetTf32->bandwidthGBs);
    if (!tip.tensor && m_tipRoof.peakTflops > 0)
        lines << roofPercentText(tip.tflops, intensity, m_tipRoof.label, m_tipRoof.peakTflops,
                                 m_tipRoof.bandwidthGBs);
    // At each level, against that level's roof capped by the compute roof the run is judged by.
    const double levelPeak =
        tip.tensor ? (measuredTf32 ? measuredTf32->peakTflops : 0) : m_measuredFma.value_or(0);
    for (MemoryLevel level : kLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared;
            ai && levelPeak > 0)
            lines << roofPercentText(tip.tflops, *ai, levelName(level) + QStringLiteral(", measured"),
                                     levelPeak, levelBandwidth(level))
                         .replace(QStringLiteral("at this intensity"),
                                  QStringLiteral("at its %1 intensity").arg(levelName(level)));
    if (tip.tensor && !datasheetTf32 && !measuredTf32)
        lines << QStringLiteral("no TF32 roof for this GPU: measure its ceilings (sm_80 or newer)");
    if (tip.published)
        lines[0] = runTitle(run) + QStringLiteral(" — published in the worklog, not measured here");
    return lines.join(QLatin1Char('\n'));
}

const RooflineChart::ChartPoint &RooflineChart::pointWithTooltip(int index) const
{
    ChartPoint &point = m_points[index];
    if (point.tooltip.isEmpty())
        if (const auto tip = m_runTips.constFind(index); tip != m_runTips.cend())
            point.tooltip = runTooltip(*tip);
    return point;
}

const QList<RooflineChart::ChartPoint> &RooflineChart::points() const
{
    for (int i = 0; i < m_points.size(); ++i)
        pointWithTooltip(i);
    return m_points;
}

int RooflineChart::pointIndexAt(const QPointF &pixel) const
{
    int best = -1;
    double bestDistance = kHitRadiusPx;
    for (int i = 0; i < m_points.size(); ++i) {
        if (!pointDrawn(i))
            continue;
        const QPointF at(m_plot->xAxis->coordToPixel(m_points[i].intensity),
                         m_plot->yAxis->coordToPixel(m_points[i].tflops));
        const double distance = QLineF(at, pixel).length();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
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
    // Where it is drawn: its diamond where counters measured it and its disc is hidden.
    for (qsizetype i = 0; i < m_points.size(); ++i)
        if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == runId) {
            const ChartPoint &p = pointDrawn(i) ? m_points[i] : m_points[i + 1];
            return QPointF(m_plot->xAxis->coordToPixel(p.intensity), m_plot->yAxis->coordToPixel(p.tflops));
        }
    return std::nullopt;
}

} // namespace gemmscope
