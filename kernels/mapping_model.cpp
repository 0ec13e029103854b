#include "mapping_model.h"

#include "layout_scheme.h"
#include "load_scheme.h"

#include <algorithm>

namespace gemmscope {

namespace {

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

// The owners are the shape's thread layout's (layout_scheme.h).
int outputRow(const KernelShape &shape, const ThreadCoord &t, int i)
{
    return layoutSchemeOf(shape).outputRow(shape, t, i);
}

int outputCol(const KernelShape &shape, const ThreadCoord &t, int j)
{
    return layoutSchemeOf(shape).outputCol(shape, t, j);
}

ThreadCoord ownerOf(const KernelShape &shape, int row, int col)
{
    return layoutSchemeOf(shape).ownerOf(shape, row, col);
}

FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col)
{
    return layoutSchemeOf(shape).fragmentOwnerOf(shape, row, col);
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
    if (!ownsOutputs(shape, tid))
        return {};
    return layoutSchemeOf(shape).aRowsRead(shape, threadCoord(shape, tid));
}

std::vector<int> bColsRead(const KernelShape &shape, int tid)
{
    if (!ownsOutputs(shape, tid))
        return {};
    return layoutSchemeOf(shape).bColsRead(shape, threadCoord(shape, tid));
}

} // namespace gemmscope
