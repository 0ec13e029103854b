#include "mapping_model.h"

#include "load_scheme.h"
#include "mma_fragments.h"

#include <algorithm>
#include <utility>

namespace gemmscope {

namespace {

// Tensor-core layouts: where a thread's warp tile (mma) or warpgroup slab (wgmma) starts.
int mmaWarpRow(const KernelShape &s, const ThreadCoord &t)
{
    return (t.warp / s.warpsX()) * s.warpTileRows();
}

int mmaWarpCol(const KernelShape &s, const ThreadCoord &t)
{
    return (t.warp % s.warpsX()) * s.warpTileCols();
}

// A wgmma consumer thread's warpgroup (0 = the first consumer) and its thread within it.
int consumerGroup(const KernelShape &s, const ThreadCoord &t)
{
    return (t.tid - s.firstConsumerThread) / kWarpgroupThreads;
}

int threadInWarpgroup(const KernelShape &s, const ThreadCoord &t)
{
    return (t.tid - s.firstConsumerThread) % kWarpgroupThreads;
}

bool ownsOutputs(const KernelShape &s, int tid)
{
    return tid >= s.firstConsumerThread && tid < s.firstConsumerThread + s.outputThreads();
}

} // namespace

std::string operandName(Operand operand)
{
    switch (operand) {
    case Operand::A:
        return "A";
    case Operand::B:
        return "B";
    case Operand::C:
        break;
    }
    return "C";
}

KernelShapeResult kernelShape(StageId id, const ParamValues &params)
{
    KernelShapeResult result;
    if (stageInfo(id).isLibrary) {
        result.error =
            "cuBLAS is a library call: its thread mapping is not known, so there is nothing to draw.";
        return result;
    }
    // Problem-size reasons do not concern the mapping of one block tile: ask with a size the
    // tiles always fit.
    if (const auto reasons = violations(id, params, ProblemSize{1024, 1024, 1024}); !reasons.empty()) {
        result.error = reasons.front();
        return result;
    }

    const StageInfo &info = stageInfo(id);
    if (!info.model.mapping) {
        result.error =
            "The thread mapping of \"" + info.title + "\" is not modelled yet, so there is nothing to draw.";
        return result;
    }
    KernelShape s = info.model.mapping(params);
    s.stage = id;
    result.shape = s;
    return result;
}

ThreadCoord threadCoord(const KernelShape &shape, int tid)
{
    return ThreadCoord{tid, tid / kWarpSize, tid % kWarpSize, tid % shape.blockX, tid / shape.blockX};
}

ThreadCoord threadAt(const KernelShape &shape, int tx, int ty)
{
    return threadCoord(shape, ty * shape.blockX + tx);
}

// The wgmma accumulator's own row and column for a thread's i-th row / j-th column of it.
int wgmmaDRow(const KernelShape &shape, const ThreadCoord &t, int i)
{
    return consumerGroup(shape, t) * shape.wm + (i / 2) * kWgmmaM +
           (threadInWarpgroup(shape, t) / kWarpSize) * kMmaM + (i % 2) * 8 + t.lane / 4;
}

int wgmmaDCol(const ThreadCoord &t, int j)
{
    return (j / 2) * kMmaN + 2 * (t.lane % 4) + j % 2;
}

int outputRow(const KernelShape &shape, const ThreadCoord &t, int i)
{
    switch (shape.layout) {
    case ThreadLayout::MmaFragments:
        return mmaWarpRow(shape, t) + (i / 2) * kMmaM + (i % 2) * 8 + t.lane / 4;
    case ThreadLayout::WgmmaWarpgroups:
        return shape.transposedD ? wgmmaDCol(t, i) : wgmmaDRow(shape, t, i);
    case ThreadLayout::Strided:
        return t.ty + i * shape.blockY;
    case ThreadLayout::WarpTiled:
        return (t.warp / shape.warpsX()) * shape.warpTileRows() + (i / 4) * 16 + (t.lane / 8) * 4 + i % 4;
    case ThreadLayout::Contiguous:
        break;
    }
    return t.ty * shape.tm + i;
}

int outputCol(const KernelShape &shape, const ThreadCoord &t, int j)
{
    switch (shape.layout) {
    case ThreadLayout::MmaFragments:
        return mmaWarpCol(shape, t) + (j / 2) * kMmaN + 2 * (t.lane % 4) + j % 2;
    case ThreadLayout::WgmmaWarpgroups:
        return shape.transposedD ? wgmmaDRow(shape, t, j) : wgmmaDCol(t, j);
    case ThreadLayout::Strided:
        return t.tx + j * shape.blockX;
    case ThreadLayout::WarpTiled:
        return (t.warp % shape.warpsX()) * shape.warpTileCols() + (j / 4) * 32 + (t.lane % 8) * 4 + j % 4;
    case ThreadLayout::Contiguous:
        break;
    }
    return t.tx * shape.tn + j;
}

ThreadCoord ownerOf(const KernelShape &shape, int row, int col)
{
    switch (shape.layout) {
    case ThreadLayout::Strided:
        return threadAt(shape, col % shape.blockX, row % shape.blockY);
    case ThreadLayout::WarpTiled: {
        const int warp = (row / shape.warpTileRows()) * shape.warpsX() + col / shape.warpTileCols();
        const int lane = ((row % shape.warpTileRows()) % 16 / 4) * 8 + (col % shape.warpTileCols()) % 32 / 4;
        return threadCoord(shape, warp * kWarpSize + lane);
    }
    case ThreadLayout::MmaFragments:
    case ThreadLayout::WgmmaWarpgroups:
        return threadCoord(shape, fragmentOwnerOf(shape, row, col).tid);
    case ThreadLayout::Contiguous:
        break;
    }
    return threadAt(shape, col / shape.tn, row / shape.tm);
}

FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col)
{
    switch (shape.layout) {
    case ThreadLayout::MmaFragments: {
        // The warp tile, then the m16n8 tile in it, then the PTX C table inside that tile.
        const int warp = (row / shape.warpTileRows()) * shape.warpsX() + col / shape.warpTileCols();
        const int r = row % shape.warpTileRows(), c = col % shape.warpTileCols();
        const FragmentSlot slot = mmaSlotOf(Operand::C, r % kMmaM, c % kMmaN);
        const int mi = r / kMmaM, ni = c / kMmaN;
        return {warp * kWarpSize + slot.lane, slot.reg, mi, ni,
                (mi * (shape.warpTileCols() / kMmaN) + ni) * 4 + slot.reg};
    }
    case ThreadLayout::WgmmaWarpgroups: {
        // The consumer warpgroup, the m64 slab in its rows, then the PTX accumulator table (in D's
        // coordinates: a transposed D holds C's column as its row).
        if (shape.transposedD)
            std::swap(row, col);
        const int group = row / shape.wm, r = row % shape.wm, mi = r / kWgmmaM;
        const FragmentSlot slot = wgmmaAccumulatorSlotOf(shape.wn, r % kWgmmaM, col);
        const int tid = shape.firstConsumerThread + group * kWarpgroupThreads + slot.lane;
        return {tid, slot.reg, mi, col / kMmaN, mi * (shape.wn / 2) + slot.reg};
    }
    case ThreadLayout::Contiguous:
    case ThreadLayout::Strided:
    case ThreadLayout::WarpTiled:
        break;
    }
    // CUDA-core layouts: the register is the thread's accumulator index i*TN + j.
    const ThreadCoord t = ownerOf(shape, row, col);
    int reg = 0;
    for (int i = 0; i < shape.tm; ++i)
        for (int j = 0; j < shape.tn; ++j)
            if (outputRow(shape, t, i) == row && outputCol(shape, t, j) == col)
                reg = i * shape.tn + j;
    return {t.tid, reg, 0, 0, reg};
}

