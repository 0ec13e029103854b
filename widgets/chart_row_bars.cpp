#include "chart_row_bars.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gemmscope {

bool RowBars::thin() const
{
    const QCPAxis *key = keyAxis();
    return key && std::abs(key->coordToPixel(width()) - key->coordToPixel(0)) < kThinBarPx;
}

void RowBars::draw(QCPPainter *painter)
{
    if (!keyAxis() || !valueAxis() || mDataContainer->isEmpty() || !thin()) {
        QCPBars::draw(painter);
        return;
    }
    QCPBarsDataContainer::const_iterator begin, end;
    getVisibleDataBounds(begin, end);
    if (begin == end)
        return;
    // The span each pixel row covers: from the leftmost to the rightmost end of its bars (the bars
    // of one stage lie in one block of rows, so the rows are few and contiguous). Every bar starts
    // at the same base, so a row's span is that of its smallest and its largest value: two bar
    // rects a row, not one a bar (10,000 bars' rects, each two log-scale conversions, were a third
    // of the runtime chart's replot in a sweep-sized session).
    const bool vertical = keyAxis()->orientation() == Qt::Vertical;
    struct Row {
        double key = 0, low = 0, high = 0;
        bool used = false;
    };
    std::vector<Row> rows;
    int firstRow = 0;
    for (auto it = begin; it != end; ++it) {
        const int row = int(std::floor(keyAxis()->coordToPixel(it->key))); // the bar's centre line
        if (rows.empty())
            firstRow = row;
        if (row < firstRow) { // a reversed axis: grow at the front
            rows.insert(rows.begin(), std::size_t(firstRow - row), Row{});
            firstRow = row;
        }
        if (std::size_t(row - firstRow) >= rows.size())
            rows.resize(std::size_t(row - firstRow) + 1);
        Row &r = rows[std::size_t(row - firstRow)];
        r.low = r.used ? std::min(r.low, it->value) : it->value;
        r.high = r.used ? std::max(r.high, it->value) : it->value;
        r.key = r.used ? r.key : it->key;
        r.used = true;
    }
    struct Span {
        double from = 0, to = 0;
        bool used = false;
    };
    std::vector<Span> spans(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].used)
            continue;
        const QRectF bar = getBarRect(rows[i].key, rows[i].low).united(getBarRect(rows[i].key, rows[i].high));
        spans[i] = vertical ? Span{bar.left(), bar.right(), true} : Span{bar.top(), bar.bottom(), true};
    }
    const QColor color = brush().style() == Qt::NoBrush ? pen().color() : brush().color();
    painter->setAntialiasing(false);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (!spans[i].used)
            continue;
        const double at = firstRow + double(i);
        const double length = std::max(1.0, spans[i].to - spans[i].from);
        painter->fillRect(
            vertical ? QRectF(spans[i].from, at, length, 1) : QRectF(at, spans[i].from, 1, length), color);
    }
}

void RowWhiskers::draw(QCPPainter *painter)
{
    if (const auto *bars = qobject_cast<const RowBars *>(dataPlottable()); bars && bars->thin())
        return;
    QCPErrorBars::draw(painter);
}

} // namespace gemmscope
