#include "access_model.h"

#include "layout_scheme.h"
#include "load_scheme.h"
#include "mma_fragments.h"

#include <algorithm>
#include <functional>
#include <set>

namespace gemmscope {

namespace {

using std::to_string;

// A tile cell of `operand` for a lane, or nothing when the lane sits out this instruction.
using LaneCell = std::function<std::optional<TileCell>(int tid)>;

long long globalByteAddress(const KernelShape &shape, const AccessContext &ctx, Operand op, TileCell c)
{
    const TileOrigin o = tileOrigin(shape, ctx);
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
    const int buffer = tileOrigin(shape, ctx).buffer;
    if (op == Operand::A && shape.transposedA) // tileAT[k][m]: A's (row, k) at k * (BM + padA) + row
        return (long long)buffer * shape.sharedRowsA() * shape.sharedRowA() +
               (long long)c.col * shape.sharedRowA() + c.row;
    if (op == Operand::A)
        return (long long)buffer * shape.bm * shape.sharedRowA() + (long long)c.row * shape.sharedRowA() +
               c.col;
    return (long long)buffer * shape.bk * shape.sharedRowB() + (long long)c.row * shape.sharedRowB() + c.col;
}

WarpLanes lanesOf(const KernelShape &shape, int warp, const LaneCell &cellOf,
                  const std::function<long long(TileCell)> &addressOf, int bytes = kFloatBytes)
{
    WarpLanes lanes{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const int tid = warp * kWarpSize + lane;
        if (tid >= shape.threads())
            continue;
        if (const auto cell = cellOf(tid))
            lanes[std::size_t(lane)] = LaneAccess{true, addressOf(*cell), tid, bytes};
    }
    return lanes;
}

bool anyActive(const WarpLanes &lanes)
{
    return std::any_of(lanes.begin(), lanes.end(), [](const LaneAccess &l) { return l.active; });
}

// The C-tile row and column of output (i, j) as the kernel writes them: the layout's expressions.
std::string rowExpr(const KernelShape &shape)
{
    return layoutSchemeOf(shape).rowExpression(shape);
}

std::string colExpr(const KernelShape &shape)
{
    return layoutSchemeOf(shape).colExpression(shape);
}

// mma_tf32's ldmatrix.x4 of m16 tile mi at k-step kk: lane l gives the address of row l % 16 of
// the tile, floats 8 kk + (l / 16) * 4 .. + 3 (16 bytes), so lanes 0-7, 8-15, 16-23, 24-31 name
// the rows of matrices 0..3 = a0 (rows 0-7, k 0-3), a1 (rows 8-15), a2 (rows 0-7, k 4-7), a3.
SharedAccess ldmatrixRead(const KernelShape &shape, const AccessContext &ctx, int warp, int mi, int kk)
{
    SharedAccess a;
    a.label =
        "ldmatrix.x4 A fragments a0..a3 = As[warpRow + 16*mi + lane%16][8*kk + (lane/16)*4 ..+3], mi = " +
        to_string(mi) + ", kk = " + to_string(kk);
    a.operand = Operand::A;
    a.warp = warp;
    a.ldmatrixMatrices = 4;
    a.lanes = lanesOf(
        shape, warp,
        [&](int tid) {
            const ThreadCoord tc = threadCoord(shape, tid);
            const int warpRow = (tc.warp / shape.warpsX()) * shape.warpTileRows();
            return std::optional<TileCell>(
                TileCell{warpRow + mi * kMmaM + tc.lane % 16, kk * kMmaK + (tc.lane / 16) * 4});
        },
        [&](TileCell c) { return sharedWord(shape, ctx, Operand::A, c); }, 4 * kFloatBytes);
    return a;
}

// mma.sync's fragment reads from the padded row-major tiles, one 32-bit ld.shared per register, in
// the kernel's order: for each k-step of 8 (kk), the A fragments of every m16 tile of the warp
// tile (a0..a3), then the B fragments of every n8 tile (b0, b1). Lane l's word follows the PTX
// table: A register r of tile mi is As[warpRow + 16 mi + row][8 kk + col], B register r of tile ni
// is Bs[8 kk + row][warpCol + 8 ni + col], (row, col) = mmaElementOf(operand, l, r).
void addFragmentReads(const KernelShape &shape, const AccessContext &ctx, int warp, bool allK,
                      const std::function<void(SharedAccess)> &add)
{
    const int kSteps = allK ? shape.bk / kMmaK : 1;
    const int mTiles = shape.warpTileRows() / kMmaM, nTiles = shape.warpTileCols() / kMmaN;
    for (int kk = 0; kk < kSteps; ++kk) {
        for (Operand op : {Operand::A, Operand::B}) {
            const int tiles = op == Operand::A ? mTiles : nTiles;
            for (int t = 0; t < tiles; ++t) {
                if (op == Operand::A && shape.ldmatrixA) {
                    add(ldmatrixRead(shape, ctx, warp, t, kk));
                    continue;
                }
                for (int r = 0; r < mmaRegistersPerLane(op); ++r) {
                    SharedAccess a;
                    const std::string name = operandName(op);
                    a.label = "read " + name + " fragment " + (op == Operand::A ? "a" : "b") + to_string(r) +
                              " = " + name + "s[" +
                              (op == Operand::A ? "warpRow + 16*mi + row][8*kk + col]"
                                                : "8*kk + row][warpCol + 8*ni + col]") +
                              (op == Operand::A ? ", mi = " : ", ni = ") + to_string(t) +
                              ", kk = " + to_string(kk);
                    a.operand = op;
                    a.warp = warp;
                    a.lanes = lanesOf(
                        shape, warp,
                        [&](int tid) {
                            const ThreadCoord tc = threadCoord(shape, tid);
                            const TileCell e = mmaElementOf(op, tc.lane, r);
                            const int warpRow = (tc.warp / shape.warpsX()) * shape.warpTileRows();
                            const int warpCol = (tc.warp % shape.warpsX()) * shape.warpTileCols();
                            return std::optional<TileCell>(
                                op == Operand::A ? TileCell{warpRow + t * kMmaM + e.row, kk * kMmaK + e.col}
                                                 : TileCell{kk * kMmaK + e.row, warpCol + t * kMmaN + e.col});
                        },
                        [&](TileCell c) { return sharedWord(shape, ctx, op, c); });
                    add(std::move(a));
                }
            }
        }
    }
}

} // namespace

ProblemSize roundedUpToTiles(const KernelShape &shape, const ProblemSize &size)
{
    const auto roundUp = [](long long v, int tile) { return (std::max(v, 1LL) + tile - 1) / tile * tile; };
    return ProblemSize{roundUp(size.m, shape.bm), roundUp(size.n, shape.bn), roundUp(size.k, shape.bk)};
}

TileOrigin tileOrigin(const KernelShape &shape, const AccessContext &ctx)
{
    return {ctx.blockRow * shape.bm, ctx.blockCol * shape.bn, ctx.kStep * shape.bk,
            int(ctx.kStep % shape.buffers)};
}

std::string accessContextError(const KernelShape &shape, const AccessContext &ctx)
{
    if (std::string reason = loadSchemeOf(shape).notModelledReason(shape); !reason.empty())
        return reason;
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
    std::set<long long> sectors, words;
    access.activeLanes = 0;
    for (const LaneAccess &l : access.lanes) {
        if (!l.active)
            continue;
        ++access.activeLanes;
        // Accesses are aligned to their width, so a 4- or 16-byte access never straddles a sector.
        for (long long b = l.address; b < l.address + l.bytes; b += kFloatBytes) {
            words.insert(b / kFloatBytes);
            sectors.insert(b / kSectorBytes);
        }
    }
    access.sectors.assign(sectors.begin(), sectors.end());
    access.uniqueBytes = int(words.size()) * kFloatBytes;
}

void analyseShared(SharedAccess &access)
{
    std::array<std::set<long long>, kSharedBanks> words;
    std::set<long long> allWords;
    access.activeLanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const LaneAccess &l = access.lanes[std::size_t(lane)];
        access.bankOfLane[std::size_t(lane)] = -1;
        if (!l.active)
            continue;
        ++access.activeLanes;
        access.bankOfLane[std::size_t(lane)] = int(l.address % kSharedBanks);
        for (long long w = l.address; w < l.address + l.bytes / kFloatBytes; ++w) {
            words[std::size_t(w % kSharedBanks)].insert(w);
            allWords.insert(w);
        }
    }
    // 32 banks deliver one word each per wavefront: a wide access needs at least its distinct
    // words / 32 wavefronts even when no bank is asked for two words.
    access.conflictDegree = int((allWords.size() + kSharedBanks - 1) / kSharedBanks);
    for (int b = 0; b < kSharedBanks; ++b) {
        access.distinctWordsPerBank[std::size_t(b)] = int(words[std::size_t(b)].size());
        access.conflictDegree = std::max(access.conflictDegree, int(words[std::size_t(b)].size()));
    }
    if (access.ldmatrixMatrices > 0 && access.activeLanes > 0) {
        // One matrix (8 lanes' rows, 128 bytes) per wavefront at best, more where its rows share a bank.
        const int lanesPerMatrix = kWarpSize / access.ldmatrixMatrices;
        access.conflictDegree = 0;
        for (int m = 0; m < access.ldmatrixMatrices; ++m) {
            std::array<std::set<long long>, kSharedBanks> matrixWords;
            int most = 0;
            for (int lane = m * lanesPerMatrix; lane < (m + 1) * lanesPerMatrix; ++lane) {
                const LaneAccess &l = access.lanes[std::size_t(lane)];
                for (long long w = l.address; l.active && w < l.address + l.bytes / kFloatBytes; ++w) {
                    auto &bank = matrixWords[std::size_t(w % kSharedBanks)];
                    bank.insert(w);
                    most = std::max(most, int(bank.size()));
                }
            }
            access.conflictDegree += most;
        }
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
            a.label = loadSchemeOf(shape).instructionLabel(shape, op, i);
            a.operand = op;
            a.kind = AccessKind::Load;
            a.warp = warp;
            a.instruction = i;
            a.lanes = lanesOf(
                shape, warp, [&](int tid) { return loadedElement(shape, op, i, tid); },
                [&](TileCell c) { return globalByteAddress(shape, ctx, op, c); },
                kFloatBytes * loadWidth(shape, op));
            add(std::move(a));
        }
    }
    // C stores: one per output, or one float4 per four neighbouring outputs (vectorWidth 4).
    const int width = shape.vectorWidth;
    for (int i = 0; i < shape.tm; ++i) {
        for (int j = 0; j < shape.tn; j += width) {
            GlobalAccess a;
            a.label = std::string(width > 1 ? "store float4 C[" : "store C[") + rowExpr(shape) + "][" +
                      colExpr(shape) + "]";
            if (shape.outputsPerThread() > 1)
                a.label += ", i = " + to_string(i) + ", j = " + to_string(j);
            a.operand = Operand::C;
            a.kind = AccessKind::Store;
            a.warp = warp;
            a.instruction = (i * shape.tn + j) / width;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) -> std::optional<TileCell> {
                    if (tid < shape.firstConsumerThread ||
                        tid >= shape.firstConsumerThread + shape.outputThreads())
                        return std::nullopt; // a producer warp stores nothing
                    const ThreadCoord t = threadCoord(shape, tid);
                    return TileCell{outputRow(shape, t, i), outputCol(shape, t, j)};
                },
                [&](TileCell c) { return globalByteAddress(shape, ctx, Operand::C, c); }, kFloatBytes *width);
            add(std::move(a));
        }
    }
    return out;
}

