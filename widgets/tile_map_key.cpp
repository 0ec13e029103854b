// The tile map's key: the row under the panels with a swatch per warp (or warpgroup), the
// fragment registers' colours, and the note that says what the colours mean; and where it sits.
#include "tile_map_view.h"

#include "plot_theme.h"
#include "tile_map_style.h"

#include <QCheckBox>
#include <QPainter>

namespace gemmscope {

QRectF TileMapView::panelsArea(const QRectF &area) const
{
    const QRectF most(area.left(), area.top(), area.width(), area.height() - tile_map::kKeyHeight);
    // The tiles' bottom, the panel's margin and its note row under them (mapping_tile_geometry),
    // and a gap's worth of slack so the cells keep their size in the shorter area.
    const TilePanelGeometry g = layoutTilePanel(
        panelShape(0), QRectF(most.left(), most.top(), most.width() / panelCount(), most.height()));
    const double used = g.a.bottom() - most.top() + kTilePanelBottomPx + kTilePanelSlackPx;
    return QRectF(most.left(), most.top(), most.width(), std::min(most.height(), used));
}

QFont TileMapView::keyFont() const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    return small;
}

QString TileMapView::keyLabel() const
{
    // Only the warpgroup layouts have producers: a warpgroup before the consumers, or a warp after.
    const QString unit = QString::fromStdString(layoutSchemeOf(m_shape).colourUnitName());
    const bool trailingProducer = m_shape.firstConsumerThread + m_shape.outputThreads() < m_shape.threads();
    return m_shape.firstConsumerThread > 0 ? tr("%1 colour (0: producer):").arg(unit)
           : trailingProducer ? tr("%1 colour (the producer warp after them stores nothing):").arg(unit)
                              : tr("%1 colour:").arg(unit);
}

double TileMapView::swatchWidth(const QRectF &key) const
{
    const QFontMetricsF metrics(keyFont());
    const int warps = std::max(1, keyWarpCount());
    double notes = metrics.horizontalAdvance(keyLabel()) + 6;
    if (warps > 16)
        notes += 4 + metrics.horizontalAdvance(tr("(16 colours repeat)"));
    if (fragmentsApply())
        notes += 12 + metrics.horizontalAdvance(tr("A, B register:")) + 6 + 4 * 40;
    for (const QCheckBox *button : {m_sideButton, m_fragmentButton}) // on the key's row, after it
        if (!button->isHidden())
            notes += 16 + button->sizeHint().width();
    return std::max(4.0, std::min(28.0, (key.width() - notes) / warps));
}

double TileMapView::keyEnd(const QRectF &key) const
{
    // As paintAll draws it: the label, a swatch a warp, then the notes that follow them.
    const QFontMetricsF metrics(keyFont());
    const double labelW = metrics.horizontalAdvance(keyLabel()) + 6;
    const int warps = std::max(1, keyWarpCount());
    double end = key.left() + labelW + warps * swatchWidth(key);
    if (warps > 16)
        end += 4 + metrics.horizontalAdvance(tr("(16 colours repeat)"));
    if (fragmentsApply())
        end += 12 + metrics.horizontalAdvance(tr("A, B register:")) + 6 + 4 * 40;
    return end;
}

QRectF TileMapView::keyRect(const QRectF &area) const
{
    const QRectF panels = panelsArea(area);
    const QRectF whole(area.left() + 8, panels.bottom() + 2, area.width() - 16, tile_map::kKeyHeight - 4);
    // Under the (centred) tiles where its swatches keep their width there, else the whole row.
    const double tilesLeft = geometryIn(0, panels, false).a.left() - 16;
    if (tilesLeft <= whole.left())
        return whole;
    const QRectF under(tilesLeft, whole.top(), whole.right() - tilesLeft, whole.height());
    return swatchWidth(under) >= swatchWidth(whole) ? under : whole;
}

int TileMapView::keyWarpCount() const
{
    return layoutSchemeOf(m_shape).colourUnitCount(m_shape);
}

QString TileMapView::noteText() const
{
    return QString::fromStdString(layoutSchemeOf(m_shape).tileMapNote(fragmentsApply()));
}

// The warp-colour key under the tiles: one swatch per warp of the block.
void TileMapView::paintKey(QPainter &p, const QRectF &key) const
{
    const QFont small = keyFont();
    p.setFont(small);
    p.setPen(palette().color(QPalette::WindowText));
    const QString label = keyLabel();
    const double labelW = QFontMetricsF(small).horizontalAdvance(label) + 6;
    p.drawText(QRectF(key.left(), key.top(), labelW, key.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
    const int warps = std::max(1, keyWarpCount());
    const double sw = swatchWidth(key);
    for (int w = 0; w < warps; ++w) {
        const QRectF box(key.left() + labelW + w * sw, key.top() + 2, sw - 2, key.height() - 4);
        p.fillRect(box, warpColor(w));
        if (sw >= 14) {
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, QString::number(w));
        }
    }
    if (warps > 16) {
        p.setPen(palette().color(QPalette::WindowText));
        const QString repeat = tr("(16 colours repeat)");
        p.drawText(QRectF(key.left() + labelW + warps * sw + 4, key.top(),
                          QFontMetricsF(small).horizontalAdvance(repeat) + 2, key.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, repeat);
    }
    if (fragmentsApply()) { // the A and B colours: the fragment registers
        double x = key.left() + labelW + warps * sw + 12;
        p.setPen(palette().color(QPalette::WindowText));
        const QString regs = tr("A, B register:");
        const double w = QFontMetricsF(small).horizontalAdvance(regs) + 6;
        p.drawText(QRectF(x, key.top(), w, key.height()), Qt::AlignLeft | Qt::AlignVCenter, regs);
        x += w;
        for (int r = 0; r < 4; ++r) {
            const QRectF box(x + r * 40, key.top() + 2, 38, key.height() - 4);
            p.fillRect(box, tile_map::registerColor(r));
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, r < 2 ? tr("a%1 b%1").arg(r) : tr("a%1").arg(r));
        }
    }
    p.setFont(font());
}
} // namespace gemmscope
