#include "stage_catalog.h"

#include "custom_stage.h"
#include "tensor_core_models.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace gemmscope {
namespace {

ParamSpec choiceParam(std::string name, std::string label, std::string help, std::vector<int> choices,
                      int def)
{
    ParamSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.help = std::move(help);
    p.choices = std::move(choices);
    p.min = p.choices.front();
    p.max = p.choices.back();
    p.step = 1;
    p.defaultValue = def;
    return p;
}

std::vector<ParamSpec> registerTileParams()
{
    const std::vector<int> blockTiles = {16, 32, 48, 64, 96, 128, 192, 256};
    const std::vector<int> reductionTiles = {4, 8, 12, 16, 24, 32};
    const std::vector<int> threadTiles = {1, 2, 3, 4, 6, 8, 12, 16};
    return {
        choiceParam("BM", "Block tile rows (BM)", "Rows of C computed by one thread block.", blockTiles, 64),
        choiceParam("BN", "Block tile columns (BN)", "Columns of C computed by one thread block.", blockTiles,
                    64),
        choiceParam("BK", "Reduction tile (BK)",
                    "Depth of the A and B tiles staged in shared memory per step.", reductionTiles, 8),
        choiceParam("TM", "Thread tile rows (TM)", "Rows of C each thread accumulates in registers.",
                    threadTiles, 4),
        choiceParam("TN", "Thread tile columns (TN)", "Columns of C each thread accumulates in registers.",
                    threadTiles, 4),
    };
}

std::string str(long long v)
{
    return std::to_string(v);
}

std::string str(int v)
{
    return std::to_string(v);
}

// A range's value on its steps (min, min + step, ...); every built-in range steps by 1.
bool onStep(const ParamSpec &spec, int v)
{
    return spec.step <= 1 || (static_cast<long long>(v) - spec.min) % spec.step == 0;
}

constexpr int kStaticSharedLimit = 48 * 1024;   // static __shared__ arrays; more needs dynamic opt-in
constexpr int kDynamicSharedLimit = 227 * 1024; // the most any GPU gives one block (sm_90 opt-in)
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxAccumulators = 192; // TM*TN beyond this cannot stay in 255 registers
constexpr long long kMaxGridY = 65535;

// ceil(extent / tile) without overflow for any 64-bit extent, and 0 where either is not positive.
long long blocksFor(long long extent, int tile)
{
    return extent < 1 || tile < 1 ? 0 : (extent - 1) / tile + 1;
}

long long ceilDiv(long long a, long long b)
{
    return a < 1 || b < 1 ? 0 : (a - 1) / b + 1;
}

// ---- Model pieces the entries share. A new stage that reuses a load scheme reuses these. ----

// A 2-D block of blockX x blockY threads; the grid covers C with BM x BN block tiles.
LaunchGeometry tiledLaunch(int blockX, int blockY, int bm, int bn, const ProblemSize &size)
{
    LaunchGeometry g;
    g.blockX = blockX;
    g.blockY = blockY;
    g.gridX = blocksFor(size.n, bn);
    g.gridY = blocksFor(size.m, bm);
    return g;
}

// The register-tiled family (steps 2-8): BM x BN block tile, BK deep, TM x TN per thread, a
// (BN/TN) x (BM/TM) block.
struct RegisterTile {
    int bm, bn, bk, tm, tn;
    explicit RegisterTile(const ParamValues &p)
        : bm(paramValue(p, "BM")), bn(paramValue(p, "BN")), bk(paramValue(p, "BK")), tm(paramValue(p, "TM")),
          tn(paramValue(p, "TN"))
    {
    }
    int threadsX() const { return bn / std::max(1, tn); }
    int threadsY() const { return bm / std::max(1, tm); }
};

void registerTileConstraints(const ParamValues &params, const ProblemSize &size,
                             std::vector<std::string> &out)
{
    const RegisterTile t(params);
    bool divisible = true;
    if (t.bm % t.tm != 0) {
        out.push_back("BM (" + str(t.bm) + ") must be a multiple of TM (" + str(t.tm) +
                      "): each thread owns TM rows of the block tile.");
        divisible = false;
    }
    if (t.bn % t.tn != 0) {
        out.push_back("BN (" + str(t.bn) + ") must be a multiple of TN (" + str(t.tn) +
                      "): each thread owns TN columns of the block tile.");
        divisible = false;
    }
    if (divisible && t.threadsX() * t.threadsY() > kMaxThreadsPerBlock)
        out.push_back("BM/TM x BN/TN (" + str(t.threadsY()) + " x " + str(t.threadsX()) + " = " +
                      str(t.threadsX() * t.threadsY()) + " threads) must not exceed 1024 threads per block.");
    if (t.tm * t.tn > kMaxAccumulators)
        out.push_back("TM x TN (" + str(t.tm) + " x " + str(t.tn) + " = " + str(t.tm * t.tn) +
                      " accumulators) cannot stay in the 255 registers a thread may "
                      "use; keep it at most " +
                      str(kMaxAccumulators) + ".");
    if (blocksFor(size.m, t.bm) > kMaxGridY)
        out.push_back("M (" + str(size.m) + ") needs more than 65535 blocks in y at BM = " + str(t.bm) + ".");
}

LaunchGeometry registerTileLaunch(const ParamValues &p, const ProblemSize &size)
{
    const RegisterTile t(p);
    return tiledLaunch(t.threadsX(), t.threadsY(), t.bm, t.bn, size);
}

// `buffers` shared A (BM x BK) and B (BK x BN) tiles of floats.
std::function<int(const ParamValues &)> registerTileSmem(int buffers)
{
    return [buffers](const ParamValues &p) {
        const RegisterTile t(p);
        return buffers * int(sizeof(float)) * (t.bm + t.bn) * t.bk;
    };
}

std::function<KernelShape(const ParamValues &)> registerTileMapping(TileLoadScheme loads, ThreadLayout layout,
                                                                    int buffers)
{
    return [=](const ParamValues &p) {
        const RegisterTile t(p);
        KernelShape s;
        s.bm = t.bm;
        s.bn = t.bn;
        s.bk = t.bk;
        s.tm = t.tm;
        s.tn = t.tn;
        s.blockX = t.threadsX();
        s.blockY = t.threadsY();
        s.loads = loads;
        s.layout = layout;
        s.buffers = buffers;
        return s;
    };
}

// Every block loads a BM x BK tile of A and a BK x BN tile of B per step of the reduction.
LoadTraffic blockTileTraffic(const ParamValues &p, const ProblemSize &size, const LaunchGeometry &g)
{
    const RegisterTile t(p);
    return blockTileLoads(t.bm, t.bn, t.bk, size, g);
}

// The model of a register-tiled stage; entries change what differs (constraints, ...).
StageModel registerTileModel(TileLoadScheme loads, ThreadLayout layout, int buffers)
{
    StageModel m;
    m.launch = registerTileLaunch;
    m.staticSmem = registerTileSmem(buffers);
    m.constraints = registerTileConstraints;
    m.mapping = registerTileMapping(loads, layout, buffers);
    m.traffic = blockTileTraffic;
    return m;
}

StageModel naiveModel()
{
    StageModel m;
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        const int bx = paramValue(p, "BX"), by = paramValue(p, "BY");
        return tiledLaunch(bx, by, by, bx, size);
    };
    m.staticSmem = [](const ParamValues &) { return 0; };
    m.constraints = [](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        const int bx = paramValue(p, "BX"), by = paramValue(p, "BY");
        if (bx * by > kMaxThreadsPerBlock)
            out.push_back("BX x BY (" + str(bx) + " x " + str(by) + " = " + str(bx * by) +
                          ") must not exceed 1024 threads per block.");
        if (blocksFor(size.m, by) > kMaxGridY)
            out.push_back("M (" + str(size.m) + ") needs more than 65535 blocks in y at BY = " + str(by) +
                          "; raise BY.");
    };
    // No shared memory: modelled as BM = BY, BN = BX, BK = 1, TM = TN = 1 (mapping_model.h).
    m.mapping = [](const ParamValues &p) {
        KernelShape s;
        s.blockX = s.bn = paramValue(p, "BX");
        s.blockY = s.bm = paramValue(p, "BY");
        s.bk = 1;
        s.usesSharedMemory = false;
        s.loads = TileLoadScheme::OneElementPerThread;
        return s;
    };
    // Every multiply-add reads one float of A and one of B from global memory.
    m.traffic = [](const ParamValues &, const ProblemSize &size, const LaunchGeometry &) {
        return LoadTraffic{2.0 * sizeof(float) * double(size.m) * double(size.n) * double(size.k),
                           "naive: 2K FLOP / 8K bytes per output = 0.25"};
    };
    return m;
}

