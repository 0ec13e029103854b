#include "tensor_core_models.h"

#include "mma_fragments.h"

#include <algorithm>
#include <string>

namespace gemmscope {

namespace {

constexpr long long kMaxGridY = 65535;
constexpr int kMaxAccumulatorsPerThread = 128; // beyond this the fragments spill out of 255 registers

std::string str(long long v)
{
    return std::to_string(v);
}

long long blocksFor(long long extent, int tile)
{
    return extent < 1 || tile < 1 ? 0 : (extent - 1) / tile + 1;
}

struct TensorTile {
    int bm, bn, bk, wm, wn, stages;
    explicit TensorTile(const ParamValues &p, int defaultWm = 0, int defaultWn = 0)
        : bm(paramValue(p, "BM")), bn(paramValue(p, "BN")), bk(paramValue(p, "BK")),
          wm(paramValue(p, "WM", defaultWm)), wn(paramValue(p, "WN", defaultWn)),
          stages(paramValue(p, "STAGES", 1))
    {
    }
    bool warpTilesFit() const { return wm > 0 && wn > 0 && bm % wm == 0 && bn % wn == 0; }
    int warps() const { return warpTilesFit() ? (bm / wm) * (bn / wn) : 1; }
};

LaunchGeometry gridOver(int threads, int bm, int bn, const ProblemSize &size)
{
    LaunchGeometry g;
    g.blockX = threads;
    g.blockY = 1;
    g.gridX = blocksFor(size.n, bn);
    g.gridY = blocksFor(size.m, bm);
    return g;
}

LoadTraffic tensorTileTraffic(const ParamValues &p, const ProblemSize &size, const LaunchGeometry &g)
{
    const TensorTile t(p);
    return blockTileLoads(t.bm, t.bn, t.bk, size, g);
}

void gridConstraint(int bm, const ProblemSize &size, std::vector<std::string> &out)
{
    if (blocksFor(size.m, bm) > kMaxGridY)
        out.push_back("M (" + str(size.m) + ") needs more than 65535 blocks in y at BM = " + str(bm) + ".");
}

} // namespace

LoadTraffic blockTileLoads(int bm, int bn, int bk, const ProblemSize &size, const LaunchGeometry &g)
{
    const double blocks = double(g.gridX) * double(g.gridY); // ragged edge blocks load full tiles
    const double steps = double(blocksFor(size.k, bk));
    LoadTraffic traffic;
    traffic.loadBytes = blocks * steps * double(sizeof(float)) * double(bm + bn) * bk;
    traffic.formula = "block tile: BM*BN / (2 (BM + BN)) = " + str(bm) + "*" + str(bn) + " / (2 (" + str(bm) +
                      " + " + str(bn) + "))";
    return traffic;
}

StageModel mmaWarpTileModel(MmaTileModelOptions options)
{
    StageModel m;
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        const TensorTile t(p);
        return gridOver(t.warps() * kWarpSize, t.bm, t.bn, size);
    };
    m.constraints = [](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        const TensorTile t(p);
        if (t.wm % kMmaM != 0)
            out.push_back("WM (" + str(t.wm) +
                          ") must be a multiple of 16: a warp tile is made of m16n8 "
                          "tensor-core tiles, 16 rows each.");
        if (t.wn % kMmaN != 0)
            out.push_back("WN (" + str(t.wn) +
                          ") must be a multiple of 8: a warp tile is made of m16n8 "
                          "tensor-core tiles, 8 columns each.");
        if (t.bm % t.wm != 0)
            out.push_back("BM (" + str(t.bm) + ") must be a multiple of WM (" + str(t.wm) +
                          "): the block tile is made of whole warp tiles.");
        if (t.bn % t.wn != 0)
            out.push_back("BN (" + str(t.bn) + ") must be a multiple of WN (" + str(t.wn) +
                          "): the block tile is made of whole warp tiles.");
        if (t.bk % kMmaK != 0)
            out.push_back("BK (" + str(t.bk) +
                          ") must be a multiple of 8: each mma.sync m16n8k8 consumes "
                          "8 columns of A and 8 rows of B.");
        if (t.warpTilesFit() && t.warps() * kWarpSize > 1024)
            out.push_back("(BM/WM) x (BN/WN) (" + str(t.bm / t.wm) + " x " + str(t.bn / t.wn) + " = " +
                          str(t.warps()) + " warps) must not exceed 32 warps (1024 threads) per block.");
        const int accumulators = t.wm > 0 && t.wn > 0 ? t.wm * t.wn / kWarpSize : 0;
        if (accumulators > kMaxAccumulatorsPerThread)
            out.push_back("WM x WN (" + str(t.wm) + " x " + str(t.wn) + ") gives each lane " +
                          str(accumulators) + " accumulators; keep it at most " +
                          str(kMaxAccumulatorsPerThread) + " so they stay in registers.");
        gridConstraint(t.bm, size, out);
    };
    m.mapping = [options](const ParamValues &p) {
        const TensorTile t(p);
        KernelShape s;
        s.bm = t.bm;
        s.bn = t.bn;
        s.bk = t.bk;
        s.wm = t.wm;
        s.wn = t.wn;
        s.tm = t.wm / 8; // rows g and g + 8 of each m16 tile
        s.tn = t.wn / 4; // columns 2t and 2t + 1 of each n8 tile
        s.blockX = t.warps() * kWarpSize;
        s.blockY = 1;
        s.layout = ThreadLayout::MmaFragments;
        s.loads = TileLoadScheme::AsyncCopiesVec4;
        s.buffers = t.stages;
        s.padA = options.padA;
        s.padB = options.padB;
        s.vectorWidth = options.storeWidth;
        s.ldmatrixA = options.ldmatrixA;
        return s;
    };
    // STAGES buffers of As[BM][BK + padA] and Bs[BK][BN + padB], from the shape the mapping builds.
    auto bytes = [mapping = m.mapping](const ParamValues &p) {
        const KernelShape s = mapping(p);
        return s.buffers * 4 * (s.bm * s.sharedRowA() + s.bk * s.sharedRowB());
    };
    if (options.dynamicShared) {
        m.staticSmem = [](const ParamValues &) { return 0; };
        m.dynamicSmem = bytes;
    } else {
        m.staticSmem = bytes;
    }
    m.traffic = tensorTileTraffic;
    return m;
}

