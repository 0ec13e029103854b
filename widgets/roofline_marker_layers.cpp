#include "roofline_marker_layers.h"

#include <algorithm>
#include <cmath>

namespace gemmscope::roofline_scene {

namespace {

// Two thousand steps a decade: ~0.1 %, a fifth of a pixel of a plot a decade 400 px wide.
constexpr double kPlacesPerDecade = 2000;

qint64 placeOf(double value)
{
    return qint64(std::llround(std::log10(value) * kPlacesPerDecade));
}

} // namespace

void MarkerLayers::clear()
{
    m_layers.clear();
    m_next = 0;
}

MarkerLayers::Id MarkerLayers::add(MarkRole role, MarkerSize size)
{
    const Id id = m_next++;
    m_layers[id] = Layer{role, size, true, {}, {}};
    return id;
}

void MarkerLayers::remove(Id id)
{
    m_layers.erase(id);
}

bool MarkerLayers::addMerged(Id id, double intensity, double tflops)
{
    const auto it = m_layers.find(id);
    if (it == m_layers.end() || !it->second.places.insert({placeOf(intensity), placeOf(tflops)}).second)
        return false;
    append(id, intensity, tflops);
    return true;
}

void MarkerLayers::append(Id id, double intensity, double tflops)
{
    const auto it = m_layers.find(id);
    if (it == m_layers.end())
        return;
    QList<QPointF> &points = it->second.points;
    const QPointF point(intensity, tflops);
    // Kept as the plot keeps its data: appended at or past the last intensity, else before the first
    // marker at or past its own.
    if (points.isEmpty() || intensity >= points.last().x()) {
        points.append(point);
        return;
    }
    const auto at = std::lower_bound(points.begin(), points.end(), intensity,
                                     [](const QPointF &p, double x) { return p.x() < x; });
    points.insert(at, point);
}

void MarkerLayers::clearPoints(Id id)
{
    if (const auto it = m_layers.find(id); it != m_layers.end()) {
        it->second.points.clear();
        it->second.places.clear();
    }
}

void MarkerLayers::setVisible(Id id, bool visible)
{
    if (const auto it = m_layers.find(id); it != m_layers.end())
        it->second.visible = visible;
}

void MarkerLayers::setSize(Id id, MarkerSize size)
{
    if (const auto it = m_layers.find(id); it != m_layers.end())
        it->second.size = size;
}

MarkerSize MarkerLayers::size(Id id) const
{
    const auto it = m_layers.find(id);
    return it == m_layers.end() ? MarkerSize{} : it->second.size;
}

QList<QPointF> MarkerLayers::points(Id id) const
{
    const auto it = m_layers.find(id);
    return it == m_layers.end() ? QList<QPointF>() : it->second.points;
}

QList<Mark> MarkerLayers::marks() const
{
    QList<Mark> marks;
    marks.reserve(count());
    for (const auto &[id, layer] : m_layers)
        if (layer.visible)
            for (const QPointF &p : layer.points)
                marks << Mark{layer.role, p.x(), p.y(), layer.size.radius()};
    return marks;
}

QList<Mark> MarkerLayers::marks(MarkRole role) const
{
    QList<Mark> marks;
    for (const auto &[id, layer] : m_layers)
        if (layer.visible && layer.role == role)
            for (const QPointF &p : layer.points)
                marks << Mark{layer.role, p.x(), p.y(), layer.size.radius()};
    return marks;
}

void JoinSet::clear()
{
    m_joins.clear();
    m_held.clear();
    m_showAll = true;
    m_highlighted.reset();
}

bool JoinSet::add(const Join &join)
{
    if (!m_held.insert({placeOf(join.x1), placeOf(join.x2), placeOf(join.y), join.color.rgba()}).second)
        return false;
    m_joins.append(join);
    return true;
}

QList<Join> JoinSet::drawn() const
{
    if (m_showAll)
        return m_joins;
    return m_highlighted ? QList<Join>{*m_highlighted} : QList<Join>();
}

QList<Polyline> JoinSet::drawnPolylines() const
{
    QList<Polyline> lines;
    for (const Join &j : drawn())
        lines << Polyline{{QPointF(j.x1, j.y), QPointF(j.x2, j.y)}};
    return lines;
}

qsizetype MarkerLayers::count() const
{
    qsizetype n = 0;
    for (const auto &[id, layer] : m_layers)
        n += layer.points.size();
    return n;
}

} // namespace gemmscope::roofline_scene