StageModel smemTiledModel()
{
    StageModel m;
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        const int tile = paramValue(p, "TILE");
        return tiledLaunch(tile, tile, tile, tile, size);
    };
    m.staticSmem = [](const ParamValues &p) {
        const int t = paramValue(p, "TILE");
        return int(sizeof(float)) * (t * t + t * (t + paramValue(p, "PAD")));
    };
    // BM = BN = BK = TILE, TM = TN = 1, with PAD extra floats per row of the B tile.
    m.mapping = [](const ParamValues &p) {
        KernelShape s;
        s.blockX = s.blockY = s.bm = s.bn = s.bk = paramValue(p, "TILE");
        s.padB = paramValue(p, "PAD");
        s.loads = TileLoadScheme::OneElementPerThread;
        return s;
    };
    // Each thread loads one float of A and one of B per tile step: 8 bytes per T multiply-adds.
    m.traffic = [](const ParamValues &p, const ProblemSize &size, const LaunchGeometry &) {
        const int tile = paramValue(p, "TILE");
        return LoadTraffic{2.0 * sizeof(float) * double(size.m) * double(size.n) *
                               double(ceilDiv(size.k, tile)),
                           "tiled: T/4 = " + str(tile) + "/4"};
    };
    return m;
}

// ---- The stages past the seeds: 128-bit loads, a transposed A tile, warp tiles. ----

// The register-tile parameters with a default of their own (these stages start at 128x128).
std::vector<ParamSpec> wideTileParams(int bk, int tm, int tn)
{
    std::vector<ParamSpec> p = registerTileParams();
    p[0].defaultValue = 128;
    p[1].defaultValue = 128;
    p[2].defaultValue = bk;
    p[3].defaultValue = tm;
    p[4].defaultValue = tn;
    return p;
}

// float4 loads and fragment reads: every tile extent a thread reads four at a time is a multiple of 4.
void vectorConstraints(const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out)
{
    registerTileConstraints(p, size, out);
    const RegisterTile t(p);
    if (t.bk % 4 != 0)
        out.push_back("BK (" + str(t.bk) +
                      ") must be a multiple of 4: A is loaded four floats of a row at a time.");
    if (t.tm % 4 != 0)
        out.push_back("TM (" + str(t.tm) +
                      ") must be a multiple of 4: a thread reads its A fragment as float4.");
    if (t.tn % 4 != 0)
        out.push_back("TN (" + str(t.tn) +
                      ") must be a multiple of 4: a thread reads its B fragment and stores C "
                      "as float4.");
}

// The warp-tiled family: a warp's 32 lanes sit 4 x 8 in a 4*TM x 8*TN warp tile, and the warp
// tiles cover the block tile. `wholeLoads`: every thread issues the same number of A and B loads
// (pipelined keeps them in registers: an array per thread); `copiesOfA` counts A in single floats
// (async_pipelined's 4-byte cp.async) instead of float4.
void warpTileConstraints(const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out,
                         bool wholeLoads, bool copiesOfA)
{
    vectorConstraints(p, size, out);
    const RegisterTile t(p);
    if (t.tm % 4 != 0 || t.tn % 4 != 0)
        return;
    const int wm = 4 * t.tm, wn = 8 * t.tn;
    if (t.bm % wm != 0)
        out.push_back("BM (" + str(t.bm) + ") must be a multiple of the warp tile's rows, 4 x TM = " +
                      str(wm) + ": a warp's lanes sit 4 x 8 and each owns TM rows.");
    if (t.bn % wn != 0)
        out.push_back("BN (" + str(t.bn) + ") must be a multiple of the warp tile's columns, 8 x TN = " +
                      str(wn) + ": a warp's lanes sit 4 x 8 and each owns TN columns.");
    if (!wholeLoads || t.bm % wm != 0 || t.bn % wn != 0 || t.bk % 4 != 0)
        return;
    const int threads = t.threadsX() * t.threadsY();
    const int aUnits = copiesOfA ? t.bm * t.bk : t.bm * t.bk / 4;
    if (aUnits % threads != 0)
        out.push_back("The A tile (" + str(t.bm) + " x " + str(t.bk) +
                      (copiesOfA ? " floats" : " floats as float4") + ") must split evenly over the " +
                      str(threads) + " threads: raise BK or BM.");
    if (t.bk * t.bn / 4 % threads != 0)
        out.push_back("The B tile (" + str(t.bk) + " x " + str(t.bn) +
                      " floats as float4) must split evenly over the " + str(threads) +
                      " threads: raise BK or BN.");
}

// A 1-D block of (BM/TM) x (BN/TN) threads (the warp index, not (tx, ty), places a thread).
LaunchGeometry warpTileLaunch(const ParamValues &p, const ProblemSize &size)
{
    const RegisterTile t(p);
    return tiledLaunch(t.threadsX() * t.threadsY(), 1, t.bm, t.bn, size);
}

// Floats of padding per row of a transposed A tile: 4 keeps its stores conflict-free; pipelined
// drops it where the two buffers would pass the 48 KiB of static shared memory (its kernel says why).
int transposedPadA(const RegisterTile &t, int buffers)
{
    return buffers * t.bk * (t.bm + 4 + t.bn) * int(sizeof(float)) <= kStaticSharedLimit ? 4 : 0;
}

StageModel vectorizedModel()
{
    StageModel m = registerTileModel(TileLoadScheme::CooperativeVec4, ThreadLayout::Contiguous, 1);
    m.constraints = vectorConstraints;
    m.mapping = [](const ParamValues &p) {
        KernelShape s = registerTileMapping(TileLoadScheme::CooperativeVec4, ThreadLayout::Contiguous, 1)(p);
        s.transposedA = true;
        s.vectorWidth = 4;
        return s;
    };
    return m;
}

// The three warp-tiled stages differ in how tiles reach shared memory.
enum class WarpTileFeed {
    Synchronous, // warptiled: one buffer, loads then a barrier
    Prefetched,  // pipelined: two buffers filled from registers loaded a tile ahead
    AsyncCopies, // async_pipelined: STAGES buffers filled by cp.async
};

// Where the tile buffers live: static __shared__ arrays (at most 48 KiB) or the launch's dynamic
// shared memory (pipelined_padded: room for A's padding at every shape).
enum class SharedTiles { Static, Dynamic };

