#include "swatch_list_text.h"

#include "chart_layout.h"

#include <QPainterPath>
#include <algorithm>

namespace gemmscope {

void SwatchListText::draw(QCPPainter *painter)
{
    // QCPItemText::draw leaves the painter translated to the text's position: the swatches are in
    // the plot's pixels.
    painter->save();
    QCPItemText::draw(painter);
    painter->restore();
    if (m_swatches.isEmpty() || !visible())
        return;
    // The lines as the text is laid out: the box less its padding, split evenly (one font, one
    // line height); each swatch centred on its line, in the room the left padding leaves.
    const QRectF box = labelRect(this);
    const QMargins pad = padding();
    const double top = box.top() + pad.top();
    // The swatches go beside the last lines: a line above them (a heading) has none.
    const qsizetype lines = std::max<qsizetype>(text().count(QLatin1Char('\n')) + 1, m_swatches.size());
    const qsizetype first = lines - m_swatches.size();
    const double lineHeight = (box.height() - pad.top() - pad.bottom()) / double(lines);
    // Nearly the marker's size (a 9 px diamond, an 8 px disc) while lines do not touch.
    const double radius = std::min(4.0, lineHeight / 2 - 1.0);
    const double x = box.left() + pad.left() - kSwatchRoom / 2.0;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (qsizetype line = 0; line < m_swatches.size(); ++line) {
        const Swatch &swatch = m_swatches[line];
        const QPointF centre(x, top + (double(first + line) + 0.5) * lineHeight);
        switch (swatch.shape) {
        case Shape::Diamond: {
            painter->setPen(QPen(swatch.color.darker(160), 1.0));
            painter->setBrush(swatch.color);
            QPainterPath diamond;
            diamond.moveTo(centre + QPointF(0, -radius));
            diamond.lineTo(centre + QPointF(radius, 0));
            diamond.lineTo(centre + QPointF(0, radius));
            diamond.lineTo(centre + QPointF(-radius, 0));
            diamond.closeSubpath();
            painter->drawPath(diamond);
            break;
        }
        case Shape::Disc:
            painter->setPen(QPen(swatch.color.darker(120), 1.0));
            painter->setBrush(swatch.color);
            painter->drawEllipse(centre, radius * 0.85, radius * 0.85);
            break;
        case Shape::Square: {
            painter->setPen(QPen(swatch.color, 1.5));
            painter->setBrush(Qt::white);
            const double half = radius * 0.8;
            painter->drawRect(QRectF(centre - QPointF(half, half), centre + QPointF(half, half)));
            break;
        }
        }
    }
    painter->restore();
}

} // namespace gemmscope
