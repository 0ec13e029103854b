// The runtime chart's legend: runtime_scene.h says which entries; here each gets its icon.
#include "chart_text.h"
#include "plot_theme.h"
#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include <qcustomplot.h>

namespace gemmscope {

using namespace runtime_chart_style;

namespace {

// What the entries show, to tell whether the legend changed.
template <class Entries> QString lookOf(const Entries &entries)
{
    QStringList look;
    for (const auto &entry : entries)
        look << entry.text + QLatin1Char('|') + entry.look;
    return look.join(QLatin1Char('\n'));
}

} // namespace

void RuntimeChart::refreshLegend(LegendRows rows)
{
    // Laid out again only when an entry changes: new entries are measured again at the replot, a
    // millisecond at every run. The entries are read once: each reading goes over every row, and
    // the first selection in a 100,000-run session read them three times (20 ms).
    const QList<LegendEntry> entries = legendEntries(rows);
    QString look = lookOf(entries);
    if (look == m_legendLook)
        return;
    m_plot->legend->clearItems(); // every entry is a key item here (the bars are named on the axis)
    for (const LegendEntry &entry : entries)
        addKeyItem(m_plot, entry.text, entry.icon);
    m_legendLook = std::move(look);
}

// The legend: the ladder's groups (each with its stages' colours), the published hatch, the
// whiskers, the cuBLAS line and the failure mark — a handful of entries whatever the run count.
void RuntimeChart::addLegendKey()
{
    const QList<LegendEntry> entries = legendEntries();
    for (const LegendEntry &entry : entries)
        addKeyItem(m_plot, entry.text, entry.icon);
    m_legendLook = lookOf(entries);
}

QList<RuntimeChart::LegendEntry> RuntimeChart::legendEntries(LegendRows rows) const
{
    const QString referenceText = m_referenceLine ? m_referenceText : QString();
    const bool selectionShown = !m_printing && m_selectionBar;
    if (rows == LegendRows::Read || !m_legendRowsRead) {
        m_legendRowsRead =
            runtime_scene::legendInputs(m_slots, referenceText, m_markFailures, selectionShown);
        ++m_legendRowReads;
    }
    runtime_scene::LegendInputs in = *m_legendRowsRead;
    in.referenceText = referenceText;
    in.selectionShown = selectionShown;
    QList<LegendEntry> entries;
    for (const runtime_scene::LegendEntry &entry : runtime_scene::legendEntries(in))
        entries << LegendEntry{entry.text, legendIcon(entry), entry.look};
    return entries;
}

KeyLegendItem::IconPainter RuntimeChart::legendIcon(const runtime_scene::LegendEntry &entry) const
{
    using runtime_scene::LegendIcon;
    switch (entry.icon) {
    case LegendIcon::Stripes:
        return stripesIcon(entry.colors);
    case LegendIcon::Hatched:
        return stripesIcon(entry.colors, Qt::BDiagPattern);
    case LegendIcon::Whisker:
        return [](QCPPainter *p, const QRectF &icon) {
            const double y = icon.center().y();
            p->setPen(QPen(Qt::black, 1));
            p->drawLine(QPointF(icon.left() + 2, y), QPointF(icon.right() - 2, y));
            p->drawLine(QPointF(icon.left() + 2, icon.top() + 2),
                        QPointF(icon.left() + 2, icon.bottom() - 2));
            p->drawLine(QPointF(icon.right() - 2, icon.top() + 2),
                        QPointF(icon.right() - 2, icon.bottom() - 2));
        };
    case LegendIcon::Reference: {
        const QPen pen = m_referenceLine ? m_referenceLine->pen() : QPen();
        return [pen](QCPPainter *p, const QRectF &icon) {
            p->setPen(pen);
            p->drawLine(QPointF(icon.center().x(), icon.top()), QPointF(icon.center().x(), icon.bottom()));
        };
    }
    case LegendIcon::NotSteadyDot:
        return [](QCPPainter *p, const QRectF &icon) {
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(0x20, 0x20, 0x20));
            p->drawEllipse(icon.center(), 1.8, 1.8);
        };
    case LegendIcon::Failed:
        return [](QCPPainter *p, const QRectF &icon) {
            p->setPen(QPen(wrongResultColor(), 2));
            p->drawLine(icon.center() + QPointF(-4, -4), icon.center() + QPointF(4, 4));
            p->drawLine(icon.center() + QPointF(-4, 4), icon.center() + QPointF(4, -4));
        };
    case LegendIcon::Selection:
        break;
    }
    return [](QCPPainter *p, const QRectF &icon) {
        p->setPen(QPen(kSelectionColor, 2));
        p->setBrush(Qt::NoBrush);
        p->drawRect(icon.adjusted(2, 2, -2, -2));
    };
}

} // namespace gemmscope
