#include "access_model.h"

#include <algorithm>
#include <functional>
#include <set>

namespace gemmscope {

namespace {

using std::to_string;

// A tile cell of `operand` for a lane, or nothing when the lane sits out this instruction.
using LaneCell = std::function<std::optional<TileCell>(int tid)>;

struct Origin {
    long long bRow, bCol, k0;
    int buffer;
};

Origin originOf(const KernelShape &shape, const AccessContext &ctx)
{
    return {ctx.blockRow * shape.bm, ctx.blockCol * shape.bn, ctx.kStep * shape.bk,
            int(ctx.kStep % shape.buffers)};
}

long long globalByteAddress(const KernelShape &shape, const AccessContext &ctx, Operand op, TileCell c)
{
    const Origin o = originOf(shape, ctx);
    const long long n = ctx.size.n, k = ctx.size.k;
    switch (op) {
    case Operand::A:
        return ((o.bRow + c.row) * k + o.k0 + c.col) * kFloatBytes;
    case Operand::B:
        return ((o.k0 + c.row) * n + o.bCol + c.col) * kFloatBytes;
    case Operand::C:
        break;
    }
    return ((o.bRow + c.row) * n + o.bCol + c.col) * kFloatBytes;
}

long long sharedWord(const KernelShape &shape, const AccessContext &ctx, Operand op, TileCell c)
{
    const int buffer = originOf(shape, ctx).buffer;
    if (op == Operand::A)
        return (long long)buffer * shape.bm * shape.sharedRowA() + (long long)c.row * shape.sharedRowA() +
               c.col;
    return (long long)buffer * shape.bk * shape.sharedRowB() + (long long)c.row * shape.sharedRowB() + c.col;
}

WarpLanes lanesOf(const KernelShape &shape, int warp, const LaneCell &cellOf,
                  const std::function<long long(TileCell)> &addressOf)
{
    WarpLanes lanes{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const int tid = warp * kWarpSize + lane;
        if (tid >= shape.threads())
            continue;
        if (const auto cell = cellOf(tid))
            lanes[std::size_t(lane)] = LaneAccess{true, addressOf(*cell), tid};
    }
    return lanes;
}

bool anyActive(const WarpLanes &lanes)
{
    return std::any_of(lanes.begin(), lanes.end(), [](const LaneAccess &l) { return l.active; });
}

std::string loadLabel(const KernelShape &shape, Operand op, int instruction)
{
    const std::string name = operandName(op);
    const int count = loadInstructionCount(shape, op);
    switch (shape.loads) {
    case TileLoadScheme::OneElementPerThread:
        if (!shape.usesSharedMemory)
            return op == Operand::A ? "load A[row*K + k]" : "load B[k*N + col]";
        return "load " + name + " into tile" + name + "[ty][tx]";
    case TileLoadScheme::GuardedStrips:
        return op == Operand::A ? "load A into tileA[ty*TM + i][tx] (tx < BK), i = " + to_string(instruction)
                                : "load B into tileB[ty][tx*TN + j] (ty < BK), j = " + to_string(instruction);
    case TileLoadScheme::Cooperative:
        return "load " + name + ", pass " + to_string(instruction + 1) + " of " + to_string(count) +
               " (idx = tid + " + to_string(instruction) + " x " + to_string(shape.threads()) + ")";
    case TileLoadScheme::NotModelled:
        break;
    }
    return "load " + name;
}

std::string rowExpr(const KernelShape &shape)
{
    if (shape.tm == 1)
        return "ty";
    return shape.layout == ThreadLayout::Strided ? "ty + i*" + to_string(shape.blockY) : "ty*TM + i";
}

std::string colExpr(const KernelShape &shape)
{
    if (shape.tn == 1)
        return "tx";
    return shape.layout == ThreadLayout::Strided ? "tx + j*" + to_string(shape.blockX) : "tx*TN + j";
}

} // namespace

ProblemSize roundedUpToTiles(const KernelShape &shape, const ProblemSize &size)
{
    const auto roundUp = [](long long v, int tile) { return (std::max(v, 1LL) + tile - 1) / tile * tile; };
    return ProblemSize{roundUp(size.m, shape.bm), roundUp(size.n, shape.bn), roundUp(size.k, shape.bk)};
}

std::string accessContextError(const KernelShape &shape, const AccessContext &ctx)
{
    if (shape.loads == TileLoadScheme::NotModelled)
        return "The memory accesses of \"" + stageInfo(shape.stage).title +
               "\" are not modelled yet: its loads use a scheme the access model does not describe.";
    const ProblemSize &s = ctx.size;
    auto notMultiple = [](const char *what, long long v, const char *tile, int t) {
        return std::string(what) + " (" + to_string(v) + ") must be a multiple of " + tile + " (" +
               to_string(t) +
               ") for the access model: it draws full block tiles, where no lane is switched off by a bounds "
               "check.";
    };
    if (s.m < 1 || s.n < 1 || s.k < 1)
        return "M, N and K must be at least 1.";
    if (s.m % shape.bm != 0)
        return notMultiple("M", s.m, "the block tile's rows", shape.bm);
    if (s.n % shape.bn != 0)
        return notMultiple("N", s.n, "the block tile's columns", shape.bn);
    if (s.k % shape.bk != 0)
        return notMultiple("K", s.k, "the reduction tile BK", shape.bk);
    if (ctx.blockRow < 0 || ctx.blockRow >= s.m / shape.bm || ctx.blockCol < 0 ||
        ctx.blockCol >= s.n / shape.bn)
        return "Block (" + to_string(ctx.blockCol) + ", " + to_string(ctx.blockRow) +
               ") lies outside the grid of " + to_string(s.n / shape.bn) + " x " + to_string(s.m / shape.bm) +
               " blocks.";
    if (ctx.kStep < 0 || ctx.kStep >= s.k / shape.bk)
        return "k-step " + to_string(ctx.kStep) + " lies outside the " + to_string(s.k / shape.bk) +
               " steps of the reduction.";
    return {};
}

void analyseGlobal(GlobalAccess &access)
{
    std::set<long long> sectors, addresses;
    access.activeLanes = 0;
    for (const LaneAccess &l : access.lanes) {
        if (!l.active)
            continue;
        ++access.activeLanes;
        addresses.insert(l.address);
        // A 4-byte access at a 4-byte aligned address never straddles a sector.
        sectors.insert(l.address / kSectorBytes);
    }
    access.sectors.assign(sectors.begin(), sectors.end());
    access.uniqueBytes = int(addresses.size()) * kFloatBytes;
}

void analyseShared(SharedAccess &access)
{
    std::array<std::set<long long>, kSharedBanks> words;
    access.activeLanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const LaneAccess &l = access.lanes[std::size_t(lane)];
        access.bankOfLane[std::size_t(lane)] = -1;
        if (!l.active)
            continue;
        ++access.activeLanes;
        const int bank = int(l.address % kSharedBanks);
        access.bankOfLane[std::size_t(lane)] = bank;
        words[std::size_t(bank)].insert(l.address);
    }
    access.conflictDegree = 0;
    for (int b = 0; b < kSharedBanks; ++b) {
        access.distinctWordsPerBank[std::size_t(b)] = int(words[std::size_t(b)].size());
        access.conflictDegree = std::max(access.conflictDegree, int(words[std::size_t(b)].size()));
    }
}

