// The tile map's drawing: each panel's A, B and C tiles as images coloured by warp (or by
// fragment register), the warp outlines when zoomed out, the mma fragments, the selected
// thread's rows and columns, the tiles' names and the note under them.
#include "tile_map_view.h"

#include "mapping_loaders.h"
#include "mma_fragments.h"
#include "plot_theme.h"
#include "tile_map_style.h"

#include <QPainter>
#include <climits>

namespace gemmscope {

QImage TileMapView::tileImage(const KernelShape &s, Operand op) const
{
    const TileCell extent = tileExtent(s, op);
    QImage img(extent.col, extent.row, QImage::Format_RGB32);
    const bool selecting = m_selected >= 0;
    if (op == Operand::C) {
        for (int r = 0; r < extent.row; ++r)
            for (int c = 0; c < extent.col; ++c) {
                const ThreadCoord t = ownerOf(s, r, c);
                const QColor col = warpColor(tile_map::colourUnit(s, t.tid));
                img.setPixelColor(c, r,
                                  !selecting            ? col
                                  : t.tid == m_selected ? selectionColor()
                                                        : tile_map::faded(col));
            }
        return img;
    }
    if (layoutSchemeOf(s).hasOperandFragments() && m_fragments) {
        // Coloured by fragment register; the selected thread's own fragment elements in black.
        std::vector<int> rows, cols;
        if (selecting) {
            rows = op == Operand::A ? aRowsRead(s, m_selected) : std::vector<int>{};
            cols = op == Operand::B ? bColsRead(s, m_selected) : std::vector<int>{};
        }
        const int lane = m_selected % kWarpSize;
        for (int r = 0; r < extent.row; ++r)
            for (int c = 0; c < extent.col; ++c) {
                const auto f = fragmentCellAt(s, op, {r, c});
                const QColor col = tile_map::registerColor(f ? f->reg : 0);
                const bool mine = selecting && f && f->lane == lane &&
                                  (op == Operand::A ? std::find(rows.begin(), rows.end(), r) != rows.end()
                                                    : std::find(cols.begin(), cols.end(), c) != cols.end());
                img.setPixelColor(c, r, mine ? selectionColor() : selecting ? tile_map::faded(col) : col);
            }
        return img;
    }
    const TileLoaders loaders = tileLoaders(s, op);
    for (int r = 0; r < extent.row; ++r)
        for (int c = 0; c < extent.col; ++c) {
            const int first = loaders.firstAt({r, c});
            const QColor col = first < 0 ? QColor(Qt::white) : warpColor(first / kWarpSize);
            img.setPixelColor(c, r, selecting ? tile_map::faded(col) : col);
        }
    if (selecting)
        for (const TileLoad &l : tileLoadsOf(s, m_selected))
            if (l.operand == op)
                img.setPixelColor(l.cell.col, l.cell.row, selectionColor());
    return img;
}

void TileMapView::paintPanel(QPainter &p, int panel, const TilePanelGeometry &g) const
{
    const KernelShape s = panelShape(panel);
    paintPanelTitle(p, panel, s, g);

    p.save();
    p.setClipRect(g.bounds.adjusted(0, g.title.height(), 0, 0));
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    paintTiles(p, s, g);
    // Zoomed out (cells too small for threads): each warp's block of outputs outlined and named,
    // where the warp owns a rectangle (the contiguous layouts); per thread once zoomed in.
    if (g.cell < tile_map::kWarpOutlineCellPx)
        paintWarpOutlines(p, s, g);
    if (layoutSchemeOf(s).tensorCore())
        paintFragments(p, s, g);
    // What the selected thread reads in its inner loop: its rows of A and columns of B.
    if (m_selected >= 0 && s.usesSharedMemory)
        paintSelectedReads(p, s, g);
    paintTileNames(p, s, g);
    p.restore();

    paintPanelNote(p, g);
}

void TileMapView::paintPanelTitle(QPainter &p, int panel, const KernelShape &s,
                                  const TilePanelGeometry &g) const
{
    QString title;
    if (panelCount() == 2)
        title = panel == 0 ? tr("Contiguous micro-tiles (steps 2-6)") : tr("Strided layout (steps 7-8)");
    else
        title = QString::fromStdString(stageInfo(s.stage).title);
    title += tr(" — %1 x %2 block tile, %3 threads, colour = %4")
                 .arg(s.bm)
                 .arg(s.bn)
                 .arg(s.threads())
                 .arg(QString::fromStdString(layoutSchemeOf(s).colourUnitName()));
    p.setPen(palette().color(QPalette::WindowText));
    const double left = tilePanelTextLeft(g, QFontMetricsF(p.font()).horizontalAdvance(title));
    p.drawText(QRectF(left, g.title.top(), g.title.right() - left, g.title.height()),
               Qt::AlignLeft | Qt::AlignVCenter, title);
}

// The A, B and C tiles, each element coloured (tileImage), with the element grid once it shows.
void TileMapView::paintTiles(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
        const QRectF rect = op == Operand::A ? g.a : op == Operand::B ? g.b : g.c;
        p.drawImage(rect, tileImage(s, op));
        if (g.cell >= 6) { // element grid once it is visible
            p.setPen(QPen(QColor(255, 255, 255, 110), 0));
            const TileCell e = tileExtent(s, op);
            for (int r = 1; r < e.row; ++r)
                p.drawLine(QPointF(rect.left(), rect.top() + r * g.cell),
                           QPointF(rect.right(), rect.top() + r * g.cell));
            for (int c = 1; c < e.col; ++c)
                p.drawLine(QPointF(rect.left() + c * g.cell, rect.top()),
                           QPointF(rect.left() + c * g.cell, rect.bottom()));
        }
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect);
    }
}