StageModel warpTileModel(WarpTileFeed feed, SharedTiles tiles = SharedTiles::Static)
{
    StageModel m;
    m.launch = warpTileLaunch;
    m.traffic = blockTileTraffic;
    m.constraints = [feed](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        warpTileConstraints(p, size, out, feed != WarpTileFeed::Synchronous,
                            feed == WarpTileFeed::AsyncCopies);
    };
    m.mapping = [feed, tiles](const ParamValues &p) {
        const RegisterTile t(p);
        KernelShape s;
        s.bm = t.bm;
        s.bn = t.bn;
        s.bk = t.bk;
        s.tm = t.tm;
        s.tn = t.tn;
        s.blockX = t.threadsX() * t.threadsY();
        s.blockY = 1;
        s.layout = ThreadLayout::WarpTiled;
        s.loads =
            feed == WarpTileFeed::AsyncCopies ? TileLoadScheme::AsyncCopies : TileLoadScheme::CooperativeVec4;
        s.buffers = feed == WarpTileFeed::Synchronous  ? 1
                    : feed == WarpTileFeed::Prefetched ? 2
                                                       : paramValue(p, "STAGES");
        s.transposedA = true;
        s.padA = feed == WarpTileFeed::Prefetched && tiles == SharedTiles::Static
                     ? transposedPadA(t, s.buffers)
                     : 4;
        s.vectorWidth = 4;
        return s;
    };
    // The shared tiles the mapping describes: `buffers` of tileAT[BK][BM + padA] and tileB[BK][BN].
    const auto bytes = [mapping = m.mapping](const ParamValues &p) {
        const KernelShape s = mapping(p);
        return s.buffers * int(sizeof(float)) * s.bk * (s.sharedRowA() + s.sharedRowB());
    };
    if (tiles == SharedTiles::Dynamic) {
        m.staticSmem = [](const ParamValues &) { return 0; };
        m.dynamicSmem = bytes;
    } else {
        m.staticSmem = bytes;
    }
    return m;
}

// cuBLAS's tiling is not public: the compulsory traffic is the honest lower bound.
// ---- Tensor-core stages (mma_tf32, wgmma_tf32): 1-D blocks of warps, tiles in dynamic shared
// memory (cp.async stages), TF32 inputs. ----

// mma_tf32: (BM/WM) x (BN/WN) warps, each a WM x WN warp tile of m16n8k8 fragments.
int mmaThreads(const ParamValues &p)
{
    const int wm = std::max(1, paramValue(p, "WM")), wn = std::max(1, paramValue(p, "WN"));
    return (paramValue(p, "BM") / wm) * (paramValue(p, "BN") / wn) * kWarpSize;
}

// Every thread issues the same whole number of 16-byte copies of each tile.
void wholeCopies(const char *what, int floats, int threads, std::vector<std::string> &out)
{
    if (threads > 0 && floats % (4 * threads) != 0)
        out.push_back("The " + std::string(what) + " (" + str(floats) +
                      " floats) must split into whole 16-byte "
                      "copies over the block's " +
                      str(threads) + " threads.");
}

// The shared tensor-core model (tensor_core_models.h: warps, fragments, padded cp.async tiles,
// C stored as float2 pairs), plus this kernel's rule that every thread copies whole 16-byte chunks.
StageModel mmaTf32Model()
{
    StageModel m =
        mmaWarpTileModel({.padA = 4, .padB = 8, .dynamicShared = true, .storeWidth = 2, .ldmatrixA = true});
    m.constraints = [shared = m.constraints](const ParamValues &p, const ProblemSize &size,
                                             std::vector<std::string> &out) {
        const std::size_t before = out.size();
        shared(p, size, out);
        if (out.size() == before) {
            wholeCopies("A tile BM x BK", paramValue(p, "BM") * paramValue(p, "BK"), mmaThreads(p), out);
            wholeCopies("B tile BK x BN", paramValue(p, "BK") * paramValue(p, "BN"), mmaThreads(p), out);
        }
    };
    return m;
}

// wgmma_tf32: BN / 64 warpgroups of 128 threads, BK fixed at 32 (one 128-byte swizzle row).
constexpr int kWgmmaBk = 32;

// A wgmma m64nBMk8 keeps its BM / 2 accumulators per thread in registers, and ptxas needs about 26
// more around the instruction (it asks for 154 at BM = 256: "Insufficient registers ... C7602").
// A block of `threads` gets 65536 / threads of them, in steps of 8, at most 255.
void wgmmaRegisterConstraint(int bm, int threads, std::vector<std::string> &out)
{
    constexpr int kRegistersAroundWgmma = 26;
    const int available = std::min(255, 65536 / std::max(threads, 1) / 8 * 8);
    const int needed = bm / 2 + kRegistersAroundWgmma;
    if (needed > available)
        out.push_back("BM (" + str(bm) + ") gives each thread " + str(bm / 2) +
                      " wgmma accumulators, about " + str(needed) +
                      " registers with the instruction's own, but a block of " + str(threads) +
                      " threads gets at most " + str(available) +
                      " registers a thread (65536 / threads): lower BM or BN.");
}
StageModel wgmmaTf32Model()
{
    StageModel m;
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        return tiledLaunch(paramValue(p, "BN") / 64 * 128, 1, paramValue(p, "BM"), paramValue(p, "BN"), size);
    };
    m.staticSmem = [](const ParamValues &) { return 0; };
    // STAGES A and BT tiles, and 1 KiB to align the swizzle atoms.
    m.dynamicSmem = [](const ParamValues &p) {
        return paramValue(p, "STAGES") * (paramValue(p, "BM") + paramValue(p, "BN")) * kWgmmaBk *
                   int(sizeof(float)) +
               1024;
    };
    m.constraints = [](const ParamValues &p, const ProblemSize &, std::vector<std::string> &out) {
        const int threads = paramValue(p, "BN") / 64 * 128;
        wholeCopies("A tile BM x 32", paramValue(p, "BM") * kWgmmaBk, threads, out);
        wgmmaRegisterConstraint(paramValue(p, "BM"), threads, out);
    };
    // The tiles' loads, plus the transpose's read of B (its write of BT is a store).
    m.traffic = [](const ParamValues &p, const ProblemSize &size, const LaunchGeometry &g) {
        LoadTraffic traffic = blockTileLoads(paramValue(p, "BM"), paramValue(p, "BN"), kWgmmaBk, size, g);
        traffic.loadBytes += double(size.k) * double(size.n) * double(sizeof(float));
        traffic.formula += " + B read once by the transpose";
        return traffic;
    };
    // Warpgroup g owns columns 64g..64g+63 of the block and all BM rows: D = C^T, so D's 64 rows
    // are those columns and its N = BM columns the rows. No producer warpgroup; the loads (cp.async
    // into swizzled tiles, the B transpose) are not modelled yet.
    m.mapping = [](const ParamValues &p) {
        const int bm = paramValue(p, "BM"), bn = paramValue(p, "BN");
        KernelShape s;
        s.bm = bm;
        s.bn = bn;
        s.bk = kWgmmaBk;
        s.wm = 64;
        s.wn = bm;
        s.transposedD = true;
        s.tm = bm / 4; // D columns 2t, 2t + 1 of each n8 slice: rows of C
        s.tn = 2;      // D rows g and g + 8 of the warp's 16: columns of C
        s.blockX = bn / 64 * 128;
        s.layout = ThreadLayout::WgmmaWarpgroups;
        s.loads = TileLoadScheme::NotModelled;
        s.buffers = paramValue(p, "STAGES");
        return s;
    };
    return m;
}

// wgmma_tma_tf32: wgmma_tf32's consumer warpgroups plus one producer warp after them, which issues
// the TMA copies; the STAGES full / empty mbarriers (8 bytes each) follow the tiles.
constexpr int kProducerWarpThreads = 32;
int wgmmaTmaThreads(const ParamValues &p)
{
    return paramValue(p, "BN") / 64 * 128 + kProducerWarpThreads;
}

