// ThreadLayout::WgmmaWarpgroups (the wgmma stages; m64nNk8, N = BN): the consumer warpgroup g
// (threads firstConsumerThread + 128g ..; a producer warpgroup before them, or a producer warp after
// them, owns nothing) owns rows g*WM .. g*WM + WM - 1 of the block tile (WM a multiple of 64) and
// every column, each m64 slab of it in the accumulator layout: TM = WM/32 rows g*WM + (i/2)*64 +
// 16*(warp in group) + (i%2)*8 + l/4, TN = BN/4 columns (j/2)*8 + 2*(l%4) + j%2. A transposed D
// (transposedD: D = C^T) swaps them: D's rows are C's columns.
#include "layout_scheme.h"

#include <string>
#include <utility>

namespace gemmscope {

namespace {

// A consumer thread's warpgroup (0 = the first consumer) and its thread within it.
int consumerGroup(const KernelShape &s, const ThreadCoord &t)
{
    return (t.tid - s.firstConsumerThread) / kWarpgroupThreads;
}

int threadInWarpgroup(const KernelShape &s, const ThreadCoord &t)
{
    return (t.tid - s.firstConsumerThread) % kWarpgroupThreads;
}

// The accumulator's own row and column for a thread's i-th row / j-th column of it.
int accumulatorRow(const KernelShape &shape, const ThreadCoord &t, int i)
{
    return consumerGroup(shape, t) * shape.wm + (i / 2) * kWgmmaM +
           (threadInWarpgroup(shape, t) / kWarpSize) * kMmaM + (i % 2) * 8 + t.lane / 4;
}

int accumulatorCol(const ThreadCoord &t, int j)
{
    return (j / 2) * kMmaN + 2 * (t.lane % 4) + j % 2;
}

class WgmmaWarpgroups final : public LayoutScheme {
public:
    WgmmaWarpgroups() : LayoutScheme(ThreadLayout::WgmmaWarpgroups, "wgmma warpgroups") {}

    int outputRow(const KernelShape &shape, const ThreadCoord &t, int i) const override
    {
        return shape.transposedD ? accumulatorCol(t, i) : accumulatorRow(shape, t, i);
    }
    int outputCol(const KernelShape &shape, const ThreadCoord &t, int j) const override
    {
        return shape.transposedD ? accumulatorRow(shape, t, j) : accumulatorCol(t, j);
    }
    ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const override
    {
        return threadCoord(shape, fragmentOwnerOf(shape, row, col).tid);
    }
    FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col) const override
    {
        // The consumer warpgroup, the m64 slab in its rows, then the PTX accumulator table (in D's
        // coordinates: a transposed D holds C's column as its row).
        if (shape.transposedD)
            std::swap(row, col);
        const int group = row / shape.wm, r = row % shape.wm, mi = r / kWgmmaM;
        const FragmentSlot slot = wgmmaAccumulatorSlotOf(shape.wn, r % kWgmmaM, col);
        const int tid = shape.firstConsumerThread + group * kWarpgroupThreads + slot.lane;
        return {tid, slot.reg, mi, col / kMmaN, mi * (shape.wn / 2) + slot.reg};
    }
    // wgmma reads A and B from shared memory itself (descriptors): no thread holds a fragment.
    std::vector<int> aRowsRead(const KernelShape &, const ThreadCoord &) const override { return {}; }
    std::vector<int> bColsRead(const KernelShape &, const ThreadCoord &) const override { return {}; }

    // Not the kernel's own expressions (its stores walk the accumulator array d[]): the C stores'
    // labels name the thread's output (i, j) as the CUDA-core kernels write a micro-tile.
    std::string rowExpression(const KernelShape &shape) const override
    {
        return shape.tm == 1 ? "ty" : "ty*TM + i";
    }
    std::string colExpression(const KernelShape &shape) const override
    {
        return shape.tn == 1 ? "tx" : "tx*TN + j";
    }

    bool tensorCore() const override { return true; }
    // A warpgroup holds WM whole rows of D: no line across the columns.
    TileCell accumulatorBlock(const KernelShape &shape) const override
    {
        return {shape.warpTileRows(), shape.bn};
    }
    char accumulatorRegister() const override { return 'd'; }
    bool operandsStayInSharedMemory() const override { return true; }
    std::string operandTileNote() const override
    {
        return "wgmma reads it from shared memory through a descriptor, no thread holds it in registers; "
               "the copies that fill it are not modelled yet";
    }

    int colourUnitThreads() const override { return kWarpgroupThreads; }
    std::string colourUnitName() const override { return "warpgroup"; }
    // Up to the last consumer: a producer warp after them owns nothing.
    int colourUnitCount(const KernelShape &shape) const override
    {
        return (shape.firstConsumerThread + shape.outputThreads() + kWarpgroupThreads - 1) /
               kWarpgroupThreads;
    }
    std::string ownerUnitNote(const KernelShape &shape, const FragmentOwner &o) const override
    {
        return " (warpgroup " + std::to_string(o.tid / kWarpgroupThreads) + ", thread " +
               std::to_string((o.tid - shape.firstConsumerThread) % kWarpgroupThreads) + " of it)";
    }
    std::string registerNote(const KernelShape &, const FragmentOwner &o) const override
    {
        return "register d" + std::to_string(o.reg) + " of the wgmma accumulator (m64 slab " +
               std::to_string(o.tileRow) + ", columns " + std::to_string(o.tileCol * kMmaN) + ".." +
               std::to_string(o.tileCol * kMmaN + kMmaN - 1) + ")";
    }
    std::string tileMapNote(bool) const override
    {
        return "C: warpgroup holding the output; zoomed in, \"t37 d5\" = thread 37 of the warpgroup, "
               "register d5 (PTX wgmma m64nNk8); A, B: read by wgmma from shared memory through descriptors";
    }
};

} // namespace

const LayoutScheme &wgmmaWarpgroupLayout()
{
    static const WgmmaWarpgroups layout;
    return layout;
}

} // namespace gemmscope