void TileMapView::paintWarpOutlines(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    struct Box {
        int r0 = INT_MAX, c0 = INT_MAX, r1 = -1, c1 = -1;
        long long cells = 0;
    };
    std::vector<Box> boxes(std::size_t(std::max(1, s.warps())));
    for (int r = 0; r < s.bm; ++r)
        for (int c = 0; c < s.bn; ++c) {
            const int w = ownerOf(s, r, c).warp;
            if (w < 0 || w >= int(boxes.size()))
                continue;
            Box &b = boxes[std::size_t(w)];
            b.r0 = std::min(b.r0, r);
            b.c0 = std::min(b.c0, c);
            b.r1 = std::max(b.r1, r);
            b.c1 = std::max(b.c1, c);
            ++b.cells;
        }
    QFont label = p.font();
    label.setPointSizeF(label.pointSizeF() * 0.85);
    label.setBold(true);
    p.setFont(label);
    for (int w = 0; w < int(boxes.size()); ++w) {
        const Box &b = boxes[std::size_t(w)];
        if (b.r1 < 0 || b.cells != (long long)(b.r1 - b.r0 + 1) * (b.c1 - b.c0 + 1))
            continue; // scattered (strided layout): the colours alone show it
        const QRectF box(g.c.left() + b.c0 * g.cell, g.c.top() + b.r0 * g.cell, (b.c1 - b.c0 + 1) * g.cell,
                         (b.r1 - b.r0 + 1) * g.cell);
        p.setPen(QPen(QColor(255, 255, 255, 200), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        if (box.width() >= 44 && box.height() >= 12) {
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, tr("warp %1").arg(w));
        }
    }
    p.setFont(font());
}

void TileMapView::paintSelectedReads(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    p.setPen(QPen(selectionColor(), 1.5));
    for (int r : aRowsRead(s, m_selected))
        p.drawRect(QRectF(g.a.left(), g.a.top() + r * g.cell, g.a.width(), g.cell));
    for (int c : bColsRead(s, m_selected))
        p.drawRect(QRectF(g.b.left() + c * g.cell, g.b.top(), g.cell, g.b.height()));
}

// The three tiles named beside them (never over an element): A on its left, B above, C on its right.
void TileMapView::paintTileNames(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetricsF metrics(bold);
    const auto fitted = [&](QString text, double room) {
        return metrics.horizontalAdvance(text) + 4 > room ? text.left(1) : text;
    };
    p.drawText(QRectF(g.b.left(), g.b.top() - 16, g.b.width(), 16), Qt::AlignHCenter | Qt::AlignBottom,
               fitted(tr("B %1x%2").arg(s.bk).arg(s.bn), g.b.width()));
    const auto vertical = [&](const QRectF &tile, double x, const QString &text) {
        p.save();
        p.translate(x, tile.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-tile.height() / 2, -8, tile.height(), 16), Qt::AlignCenter,
                   fitted(text, tile.height()));
        p.restore();
    };
    vertical(g.a, g.a.left() - 9, tr("A %1x%2").arg(s.bm).arg(s.bk));
    vertical(g.c, g.c.right() + 9, tr("C %1x%2").arg(s.bm).arg(s.bn));
}

