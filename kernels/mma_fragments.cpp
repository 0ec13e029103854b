#include "mma_fragments.h"

namespace gemmscope {

namespace {

constexpr TileCell kNoCell{-1, -1};
constexpr FragmentSlot kNoSlot{-1, -1};

int groupId(int lane)
{
    return lane >> 2;
}

int threadInGroup(int lane)
{
    return lane % 4;
}

bool inside(TileCell extent, int row, int col)
{
    return row >= 0 && row < extent.row && col >= 0 && col < extent.col;
}

} // namespace

TileCell mmaTileExtent(Operand operand)
{
    switch (operand) {
    case Operand::A:
        return {kMmaM, kMmaK};
    case Operand::B:
        return {kMmaK, kMmaN};
    case Operand::C:
        break;
    }
    return {kMmaM, kMmaN};
}

int mmaRegistersPerLane(Operand operand)
{
    const TileCell e = mmaTileExtent(operand);
    return e.row * e.col / kWarpSize;
}

TileCell mmaElementOf(Operand operand, int lane, int reg)
{
    if (lane < 0 || lane >= kWarpSize || reg < 0 || reg >= mmaRegistersPerLane(operand))
        return kNoCell;
    const int g = groupId(lane), t = threadInGroup(lane);
    switch (operand) {
    case Operand::A: // a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4)
        return {g + 8 * (reg & 1), t + 4 * (reg >> 1)};
    case Operand::B: // b0 (t, g), b1 (t + 4, g)
        return {t + 4 * reg, g};
    case Operand::C: // c0 (g, 2t), c1 (g, 2t + 1), c2 (g + 8, 2t), c3 (g + 8, 2t + 1)
        break;
    }
    return {g + 8 * (reg >> 1), 2 * t + (reg & 1)};
}

FragmentSlot mmaSlotOf(Operand operand, int row, int col)
{
    if (!inside(mmaTileExtent(operand), row, col))
        return kNoSlot;
    switch (operand) {
    case Operand::A:
        return {(row % 8) * 4 + col % 4, (row / 8) + 2 * (col / 4)};
    case Operand::B:
        return {col * 4 + row % 4, row / 4};
    case Operand::C:
        break;
    }
    return {(row % 8) * 4 + col / 2, 2 * (row / 8) + col % 2};
}

int wgmmaAccumulatorRegisters(int n)
{
    return n / 2;
}

TileCell wgmmaAccumulatorElementOf(int n, int thread, int reg)
{
    if (n < kMmaN || n > 256 || n % kMmaN != 0 || thread < 0 || thread >= kWarpgroupThreads || reg < 0 ||
        reg >= wgmmaAccumulatorRegisters(n))
        return kNoCell;
    // d[4q + i] is c_i of the m16n8 layout in columns 8q .. 8q + 7 of the warp's 16-row slab.
    const TileCell c = mmaElementOf(Operand::C, thread % kWarpSize, reg % 4);
    return {(thread / kWarpSize) * kMmaM + c.row, (reg / 4) * kMmaN + c.col};
}

FragmentSlot wgmmaAccumulatorSlotOf(int n, int row, int col)
{
    if (n < kMmaN || n > 256 || n % kMmaN != 0 || !inside({kWgmmaM, n}, row, col))
        return kNoSlot;
    const FragmentSlot s = mmaSlotOf(Operand::C, row % kMmaM, col % kMmaN);
    return {(row / kMmaM) * kWarpSize + s.lane, (col / kMmaN) * 4 + s.reg};
}

TileCell wgmmaAElementOf(int thread, int reg)
{
    if (thread < 0 || thread >= kWarpgroupThreads)
        return kNoCell;
    const TileCell a = mmaElementOf(Operand::A, thread % kWarpSize, reg);
    if (a.row < 0)
        return kNoCell;
    return {(thread / kWarpSize) * kMmaM + a.row, a.col};
}

FragmentSlot wgmmaASlotOf(int row, int col)
{
    if (!inside({kWgmmaM, kWgmmaK}, row, col))
        return kNoSlot;
    const FragmentSlot s = mmaSlotOf(Operand::A, row % kMmaM, col);
    return {(row / kMmaM) * kWarpSize + s.lane, s.reg};
}

} // namespace gemmscope