std::vector<TileCell> outputsOf(const KernelShape &shape, int tid)
{
    const ThreadCoord t = threadCoord(shape, tid);
    std::vector<TileCell> cells;
    if (!ownsOutputs(shape, tid))
        return cells; // a producer warpgroup
    cells.reserve(std::size_t(shape.outputsPerThread()));
    for (int i = 0; i < shape.tm; ++i)
        for (int j = 0; j < shape.tn; ++j)
            cells.push_back({outputRow(shape, t, i), outputCol(shape, t, j)});
    return cells;
}

std::vector<int> ownerMap(const KernelShape &shape)
{
    // Built from outputsOf (the store loop), not from ownerOf, so that comparing it with the
    // trace checks the store side; tst_mapping_model checks the two agree.
    std::vector<int> map(std::size_t(shape.bm) * std::size_t(shape.bn), -1);
    for (int tid = 0; tid < shape.threads(); ++tid)
        for (const TileCell &c : outputsOf(shape, tid))
            map[std::size_t(c.row) * std::size_t(shape.bn) + std::size_t(c.col)] = tid;
    return map;
}

TileCell tileExtent(const KernelShape &shape, Operand operand)
{
    switch (operand) {
    case Operand::A:
        return {shape.bm, shape.bk};
    case Operand::B:
        return {shape.bk, shape.bn};
    case Operand::C:
        break;
    }
    return {shape.bm, shape.bn};
}