StageModel wgmmaTmaTf32Model()
{
    StageModel m = wgmmaTf32Model();
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        return tiledLaunch(wgmmaTmaThreads(p), 1, paramValue(p, "BM"), paramValue(p, "BN"), size);
    };
    m.dynamicSmem = [tiles = m.dynamicSmem](const ParamValues &p) {
        return tiles(p) + 2 * paramValue(p, "STAGES") * 8;
    };
    // The copy engine moves whole tiles: no per-thread copy rule, only the registers.
    m.constraints = [](const ParamValues &p, const ProblemSize &, std::vector<std::string> &out) {
        wgmmaRegisterConstraint(paramValue(p, "BM"), wgmmaTmaThreads(p), out);
    };
    m.traffic = [tiles = m.traffic](const ParamValues &p, const ProblemSize &size, const LaunchGeometry &g) {
        LoadTraffic traffic = tiles(p, size, g);
        if (size.k % 4 != 0) { // A copied into rows padded for the tensor map: read once more
            traffic.loadBytes += double(size.m) * double(size.k) * double(sizeof(float));
            traffic.formula += " + A read once to pad its rows (K not a multiple of 4)";
        }
        return traffic;
    };
    m.mapping = [shape = m.mapping](const ParamValues &p) {
        KernelShape s = shape(p);
        s.blockX = wgmmaTmaThreads(p);
        s.consumerThreads = s.blockX - kProducerWarpThreads; // the producer warp owns no output
        s.loads = TileLoadScheme::TmaSwizzled128;            // boxes of A and BT, 128-byte swizzle
        return s;
    };
    return m;
}

// The wgmma stages' block tile: BM rows of C are the instruction's N, BN columns of C are 64 per
// (consumer) warpgroup, since each warpgroup computes 64 columns of C transposed.
ParamSpec wgmmaRowsParam(int defaultValue)
{
    return choiceParam("BM", "Block tile rows (BM)",
                       "Rows of C per block: the N of each wgmma.m64nNk8 (64, 128 or 256).", {64, 128, 256},
                       defaultValue);
}
ParamSpec wgmmaColumnsParam(int defaultValue)
{
    return choiceParam("BN", "Block tile columns (BN)",
                       "Columns of C per block: 64 per (consumer) warpgroup of 128 threads.", {64, 128, 256},
                       defaultValue);
}

StageModel libraryModel()
{
    StageModel m;
    m.traffic = [](const ParamValues &, const ProblemSize &size, const LaunchGeometry &) {
        const double m_ = double(size.m), n = double(size.n), k = double(size.k);
        return LoadTraffic{sizeof(float) * (m_ * k + k * n),
                           "cuBLAS's tiling is unknown: compulsory traffic 4 (MK + KN + MN) bytes", true};
    };
    return m;
}

