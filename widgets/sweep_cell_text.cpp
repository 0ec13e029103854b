#include "sweep_cell_text.h"

#include <QFontMetrics>
#include <QStringList>

namespace gemmscope {

namespace {

// `words` on as few lines as `width` allows, greedily; empty when a word alone is wider.
QStringList breakIntoLines(const QStringList &words, const QFontMetrics &metrics, double width)
{
    QStringList lines;
    for (const QString &word : words) {
        if (metrics.horizontalAdvance(word) > width)
            return {};
        const QString joined = lines.isEmpty() ? word : lines.last() + QLatin1Char(' ') + word;
        if (!lines.isEmpty() && metrics.horizontalAdvance(joined) <= width)
            lines.last() = joined;
        else
            lines << word;
    }
    return lines;
}

} // namespace

FittedCellText fitCellText(const SweepCellText &cell, const QFontMetrics &metrics, const QSizeF &cellPx)
{
    QStringList head{cell.value};
    QStringList tail;
    if (!cell.marks.isEmpty())
        tail << cell.marks;
    FittedCellText fitted;
    if (!cell.params.isEmpty()) {
        const double width = cellPx.width() - 2 * kCellTextPadding;
        const double height = cellPx.height() - 2 * kCellTextPadding;
        const QStringList params =
            breakIntoLines(cell.params.split(QLatin1Char(' '), Qt::SkipEmptyParts), metrics, width);
        const qsizetype lines = head.size() + params.size() + tail.size();
        if (!params.isEmpty() && lines * metrics.lineSpacing() <= height) {
            head << params;
            fitted.paramsShown = true;
        }
    }
    fitted.text = (head + tail).join(QLatin1Char('\n'));
    return fitted;
}

} // namespace gemmscope
