#include "runtime_bar_frame.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gemmscope::runtime_scene {

double BarFrame::keyPixel(double key) const
{
    return area.bottom() - (keyUpper - key) / (keyUpper - keyLower) * area.height();
}

double BarFrame::keyAt(double pixelY) const
{
    return -(area.bottom() - pixelY) / double(area.height()) * (keyUpper - keyLower) + keyUpper;
}

double BarFrame::valuePixel(double value) const
{
    if (!logValues)
        return (value - valueLower) / (valueUpper - valueLower) * area.width() + area.left();
    if (value >= 0 && valueUpper < 0)
        return area.right() + 200; // what a log axis cannot hold is drawn off the area
    if (value <= 0 && valueUpper > 0)
        return area.left() - 200;
    return std::log(value / valueLower) / std::log(valueUpper / valueLower) * area.width() + area.left();
}

double BarFrame::basePixel() const
{
    return logValues ? area.left() : valuePixel(0);
}

QRectF BarFrame::barRect(double key, double value, double width) const
{
    const double base = basePixel();
    const double top = keyPixel(key - width / 2);
    const double bottom = keyPixel(key + width / 2);
    const double end = valuePixel(value);
    return QRectF(QPointF(std::min(base, end), std::min(top, bottom)),
                  QPointF(std::max(base, end), std::max(top, bottom)));
}

namespace {

QList<QRectF> barRectsInRows(const BarFrame &frame, const RuntimeSlotRows &rows, double barWidth,
                             const std::optional<Bar> &selection, long long first, long long last)
{
    QList<QRectF> rects;
    for (long long row = std::max(0LL, first); row <= last && row < rows.size(); ++row)
        if (rows[row].plotted)
            rects << frame.barRect(double(row), rows[row].value, barWidth);
    if (selection && selection->key >= first && selection->key <= last)
        rects << frame.barRect(selection->key, selection->value, selection->width);
    return rects;
}

} // namespace

bool rowBarsMeet(const BarFrame &frame, const RuntimeSlotRows &rows, double barWidth,
                 const std::optional<Bar> &selection, const QRectF &rect)
{
    // With 10,000 thin rows a label spans hundreds of them. Every bar starts at one base, so of the
    // rows the rect spans wholly only the longest (or shortest) bar can reach it: found from the
    // values, one pixel worked out, where measuring each bar (a logarithm each) for each label took
    // a third of a replot. The rows at the rect's top and bottom edges are measured as drawn, the
    // selection's bar with them (its row's, a little taller: it reaches no farther).
    const auto anyDrawn = [&](long long first, long long last) {
        const QList<QRectF> bars = barRectsInRows(frame, rows, barWidth, selection, first, last);
        return std::any_of(bars.cbegin(), bars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(rect); });
    };
    const double a = frame.keyAt(rect.top()), b = frame.keyAt(rect.bottom());
    const double top = std::min(a, b), bottom = std::max(a, b);
    const auto first = static_cast<long long>(std::floor(top)) - 1,
               last = static_cast<long long>(std::ceil(bottom)) + 1;
    // The rows whose whole bar lies within the rect's height.
    const auto firstInside = std::max(0LL, static_cast<long long>(std::ceil(top + barWidth / 2 + 1e-9)));
    const auto lastInside = std::min(static_cast<long long>(rows.size()) - 1,
                                     static_cast<long long>(std::floor(bottom - barWidth / 2 - 1e-9)));
    if (firstInside > lastInside)
        return anyDrawn(first, last);
    if (anyDrawn(first, firstInside - 1) || anyDrawn(lastInside + 1, last))
        return true;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (long long row = firstInside; row <= lastInside; ++row)
        if (const RuntimeSlot &slot = rows[row]; slot.plotted) {
            lowest = std::min(lowest, slot.value);
            highest = std::max(highest, slot.value);
        }
    if (lowest > highest)
        return false; // no bar drawn there
    const double base = frame.basePixel();
    const double one = frame.valuePixel(lowest), other = frame.valuePixel(highest);
    if (base <= rect.left())
        return std::max(one, other) > rect.left();
    if (base >= rect.right())
        return std::min(one, other) < rect.right();
    return anyDrawn(firstInside, lastInside); // a rect across the bars' base: rare, measured
}

QList<bool> shownValueLabels(const QRectF &bounds, const QList<QRectF> &labels, const QList<int> &labelRows,
                             int tickStride, QList<QRectF> kept,
                             const std::function<bool(const QRectF &)> &meetsBar, const QList<QRectF> &inks)
{
    QList<bool> shown;
    shown.reserve(labels.size());
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QRectF &rect = labels[i];
        const QRectF inner = rect.adjusted(0.5, 0.5, -0.5, -0.5);
        const QRectF ink = i < inks.size() ? inks[i] : rect;
        const QRectF innerInk = ink.adjusted(0.5, 0.5, -0.5, -0.5);
        const auto hits = [&](const QRectF &r) { return r.intersects(innerInk); };
        const bool named = tickStride <= 1 || labelRows.value(i) % tickStride == 0;
        const bool free = named && bounds.contains(rect) && std::none_of(kept.cbegin(), kept.cend(), hits) &&
                          !meetsBar(inner);
        shown << free;
        if (free)
            kept << ink;
    }
    return shown;
}

} // namespace gemmscope::runtime_scene
