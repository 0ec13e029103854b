// Where the runtime chart's marks are in pixels: the bars' rects, the value labels that would sit
// on another label or a bar, and what is under the pointer.
#include "chart_row_bars.h"
#include "chart_text.h"
#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using namespace runtime_chart_style;

double RuntimeChart::barBasePixel() const
{
    return valueAxis()->scaleType() == QCPAxis::stLogarithmic ? m_plot->axisRect()->left()
                                                              : valueAxis()->coordToPixel(0);
}

QRectF RuntimeChart::barRect(double key, double value, double width, double base) const
{
    QCPAxis *keys = keyAxis(), *values = valueAxis();
    const double top = keys->coordToPixel(key - width / 2);
    const double bottom = keys->coordToPixel(key + width / 2);
    const double end = values->coordToPixel(value);
    return QRectF(QPointF(std::min(base, end), std::min(top, bottom)),
                  QPointF(std::max(base, end), std::max(top, bottom)));
}

QList<QRectF> RuntimeChart::barRects() const
{
    QList<QRectF> rects;
    const double base = barBasePixel();
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        auto *bars = qobject_cast<QCPBars *>(m_plot->plottable(i));
        if (!bars || !bars->visible())
            continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            rects << barRect(it->key, it->value, bars->width(), base);
    }
    return rects;
}

QList<QRectF> RuntimeChart::barRectsInRows(int first, int last, double base) const
{
    QList<QRectF> rects;
    for (int row = std::max(0, first); row <= last && row < m_slots.size(); ++row)
        if (m_slots[row].plotted)
            rects << barRect(row, m_slots[row].value, kBarWidth, base);
    if (m_selectionBar && !m_selectionBar->data()->isEmpty()) {
        const auto it = m_selectionBar->data()->constBegin();
        if (it->key >= first && it->key <= last)
            rects << barRect(it->key, it->value, m_selectionBar->width(), base);
    }
    return rects;
}

bool RuntimeChart::hideCrowdedLabels()
{
    if (m_valueLabels.isEmpty())
        return false;
    // A value label never sits over another label or over a bar (the speedup chart's neighbouring
    // bar, a row too low for its text): it hides, and the tooltip still gives the value.
    // Above the plot a little (no line there), never onto the axis line under it.
    const QRectF bounds = QRectF(m_plot->axisRect()->rect()).adjusted(-1, -3, 1, -1);
    // The speedup chart's few bars all; the runtime chart's through the rows a label spans (every
    // label against 10,000 bars took longer than the replot).
    const QList<QRectF> allBars = m_mode == Mode::Runtime ? QList<QRectF>() : barRects();
    const double base = barBasePixel();
    const auto hitsBar = [&](const QRectF &inner) {
        if (m_mode == Mode::Runtime)
            return runtimeBarMeets(inner, base);
        return std::any_of(allBars.cbegin(), allBars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(inner); });
    };
    QList<QRectF> kept;
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        if (marker->visible())
            kept << labelRect(marker);
    bool changed = false;
    for (int i = 0; i < m_valueLabels.size(); ++i) {
        QCPItemText *label = m_valueLabels[i];
        const QRectF rect = labelRect(label);
        const QRectF inner = rect.adjusted(0.5, 0.5, -0.5, -0.5);
        const auto hits = [&](const QRectF &r) { return r.intersects(inner); };
        // Where only every n-th row is named, only its values are shown: a value beside no name
        // would be read as the named row's.
        const bool named = m_tickStride <= 1 || m_valueLabelRows.value(i) % m_tickStride == 0;
        const bool free = named && bounds.contains(rect) && std::none_of(kept.cbegin(), kept.cend(), hits) &&
                          !hitsBar(inner);
        changed = changed || label->visible() != free;
        label->setVisible(free);
        if (free)
            kept << rect;
    }
    return changed;
}