StageModel wgmmaWarpgroupModel(WgmmaModelOptions options)
{
    const int producerThreads = options.producerWarpgroups * kWarpgroupThreads;
    StageModel m;
    m.launch = [producerThreads](const ParamValues &p, const ProblemSize &size) {
        const TensorTile t(p, kWgmmaM);
        const int consumers = t.wm > 0 && t.bm % t.wm == 0 ? t.bm / t.wm : 1;
        return gridOver(producerThreads + consumers * kWarpgroupThreads, t.bm, t.bn, size);
    };
    m.constraints = [](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        const TensorTile t(p, kWgmmaM);
        if (t.wm % kWgmmaM != 0)
            out.push_back("WM (" + str(t.wm) +
                          ") must be a multiple of 64: a warpgroup's wgmma covers 64 "
                          "rows.");
        else if (t.bm % t.wm != 0)
            out.push_back("BM (" + str(t.bm) + ") must be a multiple of WM (" + str(t.wm) +
                          "): each consumer warpgroup owns WM rows of the block tile.");
        if (t.bn % kMmaN != 0 || t.bn > 256)
            out.push_back("BN (" + str(t.bn) +
                          ") must be a multiple of 8 and at most 256: it is the N of "
                          "wgmma.m64nNk8.");
        if (t.bk % kWgmmaK != 0)
            out.push_back("BK (" + str(t.bk) +
                          ") must be a multiple of 8: each wgmma m64nNk8 consumes 8 "
                          "columns of A.");
        if (t.wm > 0 && t.wm * t.bn / kWarpgroupThreads > kMaxAccumulatorsPerThread)
            out.push_back("WM x BN (" + str(t.wm) + " x " + str(t.bn) + ") gives each consumer thread " +
                          str(t.wm * t.bn / kWarpgroupThreads) + " accumulators; keep it at most " +
                          str(kMaxAccumulatorsPerThread) + " so they stay in registers.");
        gridConstraint(t.bm, size, out);
    };
    m.mapping = [producerThreads](const ParamValues &p) {
        const TensorTile t(p, kWgmmaM);
        const int consumers = t.wm > 0 && t.bm % t.wm == 0 ? t.bm / t.wm : 1;
        KernelShape s;
        s.bm = t.bm;
        s.bn = t.bn;
        s.bk = t.bk;
        s.wm = t.wm;
        s.wn = t.bn;
        s.tm = t.wm / 32; // rows g and g + 8 of each warp's 16-row slab, per m64 slab
        s.tn = t.bn / 4;
        s.firstConsumerThread = producerThreads;
        s.blockX = producerThreads + consumers * kWarpgroupThreads;
        s.blockY = 1;
        s.layout = ThreadLayout::WgmmaWarpgroups;
        s.loads = TileLoadScheme::NotModelled; // whole tiles (TMA), no lane addresses
        s.buffers = t.stages;
        return s;
    };
    m.staticSmem = [](const ParamValues &) { return 0; };
    m.dynamicSmem = [options](const ParamValues &p) {
        const TensorTile t(p, kWgmmaM);
        const int tiles = t.stages * 4 * (t.bm * t.bk + t.bk * t.bn);
        const int bytes = tiles + t.stages * options.barrierBytesPerStage;
        const int a = options.alignmentBytes > 0 ? options.alignmentBytes : 1;
        return (bytes + a - 1) / a * a;
    };
    m.traffic = tensorTileTraffic;
    return m;
}