std::vector<StageInfo> buildStages()
{
    const std::vector<int> blockSides = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    std::vector<StageInfo> s;
    s.push_back({
        .key = "naive",
        .title = "Naive: one thread per output",
        .seedStep = "worklog step 0",
        .summary = "Each thread computes one element of C, reading a whole row of A and column of B from "
                   "global memory. 0.25 FLOP per byte: firmly memory-bound.",
        .sourceFile = "naive.cuh",
        .kernelName = "gemmscope::naive",
        .params = {choiceParam("BX", "Threads in x (BX)",
                               "Block width; consecutive threads take consecutive columns.", blockSides, 16),
                   choiceParam("BY", "Threads in y (BY)",
                               "Block height; each row of threads takes one row of C.", blockSides, 16)},
        .shortLabel = "naive",
        // The colours of neighbouring stages on the ladder alternate darker and lighter (at least 12
        // CIE L* apart), so that a reader who does not tell two hues apart still tells the steps apart.
        .color = 0xd62728,
        .model = naiveModel(),
    });
    s.push_back({
        .key = "smem_tiled",
        .title = "Shared-memory tiling",
        .seedStep = "worklog step 1; guide 32x32 +1",
        .summary =
            "The block stages TILE x TILE tiles of A and B in shared memory and every thread reuses "
            "them: T/4 FLOP per global byte. PAD=1 is the guide's padded B tile against bank conflicts.",
        .sourceFile = "smem_tiled.cuh",
        .kernelName = "gemmscope::smem_tiled",
        .params = {choiceParam("TILE", "Tile size (TILE)", "Side of the square tile and of the thread block.",
                               {8, 16, 32}, 16),
                   choiceParam("PAD", "B tile padding (PAD)", "Extra column in the B tile (the guide's +1).",
                               {0, 1}, 0)},
        .shortLabel = "smem",
        .color = 0xff7f0e,
        .model = smemTiledModel(),
    });
    StageModel coarsened = registerTileModel(TileLoadScheme::GuardedStrips, ThreadLayout::Contiguous, 1);
    coarsened.constraints = [](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        registerTileConstraints(p, size, out);
        const RegisterTile t(p);
        if (t.bm % t.tm != 0 || t.bn % t.tn != 0)
            return;
        if (t.bk > t.threadsX())
            out.push_back("BK (" + str(t.bk) + ") must not exceed the threads in x (BN/TN = " + str(t.bn) +
                          "/" + str(t.tn) + " = " + str(t.threadsX()) +
                          "): step 2's A loads use the threads with tx < BK, one column each.");
        if (t.bk > t.threadsY())
            out.push_back("BK (" + str(t.bk) + ") must not exceed the threads in y (BM/TM = " + str(t.bm) +
                          "/" + str(t.tm) + " = " + str(t.threadsY()) +
                          "): step 2's B loads use the threads with ty < BK, one row each.");
    };
    s.push_back({
        .key = "coarsened",
        .title = "Thread coarsening (register tiling)",
        .seedStep = "worklog step 2",
        .summary =
            "Each thread accumulates a TM x TN micro-tile in registers from a BM x BN block tile: "
            "BM*BN/(2(BM+BN)) FLOP per global byte. Loads as in the worklog: B loads are TN floats apart.",
        .sourceFile = "coarsened.cuh",
        .kernelName = "gemmscope::coarsened",
        .params = registerTileParams(),
        .shortLabel = "coarse",
        .color = 0x6b6b13,
        .model = coarsened,
    });
    s.push_back({
        .key = "coalesced",
        .title = "Coalesced cooperative loads",
        .seedStep = "worklog steps 3 and 6",
        .summary = "Threads stride through each tile by linear id, so neighbouring lanes load neighbouring "
                   "addresses. Worklog step 6 is this stage again with 192x192 tiles: step 5b's Double "
                   "buffering taken back out.",
        .sourceFile = "coalesced.cuh",
        .kernelName = "gemmscope::coalesced",
        .params = registerTileParams(),
        .shortLabel = "coal",
        .color = 0x2ca02c,
        .model = registerTileModel(TileLoadScheme::Cooperative, ThreadLayout::Contiguous, 1),
    });
    s.push_back({
        .key = "double_buffered",
        .title = "Double buffering",
        .seedStep = "worklog steps 4, 5a, 5b",
        .summary =
            "Two shared-memory buffers: the block loads the next tile while it computes on the current "
            "one. Twice the shared memory, one barrier per tile.",
        .sourceFile = "double_buffered.cuh",
        .kernelName = "gemmscope::double_buffered",
        .params = registerTileParams(),
        .shortLabel = "dbuf",
        .color = 0x17becf,
        .model = registerTileModel(TileLoadScheme::Cooperative, ThreadLayout::Contiguous, 2),
    });
    s.push_back({
        .key = "strided",
        .title = "Strided thread layout",
        .seedStep = "worklog step 7",
        .summary = "Thread (tx, ty) owns rows ty + i*BM/TM and columns tx + j*BN/TN, so neighbouring lanes "
                   "store neighbouring columns of C: the stores become coalesced.",
        .sourceFile = "strided.cuh",
        .kernelName = "gemmscope::strided",
        .params = registerTileParams(),
        .derivedFrom = "coalesced", // step 7 changes step 6, not the double-buffered step 5b
        .shortLabel = "strided",
        .color = 0x185d8d,
        .model = registerTileModel(TileLoadScheme::Cooperative, ThreadLayout::Strided, 1),
    });
    s.push_back({
        .key = "final",
        .title = "__restrict__ and #pragma unroll",
        .seedStep = "worklog step 8",
        .summary = "Step 7 with non-aliasing pointers and fully unrolled BK, TM and TN loops: the compiler "
                   "keeps the micro-tile in registers and schedules independent FMAs.",
        .sourceFile = "final.cuh",
        .kernelName = "gemmscope::final_kernel",
        .params = registerTileParams(),
        .shortLabel = "final",
        .color = 0x9467bd,
        .model = registerTileModel(TileLoadScheme::Cooperative, ThreadLayout::Strided, 1),
    });
    std::vector<ParamSpec> pipelinedParams = wideTileParams(8, 8, 8);
    pipelinedParams.push_back(choiceParam("SWIZZLE", "Block swizzle (SWIZZLE)",
                                          "Blocks launch in groups of SWIZZLE block rows so that blocks "
                                          "running together share tiles in L2; 1: none.",
                                          {1, 2, 4, 8, 16}, 1));
    std::vector<ParamSpec> asyncParams = wideTileParams(8, 8, 16);
    asyncParams[1].defaultValue = 256;
    asyncParams.push_back(choiceParam(
        "STAGES", "Pipeline stages (STAGES)",
        "Shared-memory tiles in flight: the copy engine fills STAGES - 1 ahead.", {2, 3, 4, 5, 6}, 3));
    s.push_back({
        .key = "vectorized",
        .title = "128-bit loads, transposed A tile",
        .seedStep = "beyond the worklog (its verdict: vectorized loads)",
        .summary =
            "Global loads and C stores move four floats per instruction, and A is stored transposed so "
            "the inner loop reads A and B fragments four floats at a time (LDS.128): a quarter of the "
            "load instructions.",
        .sourceFile = "vectorized.cuh",
        .kernelName = "gemmscope::vectorized",
        .params = wideTileParams(8, 8, 8),
        .derivedFrom = "final",
        .beyondSeeds = true,
        .shortLabel = "vec4",
        .color = 0xe377c2,
        .model = vectorizedModel(),
    });
    s.push_back({
        .key = "warptiled",
        .title = "Warp tiling",
        .seedStep = "beyond the worklog (its verdict: warp-level tiling)",
        .summary =
            "Each warp owns a 4*TM x 8*TN warp tile with its lanes 4 x 8 inside, each lane holding 4x4 "
            "fragments: a quarter-warp's fragment reads are one broadcast for A and 128 contiguous bytes "
            "for B, free of bank conflicts.",
        .sourceFile = "warptiled.cuh",
        .kernelName = "gemmscope::warptiled",
        .params = wideTileParams(16, 8, 8),
        .beyondSeeds = true,
        .shortLabel = "warp",
        .color = 0x8c564b,
        .model = warpTileModel(WarpTileFeed::Synchronous),
    });
    s.push_back({
        .key = "pipelined",
        .title = "Register prefetch, two buffers",
        .seedStep = "beyond the worklog",
        .summary =
            "The next tile's global loads go out before the FFMAs on this one and land in registers, then "
            "in the other shared buffer: one barrier per tile, load latency hidden behind arithmetic. "
            "Blocks inside C load without bounds checks.",
        .sourceFile = "pipelined.cuh",
        .kernelName = "gemmscope::pipelined",
        .params = pipelinedParams,
        .beyondSeeds = true,
        .shortLabel = "pipe",
        .color = 0x1a237e, // deep indigo: the teal it was read as 5b and the mma stage (tst_roofline_labels)
        .model = warpTileModel(WarpTileFeed::Prefetched),
    });
    s.push_back({
        .key = "pipelined_padded",
        .title = "Register prefetch, padded tiles in dynamic shared memory",
        .seedStep = "beyond the worklog",
        .summary = "pipelined with its two tile buffers in dynamic shared memory: past the 48 KiB of static "
                   "arrays there is room for A's padding at every shape, so the transposed A stores stop "
                   "running 4-way bank conflicts at 128x256, BK 16 (2-way).",
        .sourceFile = "pipelined_padded.cuh",
        .kernelName = "gemmscope::pipelined_padded",
        .params = pipelinedParams,
        .derivedFrom = "pipelined",
        .beyondSeeds = true,
        .shortLabel = "pad",
        .color = 0x0033ff, // a brighter blue than pipelined's indigo: the same kernel, one step on
        .model = warpTileModel(WarpTileFeed::Prefetched, SharedTiles::Dynamic),
    });
    s.push_back({
        .key = "async_pipelined",
        .title = "cp.async multistage pipeline",
        .seedStep = "beyond the worklog",
        .summary =
            "The copy engine moves tiles global -> shared (cp.async, sm_80+), STAGES - 1 tiles ahead of "
            "the FFMAs, with no registers holding them in between.",
        .sourceFile = "async_pipelined.cuh",
        .kernelName = "gemmscope::async_pipelined",
        .params = asyncParams,
        .minArch = 80,
        .minArchReason = "cp.async, the asynchronous global-to-shared copy, arrived with sm_80 (Ampere)",
        .beyondSeeds = true,
        .shortLabel = "async",
        .color = 0xb8860b,
        .model = warpTileModel(WarpTileFeed::AsyncCopies),
    });
    s.push_back({
        .key = "mma_tf32",
        .title = "Tensor cores: mma.sync TF32",
        .seedStep = "beyond the worklog (tensor cores)",
        .summary =
            "async_pipelined's cp.async stages feeding tensor cores: each warp multiplies WM x WN of C as "
            "m16n8k8 TF32 fragments (mma.sync), A fragments read with ldmatrix from padded rows, B "
            "fragments with conflict-free 32-bit reads.",
        .sourceFile = "mma_tf32.cuh",
        .kernelName = "gemmscope::mma_tf32",
        .params = {choiceParam("BM", "Block tile rows (BM)", "Rows of C computed by one thread block.",
                               {64, 128, 256}, 128),
                   choiceParam("BN", "Block tile columns (BN)", "Columns of C computed by one thread block.",
                               {64, 128, 256}, 128),
                   choiceParam("BK", "Reduction tile (BK)", "Depth of the A and B tiles per pipeline stage.",
                               {16, 32}, 32),
                   choiceParam("WM", "Warp tile rows (WM)", "Rows of C one warp computes: WM/16 fragments.",
                               {32, 64}, 64),
                   choiceParam("WN", "Warp tile columns (WN)",
                               "Columns of C one warp computes: WN/8 fragments.", {32, 64}, 64),
                   choiceParam("STAGES", "Pipeline stages (STAGES)",
                               "Shared-memory tiles in flight: the copy engine fills STAGES - 1 ahead.",
                               {2, 3, 4, 5}, 3)},
        .minArch = 80,
        .minArchReason = "mma.sync with TF32 operands and cp.async arrived with sm_80 (Ampere)",
        .precision = Precision::Tf32,
        .derivedFrom = "async_pipelined",
        .beyondSeeds = true,
        .shortLabel = "mma",
        .color = 0x2e8b57,
        .model = mmaTf32Model(),
    });
    s.push_back({
        .key = "wgmma_tf32",
        .title = "Tensor cores: Hopper wgmma TF32",
        .seedStep = "beyond the worklog (tensor cores)",
        .summary = "A warpgroup of four warps issues one asynchronous wgmma.m64nNk8 with both operands in "
                   "128-byte-swizzled shared memory. TF32 wgmma reads only K-major tiles, so B is "
                   "transposed first, inside the timed launch. Built for sm_90a: Hopper only.",
        .sourceFile = "wgmma_tf32.cuh",
        .kernelName = "gemmscope::wgmma_tf32",
        .params = {wgmmaRowsParam(128), wgmmaColumnsParam(256),
                   choiceParam("STAGES", "Pipeline stages (STAGES)",
                               "Shared-memory tiles in flight: the copy engine fills STAGES - 2 ahead.",
                               {3, 4, 5, 6}, 4)},
        .minArch = 90,
        .minArchReason = "wgmma, the warpgroup tensor-core instruction, exists on Hopper (sm_90a) alone",
        .archSpecific = true,
        .transposedB = true,
        .precision = Precision::Tf32,
        .derivedFrom = "mma_tf32",
        .beyondSeeds = true,
        .shortLabel = "wgmma",
        .color = 0x8b008b,
        .model = wgmmaTf32Model(),
    });
    s.push_back({
        .key = "wgmma_tma_tf32",
        .title = "Tensor cores: Hopper wgmma fed by TMA",
        .seedStep = "beyond the worklog (tensor cores)",
        .summary = "The warpgroups of wgmma_tf32 stop copying: one producer thread has the Tensor Memory "
                   "Accelerator copy each swizzled tile from a tensor map, and mbarriers hand full and "
                   "empty stages between producer and consumers. Built for sm_90a: Hopper only.",
        .sourceFile = "wgmma_tma_tf32.cuh",
        .kernelName = "gemmscope::wgmma_tma_tf32",
        .params = {wgmmaRowsParam(256), wgmmaColumnsParam(128),
                   choiceParam("STAGES", "Pipeline stages (STAGES)",
                               "Shared-memory tiles in flight: the copy engine fills every stage the "
                               "consumers have released.",
                               {2, 3, 4, 5, 6}, 4)},
        .minArch = 90,
        .minArchReason = "wgmma and TMA tensor copies exist on Hopper (sm_90a) alone",
        .archSpecific = true,
        .transposedB = true,
        .tensorMaps = TensorMapOperands{.aBoxRowsParam = "BM", .btBoxRowsParam = "BN", .boxK = kWgmmaBk},
        .precision = Precision::Tf32,
        .derivedFrom = "wgmma_tf32",
        .beyondSeeds = true,
        .shortLabel = "tma",
        .color = 0xc71585,
        .model = wgmmaTmaTf32Model(),
    });
    s.push_back({
        .key = "wgmma_persistent_tf32",
        .title = "Tensor cores: persistent wgmma, row-major B",
        .seedStep = "beyond the worklog (tensor cores)",
        .summary = "wgmma_tma_tf32 without its two passes: B is read as it is, N-major, into registers (the "
                   "wgmma operand that may be in any layout) and rounded to TF32 on the way; A's tile is "
                   "rounded by the copy engine (or in shared memory by the producer warpgroup); blocks stay "
                   "resident and walk the output tiles, loading the next tile while storing the last; pairs "
                   "of blocks (2-block clusters) share A's tile through TMA multicast. Built for sm_90a.",
        .sourceFile = "wgmma_persistent_tf32.cuh",
        .kernelName = "gemmscope::wgmma_persistent_tf32",
        .params = {wgmmaRowsParam(256), wgmmaColumnsParam(128),
                   choiceParam("STAGES", "Pipeline stages (STAGES)",
                               "Shared-memory tiles in flight: the copy engine fills every stage the "
                               "consumers have released, across output tiles.",
                               {2, 3, 4, 5, 6}, 4),
                   choiceParam("A_ROUNDING", "A's rounding to TF32 (A_ROUNDING)",
                               "Who rounds A's tile, which the tensor core would truncate: 0 the copy "
                               "engine as it copies (a TF32 tensor map), 1 three producer warps in shared "
                               "memory (a read and a write of every tile).",
                               {0, 1}, 0),
                   choiceParam("CLUSTER", "Blocks sharing A's tile (CLUSTER)",
                               "1: every block copies its own A tile. 2: two blocks side by side form a "
                               "cluster; each copies half of A's tile into both (TMA multicast), so A is "
                               "read from L2 once for the pair.",
                               {1, 2}, 1)},
        .minArch = 90,
        .minArchReason = "wgmma, setmaxnreg, clusters and TMA tensor copies exist on Hopper (sm_90a) alone",
        .archSpecific = true,
        .tensorMaps = TensorMapOperands{.aBoxRowsParam = "BM",
                                        .btBoxRowsParam = {},
                                        .boxK = kWgmmaBk,
                                        .rowMajorB = true,
                                        .bBoxColumns = 32,
                                        .aCopyRoundsParam = "A_ROUNDING"},
        .roundsTf32InKernel = true,
        .persistent = true,
        .clusterParam = "CLUSTER",
        .precision = Precision::Tf32,
        .derivedFrom = "wgmma_tma_tf32",
        .beyondSeeds = true,
        .shortLabel = "persist",
        .color = 0x6a0dad,
        .model = wgmmaPersistentTf32Model(),
    });
    s.push_back({
        .key = "cublas_fp32",
        .title = "cuBLAS FP32 (reference)", // plain words; its tooltip says "pedantic SGEMM"
        .seedStep = "baseline",
        .summary = "NVIDIA's library matrix multiply in plain FP32 math, no TF32 or other shortcuts (its "
                   "pedantic SGEMM): the reference every stage's result is checked against and its speed "
                   "compared with.",
        .isLibrary = true,
        .shortLabel = "cuBLAS",
        .color = 0x505050,
        .model = libraryModel(),
    });
    s.push_back({
        .key = "cublas_tf32",
        .title = "cuBLAS TF32 (tensor cores)",
        .seedStep = "baseline",
        .summary = "cuBLAS with TF32 tensor-core math: FP32 inputs rounded to 10-bit mantissas. Far faster, "
                   "verified at a looser tolerance.",
        .minArch = 80,
        .isLibrary = true,
        .precision = Precision::Tf32,
        .shortLabel = "TF32",
        .color = 0x9a9a9a,
        .model = libraryModel(),
    });
    return s;
}

