// The runtime chart's marks in pixels, as runtime_bar_frame.h and runtime_marks.h compute them: the
// bars' rects, the value labels that hide, and what is under the pointer.
#include "chart_row_bars.h"
#include "chart_text.h"
#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using namespace runtime_chart_style;

namespace {

// A value label's ink: its box across, its glyphs' height up and down. A line of 8 pt is ~13 px
// high with its leading and descent: where rows were 11 px apart (27 runs at 1600x1000) every other
// value hid behind its neighbour's box, though the digits (~8 px) were clear of each other and of
// the neighbouring rows' bars.
QRectF inkRect(QCPItemText *label)
{
    const QRectF box = labelRect(label);
    const QFontMetricsF metrics(label->font());
    const QRectF glyphs = metrics.tightBoundingRect(label->text());
    const double baseline = box.top() + label->padding().top() + metrics.ascent();
    return QRectF(box.left(), baseline + glyphs.top(), box.width(), glyphs.height());
}

} // namespace

QList<QRectF> RuntimeChart::referenceGaps(const QLineF &line) const
{
    // Each value and failure mark shown on the line, with a few pixels of room around its glyphs
    // (not its padding: the gap before a value keeps it off the whisker cap, not off a line): the
    // line stops short of them and goes on between rows. Only the texts whose box (measured once per
    // text) meets the line have their glyphs measured: a few, of up to kMaxLabelledBars values.
    const QRectF near =
        QRectF(line.p1(), line.p2()).normalized().adjusted(-kReferenceGapPx, -1, kReferenceGapPx, 1);
    QList<QRectF> gaps;
    for (const QList<QCPItemText *> *texts : {&m_valueLabels, &m_failureMarkers})
        for (QCPItemText *text : *texts)
            if (text->visible() && !text->text().isEmpty() && labelRect(text).intersects(near))
                gaps << labelGlyphRect(text).adjusted(-kReferenceGapPx, -1, kReferenceGapPx, 1);
    return gaps;
}

runtime_scene::BarFrame RuntimeChart::barFrame() const
{
    return runtime_scene::BarFrame{
        m_plot->axisRect()->rect(), keyAxis()->range().lower,
        keyAxis()->range().upper,   valueAxis()->range().lower,
        valueAxis()->range().upper, valueAxis()->scaleType() == QCPAxis::stLogarithmic};
}

QList<QRectF> RuntimeChart::barRects() const
{
    QList<QRectF> rects;
    const runtime_scene::BarFrame frame = barFrame();
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        auto *bars = qobject_cast<QCPBars *>(m_plot->plottable(i));
        if (!bars || !bars->visible())
            continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            rects << frame.barRect(it->key, it->value, bars->width());
    }
    return rects;
}

bool RuntimeChart::hideCrowdedLabels()
{
    if (m_valueLabels.isEmpty())
        return false;
    // A value label never sits over another label or over a bar (the speedup chart's neighbouring
    // bar, a row too low for its text): it hides, and the tooltip still gives the value
    // (runtime_bar_frame.h decides). Above the plot a little (no line there), never onto the axis
    // line under it.
    const QRectF bounds = QRectF(m_plot->axisRect()->rect()).adjusted(-1, -3, 1, -1);
    // The speedup chart's few bars all; the runtime chart's through the rows a label spans (every
    // label against 10,000 bars took longer than the replot).
    const QList<QRectF> allBars = m_mode == Mode::Runtime ? QList<QRectF>() : barRects();
    const runtime_scene::BarFrame frame = barFrame();
    // The selected run's frame, where updateSelectionMarks draws it.
    std::optional<runtime_scene::Bar> selection;
    if (const qsizetype row = m_printing ? -1 : m_slots.rowOf(m_selectedRunId);
        row >= 0 && m_slots[row].plotted)
        selection = runtime_scene::Bar{double(row), m_slots[row].value, kSelectionBarWidth};
    const auto meetsBar = [&](const QRectF &inner) {
        if (m_mode == Mode::Runtime)
            return runtime_scene::rowBarsMeet(frame, m_slots, kBarWidth, selection, inner);
        return std::any_of(allBars.cbegin(), allBars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(inner); });
    };
    QList<QRectF> marks, labels, inks;
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        if (marker->visible())
            marks << labelRect(marker);
    for (QCPItemText *label : std::as_const(m_valueLabels)) {
        labels << labelRect(label);
        inks << inkRect(label);
    }
    const QList<bool> shown = runtime_scene::shownValueLabels(bounds, labels, m_valueLabelRows, m_tickStride,
                                                              marks, meetsBar, inks);
    bool changed = false;
    for (qsizetype i = 0; i < m_valueLabels.size(); ++i) {
        changed = changed || m_valueLabels[i]->visible() != shown[i];
        m_valueLabels[i]->setVisible(shown[i]);
    }
    return changed;
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
