// The roofline's markers and dotted joins as data, free of QCustomPlot: one layer of markers a kind
// of mark and a stage's shade (the chart draws one graph a layer), in drawing order, each marker with
// how far it reaches; the joins from runs' model intensities to their measured ones, and which of
// them are drawn. The label scene takes its markers and lines from here (and the placing's cache key
// its moving marks), so what the texts keep clear of is computed and tested without reading the
// plot's graphs or items back.
#pragma once

#include "roofline_scene.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace gemmscope::roofline_scene {

// How a layer's markers are drawn: the chart draws its symbols with these numbers.
struct MarkerSize {
    double size = 8;     // the symbol's box, pixels
    double penWidth = 1; // its outline
    // How far a marker reaches from its centre: half its box and half its pen, and half a pixel of
    // antialiasing.
    double radius() const { return size / 2 + penWidth / 2 + 0.5; }
    friend bool operator==(const MarkerSize &, const MarkerSize &) = default;
};

class MarkerLayers {
public:
    using Id = int;

    void clear();
    // A new layer, drawn over every layer before it.
    Id add(MarkRole role, MarkerSize size);
    void remove(Id id);
    bool contains(Id id) const { return m_layers.count(id) > 0; }

    // A marker at (intensity, TFLOP/s), unless the layer has one at that place already (closer than
    // ~0.1 % on both log axes, a fifth of a pixel): in a long session many runs of one configuration
    // fall on one spot, and each marker costs a drawn symbol in every replot and export. Returns
    // whether it was added (and is to be drawn).
    bool addMerged(Id id, double intensity, double tflops);
    void append(Id id, double intensity, double tflops); // always: the worklog's few steps
    void clearPoints(Id id);
    void setVisible(Id id, bool visible);
    void setSize(Id id, MarkerSize size);
    MarkerSize size(Id id) const;
    // A layer's markers in intensity order, as the plot keeps them (a marker at an intensity drawn
    // already goes before the ones there).
    QList<QPointF> points(Id id) const;

    // Every marker shown, layer by layer in drawing order, each with its reach in pixels.
    QList<Mark> marks() const;
    // The markers shown of the layers of `role`.
    QList<Mark> marks(MarkRole role) const;
    qsizetype count() const; // markers in every layer, shown or not

private:
    struct Layer {
        MarkRole role = MarkRole::RunModel;
        MarkerSize size;
        bool visible = true;
        QList<QPointF> points;
        std::set<std::pair<qint64, qint64>> places; // of the merged markers
    };
    std::map<Id, Layer> m_layers; // by id: the order they were added is the drawing order
    Id m_next = 0;
};

// A dotted join: a run's model intensity (x1) to its measured one (x2), at its throughput (y).
struct Join {
    double x1 = 0, x2 = 0, y = 0;
    QColor color;
    friend bool operator==(const Join &, const Join &) = default;
};

class JoinSet {
public:
    void clear();
    // A join, unless one is held already to within 0.1 % on the log axes (as the markers): a
    // 10,000-run session repeats a few configurations, and each replot drew them all.
    bool add(const Join &join);
    // Every join drawn (the model's intensities shown), or only the highlighted one.
    void setShowAll(bool on) { m_showAll = on; }
    // The one join drawn while not all are (the selected run's); nullopt: none.
    void setHighlighted(std::optional<Join> join) { m_highlighted = join; }
    QList<Join> drawn() const;
    QList<Polyline> drawnPolylines() const; // in plot coordinates

private:
    QList<Join> m_joins;
    std::set<std::tuple<qint64, qint64, qint64, QRgb>> m_held;
    bool m_showAll = true;
    std::optional<Join> m_highlighted;
};

} // namespace gemmscope::roofline_scene
