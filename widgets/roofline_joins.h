// The roofline's dotted joins from each run's predicted (traffic model) to its measured intensity,
// as one item: a QCPItemLine per run made a 50,000-run session take a minute (each item a QObject,
// and clearing n items is O(n^2) in QCustomPlot). Drawn in plot coordinates, clipped to the axis
// rect like any item. With the model's intensities hidden (the chart's default: one
// marker a run) only the selected run's join is drawn.
#pragma once

#include "roofline_scene.h"
#include <QColor>
#include <QLineF>
#include <QList>
#include <QPen>
#include <cmath>
#include <optional>
#include <qcustomplot.h>
#include <set>
#include <tuple>

namespace gemmscope {

class RooflineJoins : public QCPAbstractItem {
public:
    explicit RooflineJoins(QCustomPlot *plot) : QCPAbstractItem(plot) {}
    void add(double x1, double x2, double y, const QColor &color)
    {
        // A segment already held (to within 0.1 % on the log axes, as the markers) is not held twice:
        // a 10,000-run session repeats a few configurations, and each replot drew them all.
        const auto quantised = [](double v) { return qint64(std::llround(std::log10(v) * 2000)); };
        if (m_held.insert({quantised(x1), quantised(x2), quantised(y), color.rgba()}).second)
            m_segments.append({x1, x2, y, color});
    }
    void setShowAll(bool on) { m_showAll = on; }
    // The one join drawn while not all are (the selected run's); nullopt: none.
    void setHighlighted(std::optional<std::tuple<double, double, double, QColor>> join)
    {
        m_highlighted.reset();
        if (join)
            m_highlighted =
                Segment{std::get<0>(*join), std::get<1>(*join), std::get<2>(*join), std::get<3>(*join)};
    }
    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; } // never selectable

    // What draw() strokes, in pixels (for the label placement and the tests).
    QList<QLineF> pixelSegments() const
    {
        QList<QLineF> lines;
        forEachDrawn([&lines](const QPointF &a, const QPointF &b, const QColor &) { lines << QLineF(a, b); });
        return lines;
    }

    // The segments drawn, in plot coordinates (a label's placing keeps clear of them).
    QList<roofline_scene::Polyline> drawnPolylines() const
    {
        QList<roofline_scene::Polyline> lines;
        if (m_showAll)
            for (const Segment &s : std::as_const(m_segments))
                lines << roofline_scene::Polyline{{QPointF(s.x1, s.y), QPointF(s.x2, s.y)}};
        else if (m_highlighted)
            lines << roofline_scene::Polyline{
                {QPointF(m_highlighted->x1, m_highlighted->y), QPointF(m_highlighted->x2, m_highlighted->y)}};
        return lines;
    }

protected:
    void draw(QCPPainter *painter) override
    {
        forEachDrawn([painter](const QPointF &a, const QPointF &b, const QColor &color) {
            painter->setPen(QPen(color, 1, Qt::DotLine));
            painter->drawLine(a, b);
        });
    }

private:
    struct Segment {
        double x1, x2, y;
        QColor color;
    };
    template <typename Draw> void forEachDrawn(Draw draw) const
    {
        QCPAxis *x = parentPlot()->xAxis, *y = parentPlot()->yAxis;
        // Segments that land on the same pixels are drawn once: many runs of one configuration
        // overlap exactly, and a dotted line is slow to stroke.
        std::set<std::tuple<int, int, int, QRgb>> drawn;
        const auto one = [&](const Segment &s) {
            const QPointF a(x->coordToPixel(s.x1), y->coordToPixel(s.y)), b(x->coordToPixel(s.x2), a.y());
            if (!std::isfinite(a.x()) || !std::isfinite(b.x()) || !std::isfinite(a.y()))
                return;
            if (drawn.insert(std::tuple(qRound(a.x()), qRound(b.x()), qRound(a.y()), s.color.rgba())).second)
                draw(a, b, s.color);
        };
        if (m_showAll)
            for (const Segment &s : std::as_const(m_segments))
                one(s);
        else if (m_highlighted)
            one(*m_highlighted);
    }
    QList<Segment> m_segments;
    std::set<std::tuple<qint64, qint64, qint64, QRgb>> m_held;
    bool m_showAll = true;
    std::optional<Segment> m_highlighted;
};

} // namespace gemmscope
