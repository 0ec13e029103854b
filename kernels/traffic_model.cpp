#include "traffic_model.h"

#include <cmath>
#include <sstream>

namespace gemmscope {
namespace {

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
    t.smemBytesPerBlock = g.smemBytes();

    const StageInfo &info = stageInfo(id);
    if (!info.model.traffic) {
        // Not modelled yet: no predicted intensity (0), which the roofline reads as "use the
        // compulsory one", and a formula that says so.
        t.formula = "the load traffic of \"" + info.title +
                    "\" is not modelled yet; compulsory traffic gives " + fmt(t.compulsoryIntensity) +
                    " FLOP/B";
        return t;
    }
    const LoadTraffic load = info.model.traffic(params, size, g);
    t.loadBytes = load.loadBytes;
    t.formula = load.formula;
    if (load.compulsoryOnly) {
        t.intensity = t.compulsoryIntensity;
        t.formula += " = " + fmt(t.intensity);
        return t;
    }
    t.intensity = t.loadBytes > 0 ? t.flops / t.loadBytes : 0;
    t.formula += " = " + fmt(t.intensity) + " FLOP/B";
    return t;
}

} // namespace gemmscope
