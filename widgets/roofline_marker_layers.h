// The roofline's markers as data, free of QCustomPlot: one layer a kind of mark and a stage's shade
// (the chart draws one graph a layer), in drawing order, each marker with how far it reaches. The
// label scene takes its markers from here (and the placing's cache key its moving marks), so what
// the texts keep clear of is computed and tested without reading the plot's graphs back.
#pragma once

#include "roofline_scene.h"

#include <QList>
#include <QPointF>
#include <map>
#include <set>
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

} // namespace gemmscope::roofline_scene