std::vector<SharedAccess> sharedAccesses(const KernelShape &shape, const AccessContext &ctx, int warp,
                                         bool allK)
{
    std::vector<SharedAccess> out;
    // A copy engine may fill the tiles and the tensor core read them (TMA and wgmma): then no lane
    // touches shared memory (tmaBoxes and tensorCoreChunkRead describe what happens instead).
    if (!shape.usesSharedMemory || !loadSchemeOf(shape).lanesAccessSharedTiles())
        return out;
    auto add = [&](SharedAccess a) {
        if (!anyActive(a.lanes))
            return;
        analyseShared(a);
        out.push_back(std::move(a));
    };
    auto wordOf = [&](Operand op) { return [&, op](TileCell c) { return sharedWord(shape, ctx, op, c); }; };

    // The stores that fill the tiles: one per global load instruction, same lanes. A transposed
    // A tile takes one 4-byte store per float loaded (a float4 of a row of A is a column of tileAT).
    for (Operand op : {Operand::A, Operand::B}) {
        const int width = loadWidth(shape, op);
        const bool scatter = op == Operand::A && shape.transposedA;
        for (int i = 0; i < loadInstructionCount(shape, op); ++i) {
            for (int q = 0; q < (scatter ? width : 1); ++q) {
                SharedAccess a;
                a.label = "store tile" + operandName(op) + (scatter ? "T" : "") + ": " +
                          loadSchemeOf(shape).instructionLabel(shape, op, i);
                if (scatter && width > 1)
                    a.label += ", float " + to_string(q);
                a.operand = op;
                a.kind = AccessKind::Store;
                a.warp = warp;
                a.lanes = lanesOf(
                    shape, warp,
                    [&](int tid) -> std::optional<TileCell> {
                        auto cell = loadedElement(shape, op, i, tid);
                        if (cell)
                            cell->col += q;
                        return cell;
                    },
                    wordOf(op), kFloatBytes *(scatter ? 1 : width));
                add(std::move(a));
            }
        }
    }

    if (layoutSchemeOf(shape).readsMmaFragments()) {
        addFragmentReads(shape, ctx, warp, allK, add);
        return out;
    }
    // Inner loop: for k { aFrag[i] = tileA[row(i)][k]; bFrag[j] = tileB[k][col(j)]; }, the
    // fragments read vectorWidth floats at a time (rows 4f..4f+3 of a transposed A tile and
    // columns 4f..4f+3 of B are neighbouring words).
    const int width = shape.vectorWidth;
    const int kCount = allK ? shape.bk : 1;
    for (int k = 0; k < kCount; ++k) {
        for (int i = 0; i < shape.tm; i += width) {
            SharedAccess a;
            a.label = (shape.transposedA ? "read float4 tileAT[k][" + rowExpr(shape) + "]"
                                         : "read tileA[" + rowExpr(shape) + "][k]") +
                      (shape.tm > 1 ? ", i = " + to_string(i) : "") + ", k = " + to_string(k);
            a.operand = Operand::A;
            a.warp = warp;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) {
                    return std::optional<TileCell>(TileCell{outputRow(shape, threadCoord(shape, tid), i), k});
                },
                wordOf(Operand::A), kFloatBytes * width);
            add(std::move(a));
        }
        for (int j = 0; j < shape.tn; j += width) {
            SharedAccess a;
            a.label = std::string(width > 1 ? "read float4 tileB[k][" : "read tileB[k][") + colExpr(shape) +
                      "]" + (shape.tn > 1 ? ", j = " + to_string(j) : "") + ", k = " + to_string(k);
            a.operand = Operand::B;
            a.warp = warp;
            a.lanes = lanesOf(
                shape, warp,
                [&](int tid) {
                    return std::optional<TileCell>(TileCell{k, outputCol(shape, threadCoord(shape, tid), j)});
                },
                wordOf(Operand::B), kFloatBytes * width);
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

namespace {

// transpose.cuh: 32 x 32 tiles, 8 warps of 32 x 8 threads, four rows each. Every warp issues 4
// loads of B (a row of 32 floats: 128 contiguous bytes), 4 stores into tile[32][33] (a row: 32
// banks), 4 reads of the tile (a column of the padded tile: banks (33 x + c) % 32, all 32) and 4
// stores of BT (128 contiguous bytes).
constexpr int kTransposeTile = 32, kTransposeInstructionsPerTile = 8 * 4;

long long transposeTiles(const ProblemSize &size)
{
    return ((size.n + kTransposeTile - 1) / kTransposeTile) *
           ((size.k + kTransposeTile - 1) / kTransposeTile);
}

bool hasTranspose(const KernelShape &shape)
{
    const StageInfo *info = findStage(shape.stage.str());
    return info && info->transposedB;
}

} // namespace

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
    // cp.async writes shared memory from the copy engine (LDGSTS): no STS instruction is issued,
    // which is what the hardware's shared-store count sees (measured 0 on the H200).
    counts.sharedStores =
        loadSchemeOf(shape).tileStoresAreInstructions() ? block.sharedStores.requests * blocks * kSteps : 0;
    if (hasTranspose(shape)) {
        const long long each = transposeTiles(size) * kTransposeInstructionsPerTile;
        counts.transpose = {each, each, each, each};
        counts.globalLoads += each;
        counts.globalStores += each;
        counts.sharedLoads += each;
        counts.sharedStores += each;
    }
    return counts;
}