// The loads are the shape's load scheme's (load_scheme.h); C is never loaded.
int loadInstructionCount(const KernelShape &shape, Operand operand)
{
    return operand == Operand::C ? 0 : loadSchemeOf(shape).instructionCount(shape, operand);
}

int loadWidth(const KernelShape &shape, Operand operand)
{
    return operand == Operand::C ? 1 : loadSchemeOf(shape).width(shape, operand);
}

std::optional<TileCell> loadedElement(const KernelShape &shape, Operand operand, int instruction, int tid)
{
    if (operand == Operand::C || instruction < 0 || instruction >= loadInstructionCount(shape, operand))
        return std::nullopt;
    return loadSchemeOf(shape).element(shape, operand, instruction, threadCoord(shape, tid));
}

std::vector<TileLoad> tileLoadsOf(const KernelShape &shape, int tid)
{
    std::vector<TileLoad> loads;
    for (Operand op : {Operand::A, Operand::B})
        for (int i = 0; i < loadInstructionCount(shape, op); ++i)
            if (const auto cell = loadedElement(shape, op, i, tid))
                loads.push_back({op, i, *cell});
    return loads;
}

std::vector<int> aRowsRead(const KernelShape &shape, int tid)
{
    const ThreadCoord t = threadCoord(shape, tid);
    std::vector<int> rows;
    // wgmma reads A from shared memory itself (descriptors): no thread holds an A fragment.
    if (!ownsOutputs(shape, tid) || shape.layout == ThreadLayout::WgmmaWarpgroups)
        return rows;
    // mma: a lane's A fragment rows (g, g + 8 of each m16 tile) are its C rows.
    for (int i = 0; i < shape.tm; ++i)
        rows.push_back(outputRow(shape, t, i));
    return rows;
}

std::vector<int> bColsRead(const KernelShape &shape, int tid)
{
    const ThreadCoord t = threadCoord(shape, tid);
    std::vector<int> cols;
    if (!ownsOutputs(shape, tid))
        return cols;
    if (shape.layout == ThreadLayout::MmaFragments) {
        // The B fragment of lane l holds column l/4 of each n8 tile (PTX table: col = groupID).
        for (int ni = 0; ni < shape.warpTileCols() / kMmaN; ++ni)
            cols.push_back(mmaWarpCol(shape, t) + ni * kMmaN + t.lane / 4);
        return cols;
    }
    if (shape.layout == ThreadLayout::WgmmaWarpgroups)
        return cols; // wgmma reads B from shared memory itself: no thread holds a B fragment
    for (int j = 0; j < shape.tn; ++j)
        cols.push_back(outputCol(shape, t, j));
    return cols;
}

} // namespace gemmscope
