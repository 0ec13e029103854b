#include "gapped_line.h"

#include <algorithm>
#include <cmath>

namespace gemmscope {

namespace {

// Where, as a share t of the way from p1 to p2, `line` runs inside `rect` (Liang-Barsky): [enter,
// leave], or an empty interval (enter > leave) where it misses the rect.
std::pair<double, double> insideInterval(const QLineF &line, const QRectF &rect)
{
    double enter = 0, leave = 1;
    const double dx = line.dx(), dy = line.dy();
    // Each of the rect's four sides as p * t <= q.
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {line.x1() - rect.left(), rect.right() - line.x1(), line.y1() - rect.top(),
                         rect.bottom() - line.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return {1, 0}; // parallel to this side and outside it
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            enter = std::max(enter, t);
        else
            leave = std::min(leave, t);
    }
    return {enter, leave};
}

} // namespace

QList<QLineF> segmentsClearOf(const QLineF &line, const QList<QRectF> &gaps)
{
    QList<std::pair<double, double>> covered;
    for (const QRectF &gap : gaps)
        if (const auto interval = insideInterval(line, gap.normalized()); interval.first < interval.second)
            covered << interval;
    std::sort(covered.begin(), covered.end());
    QList<QLineF> segments;
    double from = 0;
    for (const auto &[enter, leave] : std::as_const(covered)) {
        if (enter > from)
            segments << QLineF(line.pointAt(from), line.pointAt(enter));
        from = std::max(from, leave);
    }
    if (from < 1)
        segments << QLineF(line.pointAt(from), line.p2());
    return segments;
}

GappedStraightLine::GappedStraightLine(QCustomPlot *plot) : QCPItemStraightLine(plot) {}

QList<QLineF> GappedStraightLine::drawnSegments() const
{
    // The part of the endless line inside the clip rect, as QCPItemStraightLine draws it.
    const QCPVector2D start(point1->pixelPosition());
    const QCPVector2D end(point2->pixelPosition());
    const int pad = int(std::ceil(mainPen().widthF()));
    const QLineF line =
        getRectClippedStraightLine(start, end - start, clipRect().adjusted(-pad, -pad, pad, pad));
    if (line.isNull())
        return {};
    return segmentsClearOf(line, m_gaps ? m_gaps(line) : QList<QRectF>());
}

void GappedStraightLine::draw(QCPPainter *painter)
{
    painter->setPen(mainPen());
    for (const QLineF &segment : drawnSegments())
        painter->drawLine(segment);
}

} // namespace gemmscope
