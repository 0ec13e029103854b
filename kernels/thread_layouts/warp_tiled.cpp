// ThreadLayout::WarpTiled (warptiled, pipelined, async_pipelined; 1-D blocks): warp w owns the
// WM x WN = 4*TM x 8*TN warp tile (w / warpsX, w % warpsX); its lanes sit 4 x 8 inside it, and lane
// l owns 4x4 fragments spaced 16 rows and 32 columns apart: rows warpRow + (i/4)*16 + (l/8)*4 + i%4,
// columns warpCol + (j/4)*32 + (l%8)*4 + j%4.
#include "layout_scheme.h"

namespace gemmscope {

namespace {

class WarpTiled final : public LayoutScheme {
public:
    WarpTiled() : LayoutScheme(ThreadLayout::WarpTiled, "warp tiles") {}

    int outputRow(const KernelShape &shape, const ThreadCoord &t, int i) const override
    {
        return (t.warp / shape.warpsX()) * shape.warpTileRows() + (i / 4) * 16 + (t.lane / 8) * 4 + i % 4;
    }
    int outputCol(const KernelShape &shape, const ThreadCoord &t, int j) const override
    {
        return (t.warp % shape.warpsX()) * shape.warpTileCols() + (j / 4) * 32 + (t.lane % 8) * 4 + j % 4;
    }
    ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const override
    {
        const int warp = (row / shape.warpTileRows()) * shape.warpsX() + col / shape.warpTileCols();
        const int lane = ((row % shape.warpTileRows()) % 16 / 4) * 8 + (col % shape.warpTileCols()) % 32 / 4;
        return threadCoord(shape, warp * kWarpSize + lane);
    }

    std::string rowExpression(const KernelShape &) const override
    {
        return "warpRow + (i/4)*16 + laneRow + i%4";
    }
    std::string colExpression(const KernelShape &) const override
    {
        return "warpCol + (j/4)*32 + laneCol + j%4";
    }
};

} // namespace

const LayoutScheme &warpTiledLayout()
{
    static const WarpTiled layout;
    return layout;
}

} // namespace gemmscope
