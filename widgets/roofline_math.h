// The roofline model's arithmetic, free of Qt so it can be tested on its own.
// Units throughout: arithmetic intensity in FLOP per byte, compute in TFLOP/s, bandwidth in GB/s
// (1 GB/s x 1 FLOP/B = 1 GFLOP/s = 1e-3 TFLOP/s).
#pragma once

#include <algorithm>

namespace gemmscope::roofline {

// The worklog's benchmark: C[8192 x 4096] = A[8192 x 6144] B[6144 x 4096], 412.3 GFLOP.
inline constexpr double kWorklogFlops = 2.0 * 8192.0 * 4096.0 * 6144.0;

// Memory-bound throughput at an intensity: bandwidth x intensity, in TFLOP/s.
inline double bandwidthBound(double intensity, double bandwidthGBs)
{
    return intensity * bandwidthGBs * 1e-3;
}

// Attainable throughput: min(peak, intensity x bandwidth).
inline double roofAt(double intensity, double peakTflops, double bandwidthGBs)
{
    return std::min(peakTflops, bandwidthBound(intensity, bandwidthGBs));
}

// The intensity where the memory roof meets the compute roof: peak / bandwidth, in FLOP/B.
inline double ridgeIntensity(double peakTflops, double bandwidthGBs)
{
    return bandwidthGBs > 0 ? peakTflops * 1e3 / bandwidthGBs : 0.0;
}

// How much of the attainable throughput at that intensity a run achieved, in percent.
inline double percentOfRoof(double achievedTflops, double intensity, double peakTflops, double bandwidthGBs)
{
    const double roof = roofAt(intensity, peakTflops, bandwidthGBs);
    return roof > 0 ? 100.0 * achievedTflops / roof : 0.0;
}

// Throughput of `flops` floating-point operations done in `ms` milliseconds, in TFLOP/s.
inline double tflopsFor(double flops, double ms)
{
    return ms > 0 ? flops / (ms * 1e-3) * 1e-12 : 0.0;
}

} // namespace gemmscope::roofline
