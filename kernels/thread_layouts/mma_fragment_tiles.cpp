// ThreadLayout::MmaFragments (mma_tf32; mma.sync m16n8k8, 1-D blocks; mma_fragments.h has the PTX
// tables): warp w owns the WM x WN warp tile (w / (BN/WN), w % (BN/WN)), made of (WM/16) x (WN/8)
// m16n8 tiles; inside tile (mi, ni) lane l holds the C fragment c0..c3 of the PTX table. As a
// cartesian product: TM = WM/8 rows warpRow + (i/2)*16 + (i%2)*8 + l/4, TN = WN/4 columns warpCol +
// (j/2)*8 + 2*(l%4) + j%2, output (i, j) in register c[(i%2)*2 + j%2] of tile (i/2, j/2).
#include "layout_scheme.h"

#include <string>

namespace gemmscope {

namespace {

int warpRowOf(const KernelShape &s, const ThreadCoord &t)
{
    return (t.warp / s.warpsX()) * s.warpTileRows();
}

int warpColOf(const KernelShape &s, const ThreadCoord &t)
{
    return (t.warp % s.warpsX()) * s.warpTileCols();
}

class MmaFragmentTiles final : public LayoutScheme {
public:
    MmaFragmentTiles() : LayoutScheme(ThreadLayout::MmaFragments, "mma.sync fragments") {}

    int outputRow(const KernelShape &shape, const ThreadCoord &t, int i) const override
    {
        return warpRowOf(shape, t) + (i / 2) * kMmaM + (i % 2) * 8 + t.lane / 4;
    }
    int outputCol(const KernelShape &shape, const ThreadCoord &t, int j) const override
    {
        return warpColOf(shape, t) + (j / 2) * kMmaN + 2 * (t.lane % 4) + j % 2;
    }
    ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const override
    {
        return threadCoord(shape, fragmentOwnerOf(shape, row, col).tid);
    }
    FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col) const override
    {
        // The warp tile, then the m16n8 tile in it, then the PTX C table inside that tile.
        const int warp = (row / shape.warpTileRows()) * shape.warpsX() + col / shape.warpTileCols();
        const int r = row % shape.warpTileRows(), c = col % shape.warpTileCols();
        const FragmentSlot slot = mmaSlotOf(Operand::C, r % kMmaM, c % kMmaN);
        const int mi = r / kMmaM, ni = c / kMmaN;
        return {warp * kWarpSize + slot.lane, slot.reg, mi, ni,
                (mi * (shape.warpTileCols() / kMmaN) + ni) * 4 + slot.reg};
    }
    // A lane's A fragment rows (g, g + 8 of each m16 tile) are its C rows (the default); its B
    // fragment holds column l/4 of each n8 tile (PTX table: col = groupID).
    std::vector<int> bColsRead(const KernelShape &shape, const ThreadCoord &t) const override
    {
        std::vector<int> cols;
        for (int ni = 0; ni < shape.warpTileCols() / kMmaN; ++ni)
            cols.push_back(warpColOf(shape, t) + ni * kMmaN + t.lane / 4);
        return cols;
    }

    std::string rowExpression(const KernelShape &) const override
    {
        return "warpRow + (i/2)*16 + (i%2)*8 + lane/4";
    }
    std::string colExpression(const KernelShape &) const override
    {
        return "warpCol + (j/2)*8 + 2*(lane%4) + j%2";
    }
    bool readsMmaFragments() const override { return true; }

    bool tensorCore() const override { return true; }
    TileCell accumulatorBlock(const KernelShape &shape) const override
    {
        return {shape.warpTileRows(), shape.warpTileCols()};
    }
    bool hasOperandFragments() const override { return true; }
    // A (BM x BK): m16k8 fragments; B (BK x BN): k8n8 fragments.
    std::optional<FragmentSlot> operandFragmentSlot(Operand operand, TileCell cell) const override
    {
        if (operand == Operand::A)
            return mmaSlotOf(Operand::A, cell.row % kMmaM, cell.col % kMmaK);
        if (operand == Operand::B)
            return mmaSlotOf(Operand::B, cell.row % kMmaK, cell.col % kMmaN);
        return std::nullopt;
    }
    std::string registerNote(const KernelShape &, const FragmentOwner &o) const override
    {
        return "register c" + std::to_string(o.reg) + " of m16n8 tile (" + std::to_string(o.tileRow) + ", " +
               std::to_string(o.tileCol) + ") of the warp tile";
    }
    std::string tileMapNote(bool fragmentsShown) const override
    {
        return fragmentsShown
                   ? "C: warp holding the output; A, B: fragment register (colour); zoomed in, "
                     "\"l5 c3\" = lane 5, register c3 (PTX mma.m16n8k8 tables); lines: m16n8k8 tiles"
                   : "C: warp holding the output (\"l5 c3\" = lane 5, register c3 when zoomed in); "
                     "A, B: warp whose cp.async copies the element";
    }
};

} // namespace

const LayoutScheme &mmaFragmentLayout()
{
    static const MmaFragmentTiles layout;
    return layout;
}

} // namespace gemmscope