std::vector<Preset> buildPresets()
{
    const ParamValues tiles64 = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    const ParamValues tiles128 = {{"BM", 128}, {"BN", 128}, {"BK", 12}, {"TM", 8}, {"TN", 8}};
    const ParamValues tiles192 = {{"BM", 192}, {"BN", 192}, {"BK", 16}, {"TM", 12}, {"TN", 12}};
    ParamValues tiles192bk8 = tiles192;
    tiles192bk8["BK"] = 8;
    const ParamValues wide128 = {{"BM", 128}, {"BN", 128}, {"BK", 8}, {"TM", 8}, {"TN", 8}};
    ParamValues wide128bk16 = wide128;
    wide128bk16["BK"] = 16;
    ParamValues pipelined128 = wide128;
    pipelined128["SWIZZLE"] = 1;
    const ParamValues async128x256 = {{"BM", 128}, {"BN", 256}, {"BK", 8},
                                      {"TM", 8},   {"TN", 16},  {"STAGES", 3}};
    const ParamValues tuned = {{"BM", 128}, {"BN", 256}, {"BK", 16}, {"TM", 8}, {"TN", 16}, {"SWIZZLE", 1}};
    return {
        {"worklog-0",
         "Step 0: naive, 16x16 threads",
         StageId::Naive,
         {{"BX", 16}, {"BY", 16}},
         "worklog step 0",
         956.41},
        {"worklog-1",
         "Step 1: shared-memory tiles, TILE = 16",
         StageId::SmemTiled,
         {{"TILE", 16}, {"PAD", 0}},
         "worklog step 1",
         593.53},
        {"worklog-2", "Step 2: thread coarsening, 64x64 / 4x4", StageId::Coarsened, tiles64, "worklog step 2",
         194.28},
        {"worklog-3", "Step 3: coalesced loads, 64x64", StageId::Coalesced, tiles64, "worklog step 3",
         193.43},
        {"worklog-4", "Step 4: double buffering, 64x64", StageId::DoubleBuffered, tiles64, "worklog step 4",
         190.58},
        {"worklog-5a", "Step 5a: larger tiles, 128x128 / 8x8", StageId::DoubleBuffered, tiles128,
         "worklog step 5", 169.00, "128x128 tiles"},
        {"worklog-5b", "Step 5b: larger tiles, 192x192 / 12x12", StageId::DoubleBuffered, tiles192,
         "worklog step 5", 136.86, "192x192 tiles"},
        {"worklog-6", "Step 6: coalesced loads, 192x192 / 12x12", StageId::Coalesced, tiles192,
         "worklog step 6", 123.21, "larger tiles"},
        {"worklog-7", "Step 7: strided thread layout, 192x192", StageId::Strided, tiles192, "worklog step 7",
         111.75},
        {"worklog-8", "Step 8: __restrict__ + #pragma unroll", StageId::Final, tiles192, "worklog step 8",
         108.89},
        {"worklog-8-bk8", "Step 8 with BK = 8 (the worklog's H100/B200 variant)", StageId::Final, tiles192bk8,
         "worklog, newer GPUs", std::nullopt, "BK = 8"},
        {"guide-32",
         "Guide: 32x32 tiles, no padding",
         StageId::SmemTiled,
         {{"TILE", 32}, {"PAD", 0}},
         "guide",
         std::nullopt,
         "32x32 tiles"},
        {"guide-32-padded",
         "Guide: 32x32 tiles, +1 padded B tile",
         StageId::SmemTiled,
         {{"TILE", 32}, {"PAD", 1}},
         "guide",
         std::nullopt,
         "padded 32x32"},
        {"fp32-vectorized", "Beyond: 128-bit loads, transposed A (128x128, BK 8, 8x8)", StageId("vectorized"),
         wide128, "beyond the worklog and the guide", std::nullopt},
        {"fp32-warptiled", "Beyond: warp tiles (128x128, BK 16, 8x8)", StageId("warptiled"), wide128bk16,
         "beyond the worklog and the guide", std::nullopt},
        {"fp32-pipelined", "Beyond: register prefetch, 2 buffers (128x128, BK 8, 8x8)", StageId("pipelined"),
         pipelined128, "beyond the worklog and the guide", std::nullopt},
        {"fp32-async", "Beyond: cp.async, 3 stages (128x256, BK 8, 8x16)", StageId("async_pipelined"),
         async128x256, "beyond the worklog and the guide", std::nullopt},
        // Tuned on the H200 (docs/benchmarks.md): the best of ~30 configurations in the
        // nvcc probe and 10 through the runner: 92.0 % of cuBLAS SGEMM at 8192x4096x6144 and 90.8 % at
        // 4096^3, each in one runner session.
        {"fp32-tuned", "Beyond: tuned for the H200 (pipelined 128x256, BK 16, 8x16)", StageId("pipelined"),
         tuned, "beyond the worklog and the guide", std::nullopt, "tuned"},
        // The FP32 ladder's top: fp32-tuned with A's padding (dynamic shared memory).
        {"fp32-padded", "Beyond: padded A tile in dynamic shared memory (128x256, BK 16, 8x16)",
         StageId("pipelined_padded"), tuned, "beyond the worklog and the guide", std::nullopt},
        {"tf32-mma",
         "Tensor cores: mma.sync TF32 (128x128, BK 32, 64x64 warps, 3 stages)",
         StageId("mma_tf32"),
         {{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 64}, {"STAGES", 3}},
         "beyond the worklog and the guide",
         std::nullopt},
        // Tuned on the H200 (docs/benchmarks.md): the best of 6 shapes in the probe.
        {"tf32-wgmma",
         "Tensor cores: Hopper wgmma TF32 (128x256, 4 stages)",
         StageId("wgmma_tf32"),
         {{"BM", 128}, {"BN", 256}, {"STAGES", 4}},
         "beyond the worklog and the guide",
         std::nullopt},
        // Tuned on the H200 (docs/benchmarks.md): the best of 5 shapes in the probe.
        {"tf32-wgmma-tma",
         "Tensor cores: Hopper wgmma fed by TMA (256x128, 4 stages)",
         StageId("wgmma_tma_tf32"),
         {{"BM", 256}, {"BN", 128}, {"STAGES", 4}},
         "beyond the worklog and the guide",
         std::nullopt},
        // The top of the tensor-core ladder: pairs of blocks share A's tile through TMA multicast.
        {"tf32-persistent",
         "Tensor cores: persistent wgmma, row-major A and B (256x128, 4 stages, 2-block clusters)",
         StageId("wgmma_persistent_tf32"),
         {{"BM", 256}, {"BN", 128}, {"STAGES", 4}, {"A_ROUNDING", 0}, {"CLUSTER", 2}},
         "beyond the worklog and the guide",
         std::nullopt},
        // The same with every block copying its own A tile: what the clusters gain.
        {"tf32-persistent-nocluster",
         "Tensor cores: persistent wgmma, blocks alone (256x128, 4 stages, no clusters)",
         StageId("wgmma_persistent_tf32"),
         {{"BM", 256}, {"BN", 128}, {"STAGES", 4}, {"A_ROUNDING", 0}, {"CLUSTER", 1}},
         "beyond the worklog and the guide",
         std::nullopt,
         "blocks without clusters"},
        // The same with A rounded by the producer's warps in shared memory: what the copy engine's
        // conversion saves, and the fallback should it not round to nearest.
        {"tf32-persistent-smem",
         "Tensor cores: persistent wgmma, A rounded in shared memory (256x128, 4 stages, 2-block clusters)",
         StageId("wgmma_persistent_tf32"),
         {{"BM", 256}, {"BN", 128}, {"STAGES", 4}, {"A_ROUNDING", 1}, {"CLUSTER", 2}},
         "beyond the worklog and the guide",
         std::nullopt,
         "A rounded in shared memory"},
        {"cublas_fp32",
         "cuBLAS FP32: plain FP32 math, the reference",
         StageId::CublasFp32,
         {},
         "baseline",
         std::nullopt},
        {"cublas_tf32",
         "cuBLAS TF32: SGEMM on TF32 tensor cores",
         StageId::CublasTf32,
         {},
         "baseline",
         std::nullopt},
    };
}

} // namespace