bool RuntimeChart::runtimeBarMeets(const QRectF &rect, double base) const
{
    // With 10,000 thin rows a label spans hundreds of them. Every bar starts at one base, so of the
    // rows the rect spans wholly only the longest (or shortest) bar can reach it: found from the
    // values, one pixel worked out, where measuring each bar (a logarithm each) for each label took
    // a third of a replot (2026-12-02). The rows at the rect's top and bottom edges are measured as
    // drawn, the selection's bar with them (its row's, a little taller: it reaches no farther).
    const auto anyDrawn = [&](long long first, long long last) {
        const QList<QRectF> bars = barRectsInRows(int(first), int(last), base);
        return std::any_of(bars.cbegin(), bars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(rect); });
    };
    const double a = keyAxis()->pixelToCoord(rect.top()), b = keyAxis()->pixelToCoord(rect.bottom());
    const double top = std::min(a, b), bottom = std::max(a, b);
    const auto first = static_cast<long long>(std::floor(top)) - 1,
               last = static_cast<long long>(std::ceil(bottom)) + 1;
    // The rows whose whole bar lies within the rect's height.
    const auto firstInside = std::max(0LL, static_cast<long long>(std::ceil(top + kBarWidth / 2 + 1e-9)));
    const auto lastInside = std::min(static_cast<long long>(m_slots.size()) - 1,
                                     static_cast<long long>(std::floor(bottom - kBarWidth / 2 - 1e-9)));
    if (firstInside > lastInside)
        return anyDrawn(first, last);
    if (anyDrawn(first, firstInside - 1) || anyDrawn(lastInside + 1, last))
        return true;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (long long row = firstInside; row <= lastInside; ++row)
        if (const RuntimeSlot &slot = m_slots[row]; slot.plotted) {
            lowest = std::min(lowest, slot.value);
            highest = std::max(highest, slot.value);
        }
    if (lowest > highest)
        return false; // no bar drawn there
    const double one = valueAxis()->coordToPixel(lowest), other = valueAxis()->coordToPixel(highest);
    if (base <= rect.left())
        return std::max(one, other) > rect.left();
    if (base >= rect.right())
        return std::min(one, other) < rect.right();
    return anyDrawn(firstInside, lastInside); // a rect across the bars' base: rare, measured
}

int RuntimeChart::slotIndexAt(const QPointF &pixel) const
{
    if (!m_plot->axisRect()->rect().contains(pixel.toPoint()))
        return -1;
    return runtime_scene::rowAt(keyAxis()->pixelToCoord(pixel.y()),
                                m_mode == Mode::Runtime ? m_slots.size() : m_speedups.size());
}

QString RuntimeChart::runIdAt(const QPointF &pixel) const
{
    const int index = slotIndexAt(pixel);
    if (index < 0)
        return QString();
    // In the speedup panel a row is its measured run.
    return m_mode == Mode::Runtime ? runtime_scene::runIdOf(m_slots[index])
                                   : runtime_scene::runIdOf(m_speedups[index]);
}

QString RuntimeChart::tooltipAt(const QPointF &pixel) const
{
    const int index = slotIndexAt(pixel);
    if (index < 0)
        return QString();
    if (m_mode == Mode::Speedup)
        return runtime_scene::speedupTooltip(m_speedups[index]);
    const QList<RunRecord> plotted = plottedRuns();
    return runtime_scene::slotTooltip(m_slots[index], cublasFp32Reference(plotted),
                                      cublasTf32Reference(plotted));
}

std::optional<QPointF> RuntimeChart::pixelOfRun(const QString &runId) const
{
    const QCPAxisRect *rect = m_plot->axisRect();
    // Just inside the bar's start: every bar, however short, covers it.
    const double x = rect->left() + 4;
    if (m_mode == Mode::Runtime) {
        if (const qsizetype row = m_slots.rowOf(runId); row >= 0)
            return QPointF(x, keyAxis()->coordToPixel(double(row)));
        return std::nullopt;
    }
    for (int i = 0; i < m_speedups.size(); ++i)
        if (m_speedups[i].measuredRunId == runId && m_speedups[i].measuredSpeedup)
            return QPointF(x, keyAxis()->coordToPixel(i));
    return std::nullopt;
}

} // namespace gemmscope
