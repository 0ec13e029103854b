// Where the tile map puts things: the A tile (BM x BK) left of the C tile (BM x BN), the B tile
// (BK x BN) above it, the classic GEMM picture. Pure geometry, no painting, so the widget and the
// tests agree on which pixel is which element.
#pragma once

#include "mapping_model.h"

#include <QRectF>
#include <optional>

namespace gemmscope {

struct TilePanelGeometry {
    QRectF bounds; // the whole panel, title included
    QRectF title;
    QRectF a, b, c;  // the three tiles
    double cell = 0; // side of one element in pixels (may be below 1 for huge tiles)

    QRectF cellRect(Operand operand, TileCell cell) const;
    // The element under a point, or nothing between tiles.
    std::optional<std::pair<Operand, TileCell>> hit(const KernelShape &shape, QPointF point) const;
};

// The panel for `shape` inside `area`, cells square and as large as fit, the tiles centred
// across the width they do not fill.
TilePanelGeometry layoutTilePanel(const KernelShape &shape, const QRectF &area);
// Where a line of text `width` wide about the panel (its title, its note) starts: at the tiles'
// names, or further left where it would pass the panel's right margin.
double tilePanelTextLeft(const TilePanelGeometry &g, double width);

// Under a panel's tiles: its margin and its note's row (the panel's bottom).
inline constexpr double kTilePanelBottomPx = 8 + 22;
// A panel made as tall as its tiles need keeps its cell size with this much more.
inline constexpr double kTilePanelSlackPx = 8;

// Below this cell size the map samples colours instead of showing every element.
inline constexpr double kMinReadableCellPx = 2.0;

} // namespace gemmscope