const std::vector<StageInfo> &stages()
{
    static const std::vector<StageInfo> all = buildStages();
    return all;
}

const StageInfo *findStage(std::string_view key)
{
    for (const auto &s : stages())
        if (s.key == key)
            return &s;
    // A user's kernel registered in this process (custom_stage.h); stages() stays the ladder.
    return isCustomStageKey(key) ? findCustomStage(key) : nullptr;
}

const StageInfo &stageInfo(StageId id)
{
    if (const StageInfo *s = findStage(id.key()))
        return *s;
    // Only an id made from a key the catalog does not have gets here (findStage is the check):
    // the first stage is a defined answer, never a crash.
    return stages().front();
}

const std::vector<Preset> &presets()
{
    static const std::vector<Preset> all = buildPresets();
    return all;
}

const Preset *findPreset(std::string_view key)
{
    for (const auto &p : presets())
        if (p.key == key)
            return &p;
    return nullptr;
}

std::string archViolation(const StageInfo &stage, int arch)
{
    const std::string why = !stage.minArchReason.empty()      ? stage.minArchReason
                            : stage.minArch == kCuda13MinArch ? std::string(kCuda13MinArchReason)
                                                              : std::string();
    if (arch < stage.minArch)
        return "Stage " + stage.key + " needs compute capability " + str(stage.minArch) +
               " or newer, not sm_" + str(arch) + (why.empty() ? std::string() : ": " + why);
    if (stage.archSpecific && arch != stage.minArch)
        return "Stage " + stage.key + " is built for sm_" + str(stage.minArch) +
               "a and runs on compute capability " + str(stage.minArch) + " alone, not sm_" + str(arch) +
               (why.empty() ? std::string() : ": " + why);
    return {};
}