std::optional<AccessSummary> summarizeLaunch(const KernelShape &shape, const ProblemSize &size)
{
    AccessContext ctx;
    ctx.size = size;
    if (!accessContextError(shape, ctx).empty())
        return std::nullopt;
    AccessSummary s = summarizeBlock(shape, ctx);
    const long long blocks = (size.m / shape.bm) * (size.n / shape.bn);
    const long long kSteps = size.k / shape.bk;
    const auto scale = [](ClassSummary &c, long long times) {
        c.requests *= times;
        c.sectors *= times;
        c.usefulBytes *= times;
    };
    for (ClassSummary *c : {&s.loadA, &s.loadB, &s.globalLoads, &s.sharedLoads, &s.sharedStores})
        scale(*c, blocks * kSteps);
    scale(s.storeC, blocks);
    if (hasTranspose(shape)) {
        const long long each = transposeTiles(size) * kTransposeInstructionsPerTile;
        const long long rowBytes = kTransposeTile * kFloatBytes;
        const auto add = [each](ClassSummary &c, long long sectorsEach, long long usefulEach) {
            c.requests += each;
            c.sectors += each * sectorsEach;
            c.usefulBytes += each * usefulEach;
        };
        add(s.globalLoads, rowBytes / kSectorBytes, rowBytes);
        add(s.loadB, rowBytes / kSectorBytes, rowBytes);
        add(s.storeC, rowBytes / kSectorBytes, rowBytes); // BT's stores: the launch's other stores
        add(s.sharedLoads, 1, 0);
        add(s.sharedStores, 1, 0);
    }
    return s;
}