std::vector<GlobalAccess> globalAccesses(const KernelShape &shape, const AccessContext &ctx, int warp)
{
    std::vector<GlobalAccess> out;
    auto add = [&](GlobalAccess a) {
        if (!anyActive(a.lanes))
            return;
        analyseGlobal(a);
        out.push_back(std::move(a));
    };
    for (Operand op : {Operand::A, Operand::B}) {
        for (int i = 0; i < loadInstructionCount(shape, op); ++i) {
            GlobalAccess a;
            a.label = loadLabel(shape, op, i);
            a.operand = op;
            a.kind = AccessKind::Load;
            a.warp = warp;
            a.instruction = i;
            a.lanes = lanesOf(
                shape, warp, [&](int tid) { return loadedElement(shape, op, i, tid); },
                [&](TileCell c) { return globalByteAddress(shape, ctx, op, c); });
            add(std::move(a));
        }
    }
    for (int i = 0; i < shape.tm; ++i) {
        for (int j = 0; j < shape.tn; ++j) {
            GlobalAccess a;
            a.label = "store C[" + rowExpr(shape) + "][" + colExpr(shape) + "]";
            if (shape.outputsPerThread() > 1)
                a.label += ", i = " + to_string(i) + ", j = " + to_string(j);
            a.operand = Operand::C;
            a.kind = AccessKind::Store;
            a.warp = warp;
            a.instruction = i * shape.tn + j;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) {
                    const ThreadCoord t = threadCoord(shape, tid);
                    return std::optional<TileCell>(
                        TileCell{outputRow(shape, t.ty, i), outputCol(shape, t.tx, j)});
                },
                [&](TileCell c) { return globalByteAddress(shape, ctx, Operand::C, c); });
            add(std::move(a));
        }
    }
    return out;
}