std::string nvrtcArchitecture(const StageInfo &stage, int arch)
{
    return "sm_" + str(arch) + (stage.archSpecific ? "a" : "");
}

int paramValue(const ParamValues &params, std::string_view name, int fallback)
{
    const auto it = params.find(std::string(name));
    return it == params.end() ? fallback : it->second;
}

ParamValues defaultParams(StageId id)
{
    ParamValues v;
    for (const auto &spec : stageInfo(id).params)
        v[spec.name] = spec.defaultValue;
    return v;
}

std::vector<std::string> violations(StageId id, const ParamValues &params, const ProblemSize &size)
{
    std::vector<std::string> out;
    const StageInfo *found = findStage(id.key());
    if (!found)
        return {"There is no stage \"" + id.str() + "\" in the catalog."};
    const StageInfo &info = *found;

    // Problem size first: it applies to every stage, cuBLAS included. No product is formed before
    // each factor is known to be in [1, 2^31): 2^32 x 2^32 x 2^32 must be refused, not wrap to 0.
    const long long limit = std::numeric_limits<int>::max();
    bool sizeUsable = true;
    if (size.m < 1 || size.n < 1 || size.k < 1) {
        out.push_back("M, N and K must each be at least 1 (got " + str(size.m) + " x " + str(size.n) + " x " +
                      str(size.k) + ").");
        sizeUsable = false;
    } else if (size.m > limit || size.n > limit || size.k > limit) {
        out.push_back("M, N and K must each be below 2^31 = 2147483648 (got " + str(size.m) + " x " +
                      str(size.n) + " x " + str(size.k) + "): the kernels index with 32-bit integers.");
        sizeUsable = false;
    } else if (size.m > limit / size.k || size.k > limit / size.n || size.m > limit / size.n) {
        out.push_back("Each matrix must have fewer than 2^31 elements (A is " + str(size.m) + " x " +
                      str(size.k) + ", B " + str(size.k) + " x " + str(size.n) + ", C " + str(size.m) +
                      " x " + str(size.n) + "): the kernels index with 32-bit integers.");
    }
    // The stage's own checks see a size they can compute with; an unusable one is refused above.
    const ProblemSize checked = sizeUsable ? size : ProblemSize{1, 1, 1};

    for (const auto &[name, value] : params) {
        const bool known = std::any_of(info.params.begin(), info.params.end(),
                                       [&](const ParamSpec &s) { return s.name == name; });
        if (!known)
            out.push_back("The stage \"" + info.title + "\" has no parameter " + name + ".");
    }
    bool allPresent = true;
    for (const auto &spec : info.params) {
        auto it = params.find(spec.name);
        if (it == params.end()) {
            out.push_back(spec.name + " is missing: " + spec.label + " needs a value.");
            allPresent = false;
            continue;
        }
        const int v = it->second;
        if (!spec.choices.empty()) {
            if (std::find(spec.choices.begin(), spec.choices.end(), v) == spec.choices.end()) {
                std::string list;
                for (int c : spec.choices)
                    list += (list.empty() ? "" : ", ") + std::to_string(c);
                out.push_back(spec.name + " (" + std::to_string(v) + ") must be one of " + list + ".");
                allPresent = false;
            }
        } else if (v < spec.min || v > spec.max) {
            out.push_back(spec.name + " (" + std::to_string(v) + ") must be between " +
                          std::to_string(spec.min) + " and " + std::to_string(spec.max) + ".");
            allPresent = false;
        } else if (!onStep(spec, v)) {
            out.push_back(spec.name + " (" + std::to_string(v) + ") must be " + std::to_string(spec.min) +
                          " plus a multiple of " + std::to_string(spec.step) + ".");
            allPresent = false;
        }
    }
    if (!allPresent || info.isLibrary)
        return out;

    if (!info.model.launch || !info.model.staticSmem) {
        out.push_back("The catalog entry of \"" + info.title +
                      "\" has no launch or shared-memory model, so GemmScope cannot launch it.");
        return out;
    }
    const std::size_t before = out.size();
    if (info.model.constraints)
        info.model.constraints(params, checked, out);
    const LaunchGeometry g = launchGeometry(id, params, checked);
    // The stage's own sentence about its threads is the better one; this catches the rest.
    if (out.size() == before && g.threadsPerBlock() > kMaxThreadsPerBlock)
        out.push_back("A block of " + str(g.threadsPerBlock()) +
                      " threads is more than the 1024 threads per block CUDA allows.");
    if (g.staticSmemBytes > kStaticSharedLimit)
        out.push_back("The tiles need " + std::to_string(g.staticSmemBytes) +
                      " bytes of shared memory per block; static "
                      "shared memory is limited to 49152 bytes (48 KiB). Reduce BM, BN or BK.");
    if (g.smemBytes() > kDynamicSharedLimit)
        out.push_back("The stage needs " + std::to_string(g.smemBytes()) +
                      " bytes of shared memory per block; no GPU gives a block more than 232448 bytes "
                      "(227 KiB). Reduce the tiles or the pipeline depth.");
    return out;
}

bool paramsInRange(StageId id, const ParamValues &params)
{
    const StageInfo *info = findStage(id.key());
    if (!info || params.size() != info->params.size())
        return false;
    for (const ParamSpec &spec : info->params) {
        const auto it = params.find(spec.name);
        if (it == params.end())
            return false;
        const int v = it->second;
        if (spec.choices.empty()
                ? (v < spec.min || v > spec.max || !onStep(spec, v))
                : std::find(spec.choices.begin(), spec.choices.end(), v) == spec.choices.end())
            return false;
    }
    return true;
}

LaunchGeometry launchGeometry(StageId id, const ParamValues &p, const ProblemSize &size)
{
    const StageInfo &info = stageInfo(id);
    LaunchGeometry g;
    if (!info.isLibrary && !paramsInRange(id, p)) {
        g.gridX = g.gridY = 0; // a refused configuration: nothing to launch, no hook to call
        return g;
    }
    if (info.model.launch)
        g = info.model.launch(p, size);
    g.staticSmemBytes = info.model.staticSmem ? info.model.staticSmem(p) : 0;
    g.dynamicSmemBytes = info.model.dynamicSmem ? info.model.dynamicSmem(p) : 0;
    return g;
}

std::string kernelNameExpression(StageId id, const ParamValues &params)
{
    const StageInfo &info = stageInfo(id);
    if (info.isLibrary)
        return {};
    // A user's kernel without parameters is a plain __global__ function, not a template.
    if (info.isCustom && info.params.empty())
        return info.kernelName;
    std::ostringstream s;
    s << info.kernelName << '<';
    for (std::size_t i = 0; i < info.params.size(); ++i)
        s << (i ? ", " : "") << paramValue(params, info.params[i].name);
    s << '>';
    return s.str();
}

std::string formatParams(const ParamValues &params)
{
    // The order a reader expects (block tile before thread tile), not the map's alphabetical one:
    // the order the catalog's stages declare their parameters in.
    static const std::vector<std::string> order = [] {
        std::vector<std::string> names;
        for (const StageInfo &s : stages())
            for (const ParamSpec &spec : s.params)
                if (std::find(names.begin(), names.end(), spec.name) == names.end())
                    names.push_back(spec.name);
        return names;
    }();
    auto rank = [&](const std::string &name) {
        auto it = std::find(order.begin(), order.end(), name);
        return it == order.end() ? order.size() : std::size_t(it - order.begin());
    };
    std::vector<std::pair<std::string, int>> sorted(params.begin(), params.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const auto &a, const auto &b) { return rank(a.first) < rank(b.first); });
    std::string out;
    for (const auto &[name, value] : sorted)
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return out;
}

} // namespace gemmscope
