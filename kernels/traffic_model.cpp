#include "traffic_model.h"

#include <cmath>
#include <sstream>

namespace gemmscope {
namespace {

// ceil(a / b) for a problem extent and a tile, without overflow; 0 where either is not positive
// (the model of a configuration the catalog refuses is empty, never a division by zero).
long long ceilDiv(long long a, long long b)
{
    return a < 1 || b < 1 ? 0 : (a - 1) / b + 1;
}

std::string fmt(double v)
{
    std::ostringstream s;
    s.precision(4);
    s << v;
    return s.str();
}

} // namespace

TrafficEstimate estimateTraffic(StageId id, const ParamValues &params, const ProblemSize &size)
{
    TrafficEstimate t;
    const double m = double(size.m), n = double(size.n), k = double(size.k);
    const double word = sizeof(float);
    t.flops = size.flops();
    t.storeBytes = word * m * n;
    t.compulsoryBytes = word * (m * k + k * n + m * n);
    t.compulsoryIntensity = t.compulsoryBytes > 0 ? t.flops / t.compulsoryBytes : 0;

    const LaunchGeometry g = launchGeometry(id, params, size);
    t.threadsPerBlock = g.threadsPerBlock();
    t.smemBytesPerBlock = g.staticSmemBytes;

    switch (id) {
    case StageId::Naive:
        // Every multiply-add reads one float of A and one of B from global memory.
        t.loadBytes = 2 * word * m * n * k;
        t.formula = "naive: 2K FLOP / 8K bytes per output = 0.25";
        break;
    case StageId::SmemTiled: {
        // Each thread loads one float of A and one of B per tile step: 8 bytes per T multiply-adds.
        const int tile = paramValue(params, "TILE");
        t.loadBytes = 2 * word * m * n * double(ceilDiv(size.k, tile));
        t.formula = "tiled: T/4 = " + std::to_string(tile) + "/4";
        break;
    }
    case StageId::Coarsened:
    case StageId::Coalesced:
    case StageId::DoubleBuffered:
    case StageId::Strided:
    case StageId::Final: {
        // Every block loads a BM x BK tile of A and a BK x BN tile of B per step of the reduction.
        const int bm = paramValue(params, "BM"), bn = paramValue(params, "BN"), bk = paramValue(params, "BK");
        const double blocks = double(g.gridX) * double(g.gridY); // ragged edge blocks load full tiles
        const double steps = double(ceilDiv(size.k, bk));
        t.loadBytes = blocks * steps * word * (double(bm) + double(bn)) * double(bk);
        t.formula = "block tile: BM*BN / (2 (BM + BN)) = " + std::to_string(bm) + "*" + std::to_string(bn) +
                    " / (2 (" + std::to_string(bm) + " + " + std::to_string(bn) + "))";
        break;
    }
    case StageId::CublasFp32:
    case StageId::CublasTf32:
        // cuBLAS's tiling is not public: the compulsory traffic is the honest lower bound.
        t.loadBytes = word * (m * k + k * n);
        t.formula = "cuBLAS's tiling is unknown: compulsory traffic 4 (MK + KN + MN) bytes";
        t.intensity = t.compulsoryIntensity;
        t.formula += " = " + fmt(t.intensity);
        return t;
    }
    t.intensity = t.loadBytes > 0 ? t.flops / t.loadBytes : 0;
    t.formula += " = " + fmt(t.intensity) + " FLOP/B";
    return t;
}

} // namespace gemmscope