std::vector<SharedAccess> sharedAccesses(const KernelShape &shape, const AccessContext &ctx, int warp,
                                         bool allK)
{
    std::vector<SharedAccess> out;
    if (!shape.usesSharedMemory)
        return out;
    auto add = [&](SharedAccess a) {
        if (!anyActive(a.lanes))
            return;
        analyseShared(a);
        out.push_back(std::move(a));
    };
    auto wordOf = [&](Operand op) { return [&, op](TileCell c) { return sharedWord(shape, ctx, op, c); }; };

    // The stores that fill the tiles: one per global load instruction, same lanes.
    for (Operand op : {Operand::A, Operand::B}) {
        for (int i = 0; i < loadInstructionCount(shape, op); ++i) {
            SharedAccess a;
            a.label = "store tile" + operandName(op) + ": " + loadLabel(shape, op, i);
            a.operand = op;
            a.kind = AccessKind::Store;
            a.warp = warp;
            a.lanes = lanesOf(
                shape, warp, [&](int tid) { return loadedElement(shape, op, i, tid); }, wordOf(op));
            add(std::move(a));
        }
    }

    // Inner loop: for k { aFrag[i] = tileA[row(i)][k]; bFrag[j] = tileB[k][col(j)]; }
    const int kCount = allK ? shape.bk : 1;
    for (int k = 0; k < kCount; ++k) {
        for (int i = 0; i < shape.tm; ++i) {
            SharedAccess a;
            a.label = "read tileA[" + rowExpr(shape) + "][k]" +
                      (shape.tm > 1 ? ", i = " + to_string(i) : "") + ", k = " + to_string(k);
            a.operand = Operand::A;
            a.warp = warp;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) {
                    return std::optional<TileCell>(
                        TileCell{outputRow(shape, threadCoord(shape, tid).ty, i), k});
                },
                wordOf(Operand::A));
            add(std::move(a));
        }
        for (int j = 0; j < shape.tn; ++j) {
            SharedAccess a;
            a.label = "read tileB[k][" + colExpr(shape) + "]" +
                      (shape.tn > 1 ? ", j = " + to_string(j) : "") + ", k = " + to_string(k);
            a.operand = Operand::B;
            a.warp = warp;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) {
                    return std::optional<TileCell>(
                        TileCell{k, outputCol(shape, threadCoord(shape, tid).tx, j)});
                },
                wordOf(Operand::B));
            add(std::move(a));
        }
    }
    return out;
}

SharedAccess columnAccess(int tileWidth, int pad, int column)
{
    SharedAccess a;
    a.label = "read column " + to_string(column) + " of a " + to_string(tileWidth) + "-wide tile" +
              (pad > 0 ? " padded by " + to_string(pad) : ", unpadded");
    for (int lane = 0; lane < kWarpSize; ++lane)
        a.lanes[std::size_t(lane)] = LaneAccess{true, (long long)lane * (tileWidth + pad) + column, lane};
    analyseShared(a);
    return a;
}

SharedAccess rowAccess(int tileWidth, int pad, int row)
{
    SharedAccess a;
    a.label = "read row " + to_string(row) + " of a " + to_string(tileWidth) + "-wide tile" +
              (pad > 0 ? " padded by " + to_string(pad) : ", unpadded");
    for (int lane = 0; lane < kWarpSize; ++lane)
        a.lanes[std::size_t(lane)] = LaneAccess{true, (long long)row * (tileWidth + pad) + lane, lane};
    analyseShared(a);
    return a;
}

AccessSummary summarizeBlock(const KernelShape &shape, const AccessContext &ctx)
{
    AccessSummary s;
    auto count = [](ClassSummary &c, long long sectors, long long useful) {
        ++c.requests;
        c.sectors += sectors;
        c.usefulBytes += useful;
    };
    for (int w = 0; w < shape.warps(); ++w) {
        for (const GlobalAccess &g : globalAccesses(shape, ctx, w)) {
            ClassSummary &c = g.operand == Operand::A   ? s.loadA
                              : g.operand == Operand::B ? s.loadB
                                                        : s.storeC;
            count(c, g.sectorsPerRequest(), g.uniqueBytes);
            if (g.kind == AccessKind::Load)
                count(s.globalLoads, g.sectorsPerRequest(), g.uniqueBytes);
        }
        for (const SharedAccess &a : sharedAccesses(shape, ctx, w, true))
            count(a.kind == AccessKind::Load ? s.sharedLoads : s.sharedStores, a.conflictDegree, 0);
    }
    return s;
}

std::optional<KernelInstructionCounts> kernelInstructionCounts(const KernelShape &shape,
                                                               const ProblemSize &size)
{
    AccessContext ctx;
    ctx.size = size;
    if (!accessContextError(shape, ctx).empty())
        return std::nullopt;
    const AccessSummary block = summarizeBlock(shape, ctx);
    const long long blocks = (size.m / shape.bm) * (size.n / shape.bn);
    const long long kSteps = size.k / shape.bk;
    KernelInstructionCounts counts;
    counts.globalLoads = block.globalLoads.requests * blocks * kSteps;
    counts.globalStores = block.storeC.requests * blocks; // C is stored once, after the k loop
    counts.sharedLoads = block.sharedLoads.requests * blocks * kSteps;
    counts.sharedStores = block.sharedStores.requests * blocks * kSteps;
    return counts;
}

} // namespace gemmscope