int swizzled128Chunk(int row, int chunk)
{
    return chunk ^ (row % kSwizzleAtomRows);
}

long long swizzled128Word(int row, int col)
{
    constexpr int floatsPerRow = kSwizzleRowBytes / kFloatBytes,
                  floatsPerChunk = kSwizzleChunkBytes / kFloatBytes;
    return (long long)row * floatsPerRow + swizzled128Chunk(row, col / floatsPerChunk) * floatsPerChunk +
           col % floatsPerChunk;
}

std::array<std::array<int, kSwizzleChunks>, kSwizzleAtomRows> swizzle128Atom()
{
    std::array<std::array<int, kSwizzleChunks>, kSwizzleAtomRows> atom{};
    for (int r = 0; r < kSwizzleAtomRows; ++r)
        for (int q = 0; q < kSwizzleChunks; ++q)
            atom[std::size_t(r)][std::size_t(swizzled128Chunk(r, q))] = q;
    return atom;
}

std::vector<TmaBox> tmaBoxes(const KernelShape &shape, const AccessContext &ctx)
{
    return loadSchemeOf(shape).tileCopies(shape, ctx);
}

SharedAccess tensorCoreChunkRead(int chunk, bool swizzled)
{
    SharedAccess a;
    a.label = "tensor core reads k " + to_string(4 * chunk) + ".." + to_string(4 * chunk + 3) +
              " of rows 0-7 (" + (swizzled ? "128-byte swizzle" : "no swizzle") + ")";
    a.operand = Operand::A;
    a.tensorCoreRead = true;
    constexpr int wordsPerChunk = kSwizzleChunkBytes / kFloatBytes;
    for (int i = 0; i < kWarpSize; ++i) {
        const int row = i / wordsPerChunk, col = 4 * chunk + i % wordsPerChunk;
        const long long word = swizzled ? swizzled128Word(row, col) : (long long)row * 32 + col;
        a.lanes[std::size_t(i)] = LaneAccess{true, word, -1, kFloatBytes};
    }
    analyseShared(a);
    return a;
}

} // namespace gemmscope