int consumerRegistersAfterSetmaxnreg(int consumers)
{
    // A quarter of the SM holds one warp of each warpgroup and 512 registers a lane; the launch
    // shares them equally in steps of 8 (at most 248), then the producer keeps 40.
    constexpr int kProducerRegisters = 40, kMaxConsumerRegisters = 232;
    const int c = std::max(1, consumers);
    const int atLaunch = std::min(248, 512 / (c + 1) / 8 * 8);
    return std::min(kMaxConsumerRegisters, (atLaunch * (c + 1) - kProducerRegisters) / c / 8 * 8);
}

StageModel wgmmaPersistentTf32Model()
{
    constexpr int kBk = 32, kWarpgroupThreads = 128;
    StageModel m;
    m.launch = [](const ParamValues &p, const ProblemSize &size) {
        const int consumers = paramValue(p, "BN") / 64;
        return gridOver((consumers + 1) * kWarpgroupThreads, paramValue(p, "BM"), paramValue(p, "BN"), size);
    };
    m.staticSmem = [](const ParamValues &) { return 0; };
    // The tiles, 1 KiB to align the swizzle atoms, and a loaded, a full and an empty mbarrier per stage.
    m.dynamicSmem = [](const ParamValues &p) {
        const int stages = paramValue(p, "STAGES");
        return stages * (paramValue(p, "BM") + paramValue(p, "BN")) * kBk * int(sizeof(float)) + 1024 +
               3 * stages * 8;
    };
    // Each consumer thread keeps BM / 2 accumulators and two sets of 16 fragment registers; ptxas
    // needs about 26 more around the instruction and the addresses.
    m.constraints = [](const ParamValues &p, const ProblemSize &, std::vector<std::string> &out) {
        constexpr int kFragmentRegisters = 32, kRegistersAroundWgmma = 26;
        const int bm = paramValue(p, "BM"), consumers = paramValue(p, "BN") / 64;
        const int available = consumerRegistersAfterSetmaxnreg(consumers);
        const int needed = bm / 2 + kFragmentRegisters + kRegistersAroundWgmma;
        if (needed > available)
            out.push_back("BM (" + str(bm) + ") gives each consumer thread " + str(bm / 2) +
                          " wgmma accumulators and 32 fragment registers, about " + str(needed) +
                          " registers with the instruction's own, but with " + str(consumers) +
                          " consumer warpgroups each of their threads gets at most " + str(available) +
                          " (setmaxnreg): lower BM or BN.");
    };
    // The tiles' loads, plus a pass over A (or B) when its rows are copied to a 16-byte pitch.
    m.traffic = [](const ParamValues &p, const ProblemSize &size, const LaunchGeometry &g) {
        const int bm = paramValue(p, "BM"), bn = paramValue(p, "BN"), cluster = paramValue(p, "CLUSTER", 1);
        LoadTraffic traffic = blockTileLoads(bm, bn, kBk, size, g);
        if (cluster > 1) { // each block of a cluster copies 1 / CLUSTER of A's tile, multicast to all
            const double blocks = double(g.gridX) * double(g.gridY), steps = double(blocksFor(size.k, kBk));
            traffic.loadBytes -= blocks * steps * double(sizeof(float)) * bm * kBk * (1.0 - 1.0 / cluster);
            traffic.formula = "block tile, A shared by a cluster of " + str(cluster) + ": BM*BN / (2 (BM/" +
                              str(cluster) + " + BN)) = " + str(bm) + "*" + str(bn) + " / (2 (" +
                              str(bm / cluster) + " + " + str(bn) + "))";
        }
        if (size.k % 4 != 0) {
            traffic.loadBytes += double(size.m) * double(size.k) * double(sizeof(float));
            traffic.formula += " + A read once to pad its rows (K not a multiple of 4)";
        }
        if (size.n % 4 != 0) {
            traffic.loadBytes += double(size.k) * double(size.n) * double(sizeof(float));
            traffic.formula += " + B read once to pad its rows (N not a multiple of 4)";
        }
        return traffic;
    };
    return m;
}

} // namespace gemmscope
