// The runtime chart's plot in pixels, free of QCustomPlot: rows along the left axis from the top,
// values along the bottom (linear or logarithmic), mapped as QCustomPlot's axes map them, so that
// what is computed here is where the chart draws it. With it, which value labels show: none over
// another label, over a bar, outside the plot, or beside a row whose name is not written.
#pragma once

#include "runtime_slot_rows.h"

#include <QList>
#include <QRect>
#include <QRectF>
#include <functional>
#include <optional>

namespace gemmscope::runtime_scene {

struct BarFrame {
    QRect area;                        // the axis rect
    double keyLower = 0, keyUpper = 1; // rows; the key axis is reversed: the first row at the top
    double valueLower = 0, valueUpper = 1;
    bool logValues = false;

    double keyPixel(double key) const;
    double keyAt(double pixelY) const;
    double valuePixel(double value) const;
    double basePixel() const; // where every bar starts: the left edge on a log axis, 0 on a linear one
    QRectF barRect(double key, double value, double width) const;
};

// A bar drawn: its row, its value and its height in rows.
struct Bar {
    double key = 0, value = 0, width = 0;
};

// Whether a bar of the runtime view (each row's, kBarWidth rows high, and the selection's frame)
// meets `rect`.
bool rowBarsMeet(const BarFrame &frame, const RuntimeSlotRows &rows, double barWidth,
                 const std::optional<Bar> &selection, const QRectF &rect);

// Which value labels show, in order (an earlier one wins): each inside `bounds`, beside a named row
// (every tickStride-th: a value beside no name would be read as the named row's), over none of
// `kept` (the failure marks, then the labels shown before it) and on no bar. `inks`, where given
// (parallel to `labels`), are the labels' glyphs: what of a label must keep off the others. A line's
// box is taller than its digits (its leading and descent): neighbours 12 px apart, each 13 px high,
// hid every other value though their digits were 4 px apart.
QList<bool> shownValueLabels(const QRectF &bounds, const QList<QRectF> &labels, const QList<int> &labelRows,
                             int tickStride, QList<QRectF> kept,
                             const std::function<bool(const QRectF &)> &meetsBar,
                             const QList<QRectF> &inks = {});

} // namespace gemmscope::runtime_scene
