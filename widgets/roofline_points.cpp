#include "roofline_points.h"

#include <QLineF>
#include <algorithm>
#include <cmath>

namespace gemmscope::roofline_scene {

void PointSet::clear()
{
    m_points.clear();
    m_tips.clear();
    m_live.reset();
    m_liveShown = true;
}

bool PointSet::any(PointKind kind) const
{
    return std::any_of(m_points.cbegin(), m_points.cend(),
                       [kind](const ChartPoint &p) { return p.kind == kind; });
}

void PointSet::add(const ChartPoint &point)
{
    m_points.append(point);
}

void PointSet::addRun(const ChartPoint &point, const RunTip &tip)
{
    m_tips.insert(m_points.size(), tip);
    m_points.append(point);
}

const RunTip *PointSet::runTip(qsizetype index) const
{
    const auto it = m_tips.constFind(index);
    return it == m_tips.cend() ? nullptr : &*it;
}

void PointSet::setTooltip(qsizetype index, const QString &tooltip)
{
    m_points[index].tooltip = tooltip;
}

void PointSet::runRemoved(qsizetype run)
{
    for (RunTip &tip : m_tips)
        if (tip.run > run)
            --tip.run;
}

void PointSet::setLive(const ChartPoint &point)
{
    if (m_live) {
        m_points[*m_live] = point;
        return;
    }
    m_live = m_points.size();
    m_points.append(point);
}

bool PointSet::hasMeasuredPoint(qsizetype index) const
{
    return m_points[index].kind == PointKind::RunPredicted && index + 1 < m_points.size() &&
           m_points[index + 1].kind == PointKind::RunMeasured &&
           m_points[index + 1].runId == m_points[index].runId;
}

bool PointSet::drawn(qsizetype index) const
{
    if (m_live && index == *m_live)
        return m_liveShown;
    return !hasMeasuredPoint(index) || m_view.showModel ||
           (m_view.showSelection && m_points[index].runId == m_view.selectedRunId);
}

qsizetype PointSet::indexAt(const PlotFrame &frame, const QPointF &pixel) const
{
    qsizetype best = -1;
    double bestDistance = kHitRadiusPx;
    for (qsizetype i = 0; i < m_points.size(); ++i) {
        if (!drawn(i))
            continue;
        const double distance =
            QLineF(frame.pixelOf(m_points[i].intensity, m_points[i].tflops), pixel).length();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

std::optional<QPointF> PointSet::pixelOfRun(const PlotFrame &frame, const QString &runId) const
{
    for (qsizetype i = 0; i < m_points.size(); ++i)
        if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == runId) {
            const ChartPoint &p = drawn(i) ? m_points[i] : m_points[i + 1];
            return frame.pixelOf(p.intensity, p.tflops);
        }
    return std::nullopt;
}

std::optional<Selection> PointSet::selection() const
{
    if (!m_view.showSelection || m_view.selectedRunId.isEmpty())
        return std::nullopt;
    for (qsizetype i = 0; i < m_points.size(); ++i)
        if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == m_view.selectedRunId) {
            Selection s;
            s.model = i;
            const bool diamond = hasMeasuredPoint(i);
            s.shown = diamond ? i + 1 : i;
            if (const RunTip *tip = runTip(i))
                s.run = tip->run;
            s.modelDiscShown = diamond && !m_view.showModel && s.run;
            return s;
        }
    return std::nullopt;
}

QList<ViewPoint> PointSet::viewPoints() const
{
    QList<ViewPoint> points;
    for (qsizetype i = 0; i < m_points.size(); ++i)
        // A run's hidden model disc is not kept in sight (the selected run's may lie outside: its
        // join runs off the edge).
        if (!hasMeasuredPoint(i) || m_view.showModel)
            points << ViewPoint{m_points[i].intensity, m_points[i].tflops,
                                m_points[i].kind == PointKind::Live};
    return points;
}

MarkRole labelRole(PointKind kind)
{
    return kind == PointKind::RunMeasured ? MarkRole::RunMeasured
           : kind == PointKind::WorklogT4 ? MarkRole::Published
                                          : MarkRole::RunModel;
}

QList<qsizetype> addPointLabels(const PointSet &points, qsizetype from, QList<PointLabel> &labels)
{
    QList<qsizetype> grown;
    for (qsizetype i = from; i < points.size(); ++i) {
        const ChartPoint &p = points[i];
        if (p.label.isEmpty() || p.kind == PointKind::Live)
            continue;
        if (p.kind == PointKind::RunPredicted && points.hasMeasuredPoint(i))
            continue;
        const MarkRole role = labelRole(p.kind);
        auto near = std::find_if(labels.begin(), labels.end(), [&](const PointLabel &l) {
            return l.role == role && l.texts.contains(p.label) &&
                   std::abs(std::log10(l.intensity / p.intensity)) < 1e-3 &&
                   std::abs(std::log10(l.tflops / p.tflops)) < 0.01;
        });
        if (near != labels.end())
            continue;
        // Points on the very same spot with other labels share one, as before any zoom.
        near = std::find_if(labels.begin(), labels.end(), [&](const PointLabel &l) {
            return l.role == role && std::abs(std::log10(l.intensity / p.intensity)) < 1e-6 &&
                   std::abs(std::log10(l.tflops / p.tflops)) < 1e-6;
        });
        if (near != labels.end()) {
            near->texts.append(p.label);
            if (const qsizetype at = near - labels.begin(); !grown.contains(at))
                grown << at;
            continue;
        }
        if (labels.size() >= kMaxPointLabels)
            continue;
        labels.append(PointLabel{role, p.intensity, p.tflops, {p.label}, p.color});
    }
    return grown;
}

} // namespace gemmscope::roofline_scene
