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
    // of one stage lie in one block of rows, so the rows are few and contiguous).
    const bool vertical = keyAxis()->orientation() == Qt::Vertical;
    struct Span {
        double from = 0, to = 0;
        bool used = false;
    };
    std::vector<Span> spans;
    int firstRow = 0;
    for (auto it = begin; it != end; ++it) {
        const QRectF bar = getBarRect(it->key, it->value);
        const QPointF centre = bar.center();
        const int row = int(std::floor(vertical ? centre.y() : centre.x()));
        const double from = vertical ? bar.left() : bar.top(), to = vertical ? bar.right() : bar.bottom();
        if (spans.empty())
            firstRow = row;
        if (row < firstRow) { // a reversed axis: grow at the front
            spans.insert(spans.begin(), std::size_t(firstRow - row), Span{});
            firstRow = row;
        }
        if (std::size_t(row - firstRow) >= spans.size())
            spans.resize(std::size_t(row - firstRow) + 1);
        Span &span = spans[std::size_t(row - firstRow)];
        span.from = span.used ? std::min(span.from, from) : from;
        span.to = span.used ? std::max(span.to, to) : to;
        span.used = true;
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
