#include "mapping_model.h"

#include <algorithm>

namespace gemmscope {

namespace {

int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
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

int outputRow(const KernelShape &shape, const ThreadCoord &t, int i)
{
    switch (shape.layout) {
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
    case ThreadLayout::Contiguous:
        break;
    }
    return threadAt(shape, col / shape.tn, row / shape.tm);
}

std::vector<TileCell> outputsOf(const KernelShape &shape, int tid)
{
    const ThreadCoord t = threadCoord(shape, tid);
    std::vector<TileCell> cells;
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

int loadInstructionCount(const KernelShape &shape, Operand operand)
{
    if (operand == Operand::C)
        return 0;
    switch (shape.loads) {
    case TileLoadScheme::OneElementPerThread:
        return 1;
    case TileLoadScheme::GuardedStrips:
        return operand == Operand::A ? shape.tm : shape.tn;
    case TileLoadScheme::Cooperative:
    case TileLoadScheme::CooperativeVec4:
    case TileLoadScheme::AsyncCopies: {
        const TileCell e = tileExtent(shape, operand);
        return ceilDiv(e.row * e.col / loadWidth(shape, operand), shape.threads());
    }
    case TileLoadScheme::NotModelled:
        break;
    }
    return 0;
}

int loadWidth(const KernelShape &shape, Operand operand)
{
    switch (shape.loads) {
    case TileLoadScheme::CooperativeVec4:
        return operand == Operand::C ? 1 : 4;
    case TileLoadScheme::AsyncCopies:
        return operand == Operand::B ? 4 : 1;
    case TileLoadScheme::OneElementPerThread:
    case TileLoadScheme::GuardedStrips:
    case TileLoadScheme::Cooperative:
    case TileLoadScheme::NotModelled:
        break;
    }
    return 1;
}

std::optional<TileCell> loadedElement(const KernelShape &shape, Operand operand, int instruction, int tid)
{
    if (operand == Operand::C || instruction < 0 || instruction >= loadInstructionCount(shape, operand))
        return std::nullopt;
    const ThreadCoord t = threadCoord(shape, tid);
    switch (shape.loads) {
    case TileLoadScheme::OneElementPerThread:
        // naive: A[row][k], B[k][col]; smem_tiled: tileA[ty][tx] = A(row, t*TILE+tx),
        // tileB[ty][tx] = B(t*TILE+ty, col).
        if (shape.usesSharedMemory)
            return TileCell{t.ty, t.tx};
        return operand == Operand::A ? TileCell{t.ty, 0} : TileCell{0, t.tx};
    case TileLoadScheme::GuardedStrips:
        // if (tx < BK) tileA[ty*TM + i][tx]; if (ty < BK) tileB[ty][tx*TN + j]
        if (operand == Operand::A)
            return t.tx < shape.bk ? std::optional<TileCell>(TileCell{t.ty * shape.tm + instruction, t.tx})
                                   : std::nullopt;
        return t.ty < shape.bk ? std::optional<TileCell>(TileCell{t.ty, t.tx * shape.tn + instruction})
                               : std::nullopt;
    case TileLoadScheme::Cooperative:
    case TileLoadScheme::CooperativeVec4:
    case TileLoadScheme::AsyncCopies: {
        // for (i = tid; i < rows*cols/w; i += numThreads) { r = i / (cols/w); c = (i % (cols/w))*w; }
        const TileCell e = tileExtent(shape, operand);
        const int w = loadWidth(shape, operand), perRow = e.col / w;
        const int idx = tid + instruction * shape.threads();
        if (idx >= e.row * perRow)
            return std::nullopt;
        return TileCell{idx / perRow, (idx % perRow) * w};
    }
    case TileLoadScheme::NotModelled:
        break;
    }
    return std::nullopt;
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
    for (int i = 0; i < shape.tm; ++i)
        rows.push_back(outputRow(shape, t, i));
    return rows;
}

std::vector<int> bColsRead(const KernelShape &shape, int tid)
{
    const ThreadCoord t = threadCoord(shape, tid);
    std::vector<int> cols;
    for (int j = 0; j < shape.tn; ++j)
        cols.push_back(outputCol(shape, t, j));
    return cols;
}

} // namespace gemmscope
