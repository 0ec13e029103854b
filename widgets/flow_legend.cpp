#include "flow_legend.h"

#include <algorithm>

namespace gemmscope {

QList<int> flowRowStarts(const QList<int> &widths, int available, int spacing)
{
    QList<int> starts;
    int used = 0; // of the current row
    for (int i = 0; i < widths.size(); ++i) {
        if (starts.isEmpty() || used + spacing + widths[i] > available) {
            starts << i;
            used = widths[i];
        } else {
            used += spacing + widths[i];
        }
    }
    return starts;
}

void FlowLegend::setFlowWidth(int width)
{
    m_flowWidth = std::max(0, width);
}

QList<QCPLayoutElement *> FlowLegend::entries() const
{
    QList<QCPLayoutElement *> out;
    for (int i = 0; i < elementCount(); ++i)
        if (QCPLayoutElement *element = elementAt(i))
            out << element;
    return out;
}

QList<int> FlowLegend::entryWidths() const
{
    QList<int> widths;
    for (const QCPLayoutElement *entry : entries())
        widths << entry->minimumOuterSizeHint().width();
    return widths;
}

QSize FlowLegend::minimumOuterSizeHint() const
{
    if (m_flowWidth <= 0)
        return QCPLegend::minimumOuterSizeHint();
    const QList<QCPLayoutElement *> all = entries();
    const QList<int> widths = entryWidths();
    const int available = m_flowWidth - mMargins.left() - mMargins.right();
    QList<int> starts = flowRowStarts(widths, available, mColumnSpacing);
    starts << int(all.size());
    int width = 0, height = 0;
    for (int row = 0; row + 1 < starts.size(); ++row) {
        int rowWidth = 0, rowHeight = 0;
        for (int i = starts[row]; i < starts[row + 1]; ++i) {
            rowWidth += widths[i] + (i > starts[row] ? mColumnSpacing : 0);
            rowHeight = std::max(rowHeight, all[i]->minimumOuterSizeHint().height());
        }
        width = std::max(width, rowWidth);
        height += rowHeight + (row > 0 ? mRowSpacing : 0);
    }
    return {width + mMargins.left() + mMargins.right(), height + mMargins.top() + mMargins.bottom()};
}

void FlowLegend::updateLayout()
{
    if (m_flowWidth <= 0) {
        QCPLegend::updateLayout();
        return;
    }
    // Left to right in rows as wide as the legend's rect, each row as high as its highest entry.
    const QList<QCPLayoutElement *> all = entries();
    const QList<int> widths = entryWidths();
    QList<int> starts = flowRowStarts(widths, mRect.width(), mColumnSpacing);
    starts << int(all.size());
    int y = mRect.top();
    for (int row = 0; row + 1 < starts.size(); ++row) {
        int rowHeight = 0;
        for (int i = starts[row]; i < starts[row + 1]; ++i)
            rowHeight = std::max(rowHeight, all[i]->minimumOuterSizeHint().height());
        int x = mRect.left();
        for (int i = starts[row]; i < starts[row + 1]; ++i) {
            all[i]->setOuterRect(QRect(x, y, widths[i], rowHeight));
            x += widths[i] + mColumnSpacing;
        }
        y += rowHeight + mRowSpacing;
    }
}

FlowLegend *useFlowLegend(QCustomPlot *plot)
{
    delete plot->legend; // leaves its layout and clears plot->legend
    auto *legend = new FlowLegend;
    // Where QCustomPlot keeps its own: in the axis rect (adopted there, it learns its plot), on the
    // legend layer, hidden until placed.
    plot->axisRect()->insetLayout()->addElement(legend, Qt::AlignRight | Qt::AlignTop);
    plot->legend = legend;
    legend->setLayer(QStringLiteral("legend"));
    legend->setVisible(false);
    return legend;
}

} // namespace gemmscope
