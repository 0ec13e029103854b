// The roofline's dotted joins from each run's predicted (traffic model) to its measured intensity,
// as one item: a QCPItemLine per run made a 50,000-run session take a minute (each item a QObject,
// and clearing n items is O(n^2) in QCustomPlot). Drawn in plot coordinates, clipped to the axis
// rect like any item. With the model's intensities hidden (the chart's default: one
// marker a run) only the selected run's join is drawn.
#pragma once

#include "roofline_marker_layers.h"
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
    // Draws the joins `joins` says are drawn (roofline_marker_layers.h); the set outlives the item.
    RooflineJoins(QCustomPlot *plot, const roofline_scene::JoinSet *joins)
        : QCPAbstractItem(plot), m_joins(joins)
    {
    }
    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; } // never selectable

    // What draw() strokes, in pixels (for the label placement and the tests).
    QList<QLineF> pixelSegments() const
    {
        QList<QLineF> lines;
        forEachDrawn([&lines](const QPointF &a, const QPointF &b, const QColor &) { lines << QLineF(a, b); });
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
    template <typename Draw> void forEachDrawn(Draw draw) const
    {
        QCPAxis *x = parentPlot()->xAxis, *y = parentPlot()->yAxis;
        // Segments that land on the same pixels are drawn once: many runs of one configuration
        // overlap exactly, and a dotted line is slow to stroke.
        std::set<std::tuple<int, int, int, QRgb>> drawn;
        for (const roofline_scene::Join &s : m_joins->drawn()) {
            const QPointF a(x->coordToPixel(s.x1), y->coordToPixel(s.y)), b(x->coordToPixel(s.x2), a.y());
            if (!std::isfinite(a.x()) || !std::isfinite(b.x()) || !std::isfinite(a.y()))
                continue;
            if (drawn.insert(std::tuple(qRound(a.x()), qRound(b.x()), qRound(a.y()), s.color.rgba())).second)
                draw(a, b, s.color);
        }
    }
    const roofline_scene::JoinSet *m_joins;
};

} // namespace gemmscope
