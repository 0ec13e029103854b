#include "mapping_tile_geometry.h"

#include <algorithm>
#include <cmath>

namespace gemmscope {

namespace {
constexpr double kTitleHeight = 22;
constexpr double kGapCells = 1.0; // gap between tiles, in cells (at least kMinGapPx)
constexpr double kMinGapPx = 6;
constexpr double kTileMargin = 8;
constexpr double kTagPx = 16; // a strip left of A, above B and right of C for the tiles' names
} // namespace

QRectF TilePanelGeometry::cellRect(Operand operand, TileCell cell) const
{
    const QRectF &tile = operand == Operand::A ? a : operand == Operand::B ? b : c;
    return QRectF(tile.left() + cell.col * this->cell, tile.top() + cell.row * this->cell, this->cell,
                  this->cell);
}

std::optional<std::pair<Operand, TileCell>> TilePanelGeometry::hit(const KernelShape &shape,
                                                                   QPointF point) const
{
    for (Operand op : {Operand::C, Operand::A, Operand::B}) {
        const QRectF &tile = op == Operand::A ? a : op == Operand::B ? b : c;
        if (!tile.contains(point) || cell <= 0)
            continue;
        const TileCell extent = tileExtent(shape, op);
        const int col = std::clamp(int((point.x() - tile.left()) / cell), 0, extent.col - 1);
        const int row = std::clamp(int((point.y() - tile.top()) / cell), 0, extent.row - 1);
        return std::make_pair(op, TileCell{row, col});
    }
    return std::nullopt;
}

TilePanelGeometry layoutTilePanel(const KernelShape &shape, const QRectF &area)
{
    TilePanelGeometry g;
    g.bounds = area;
    g.title = QRectF(area.left() + kTileMargin, area.top(), area.width() - 2 * kTileMargin, kTitleHeight);
    const QRectF body = area.adjusted(kTileMargin + kTagPx, kTitleHeight + kTileMargin / 2 + kTagPx,
                                      -kTileMargin - kTagPx, -kTileMargin - kTitleHeight);
    // Width holds BK + BN cells and a gap, height BK + BM cells and a gap.
    const double cellW = (body.width() - kMinGapPx) / (shape.bk + shape.bn + kGapCells);
    const double cellH = (body.height() - kMinGapPx) / (shape.bk + shape.bm + kGapCells);
    g.cell = std::max(0.0, std::min(cellW, cellH));
    // Whole pixels keep cell borders crisp once cells are big enough to see them.
    if (g.cell >= 4)
        g.cell = std::floor(g.cell);
    const double gap = std::max(kMinGapPx, kGapCells * g.cell);
    // Centred across the width where the height sets the cell size: a square map at the left of a
    // wide pane (the Kernel workspace at 1920x1080) left a blank half on its right.
    const double slack = body.width() - (shape.bk + shape.bn) * g.cell - gap;
    const double left = body.left() + std::max(0.0, slack / 2), top = body.top();
    g.a = QRectF(left, top + shape.bk * g.cell + gap, shape.bk * g.cell, shape.bm * g.cell);
    g.b = QRectF(left + shape.bk * g.cell + gap, top, shape.bn * g.cell, shape.bk * g.cell);
    g.c = QRectF(g.b.left(), g.a.top(), shape.bn * g.cell, shape.bm * g.cell);
    return g;
}

double tilePanelTextLeft(const TilePanelGeometry &g, double width)
{
    return std::max(g.title.left(), std::min(g.a.left() - kTagPx, g.title.right() - width));
}

} // namespace gemmscope