// The sentence under the tiles: what the colours mean, or how to see more.
void TileMapView::paintPanelNote(QPainter &p, const TilePanelGeometry &g) const
{
    p.setPen(palette().color(QPalette::WindowText));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    QString note = noteText();
    if (g.cell < kMinReadableCellPx)
        note = tr("%1 px per element: each warp's outputs outlined; zoom (wheel) to see threads")
                   .arg(g.cell, 0, 'f', 1);
    else if (m_zoom > 1)
        note = tr("zoom %1x: drag to pan, double-click or 0 to fit").arg(m_zoom, 0, 'g', 3);
    const double left = tilePanelTextLeft(g, QFontMetricsF(small).horizontalAdvance(note));
    p.drawText(QRectF(left, g.bounds.bottom() - 22, g.title.right() - left, 22),
               Qt::AlignLeft | Qt::AlignVCenter, note);
    p.setFont(font());
}

// Tensor-core layouts: the m16n8 tiles outlined (m16k8 in A, k8n8 in B), the warp tiles or warpgroup
// slabs in C outlined thicker, and once a cell can hold it each element's lane and register.
void TileMapView::paintFragments(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    if (g.cell < tile_map::kFragmentGridCellPx)
        return;
    const LayoutScheme &layout = layoutSchemeOf(s);
    const auto grid = [&](const QRectF &rect, TileCell extent, int rowStep, int colStep, const QPen &pen) {
        p.setPen(pen);
        for (int r = rowStep; r < extent.row; r += rowStep)
            p.drawLine(QPointF(rect.left(), rect.top() + r * g.cell),
                       QPointF(rect.right(), rect.top() + r * g.cell));
        for (int c = colStep; c < extent.col; c += colStep)
            p.drawLine(QPointF(rect.left() + c * g.cell, rect.top()),
                       QPointF(rect.left() + c * g.cell, rect.bottom()));
    };
    const QPen thin(QColor(0, 0, 0, 90), 1), thick(QColor(0, 0, 0, 200), 2);
    grid(g.c, tileExtent(s, Operand::C), kMmaM, kMmaN, thin);
    const TileCell block = layout.accumulatorBlock(s);
    grid(g.c, tileExtent(s, Operand::C), block.row, block.col, thick);
    if (layout.hasOperandFragments() && m_fragments) {
        grid(g.a, tileExtent(s, Operand::A), kMmaM, kMmaK, thin);
        grid(g.b, tileExtent(s, Operand::B), kMmaK, kMmaN, thin);
    }
    if (g.cell < tile_map::kFragmentLabelCellPx)
        return;
    QFont f = p.font();
    f.setPointSizeF(std::min(9.0, g.cell / 4.2));
    p.setFont(f);
    for (Operand op : {Operand::C, Operand::A, Operand::B}) {
        if (op != Operand::C && !fragmentsApply())
            continue;
        const QRectF rect = op == Operand::A ? g.a : op == Operand::B ? g.b : g.c;
        const QRectF visible = rect.intersected(g.bounds);
        if (visible.isEmpty())
            continue;
        const TileCell e = tileExtent(s, op);
        const int r0 = std::max(0, int((visible.top() - rect.top()) / g.cell));
        const int r1 = std::min(e.row - 1, int((visible.bottom() - rect.top()) / g.cell));
        const int c0 = std::max(0, int((visible.left() - rect.left()) / g.cell));
        const int c1 = std::min(e.col - 1, int((visible.right() - rect.left()) / g.cell));
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) {
                const auto cell = fragmentCellAt(s, op, {r, c});
                if (!cell)
                    continue;
                const QRectF box(rect.left() + c * g.cell, rect.top() + r * g.cell, g.cell, g.cell);
                p.setPen(QColor(255, 255, 255, 235));
                p.drawText(box, Qt::AlignCenter, cell->text().replace(QLatin1Char(' '), QLatin1Char('\n')));
            }
    }
    p.setFont(font());
}

void TileMapView::paintAll(QPainter &p, const QRectF &area, bool print) const
{
    p.fillRect(area, print ? QColor(Qt::white) : palette().color(QPalette::Base));
    const QRectF panels = panelsArea(area);
    for (int i = 0; i < panelCount(); ++i)
        paintPanel(p, i, geometryIn(i, panels, !print));
    paintKey(p, keyRect(area));
}

void TileMapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintAll(p, QRectF(rect()), false);
}

} // namespace gemmscope
