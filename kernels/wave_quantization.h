// Wave quantization: a launch of `blocks` thread blocks on a GPU of `sms` SMs, each holding
// `blocksPerSm` resident blocks at once, runs in waves of sms x blocksPerSm blocks. When the last
// wave holds only a few blocks, most SMs idle through it while the kernel still pays its whole
// time: the TFLOP/s-vs-size curve steps down just past each whole number of waves. The size
// sweep's chart marks those sizes with this. Plain C++20.
#pragma once

#include "stage_types.h"

#include <optional>
#include <string>

namespace gemmscope {

struct WaveQuantization {
    long long blocks = 0;         // thread blocks of the launch (output tiles)
    long long blocksPerWave = 0;  // sms x blocksPerSm
    double waves = 0;             // blocks / blocksPerWave
    long long fullWaves = 0;      // whole waves
    long long lastWaveBlocks = 0; // blocks of the last, partial wave (0: the waves come out even)
    int lastWaveSms = 0;          // SMs busy in that last wave
    int sms = 0;
    // waves / ceil(waves): the share of the launch's SM time that does work, when every block takes
    // as long as any other (8.05 waves: 8.05 / 9 = 0.89).
    double waveEfficiency() const { return waves > 0 ? waves / double(fullWaves + (lastWaveBlocks > 0)) : 0; }
    // The last wave barely started: it holds more than nothing and at most `threshold` of a wave,
    // after at least one whole wave, and it costs at least `minLoss` of the launch's SM time (after
    // 30 waves a thin last wave no longer shows). This is where the TFLOP/s curve steps down.
    bool tailIsSmall(double threshold = 0.25, double minLoss = 0.05) const
    {
        return fullWaves >= 1 && lastWaveBlocks > 0 &&
               double(lastWaveBlocks) / double(blocksPerWave) <= threshold &&
               1.0 - waveEfficiency() >= minLoss;
    }
    // "8.05 waves: the last wave runs 7 of 132 SMs" / "4.00 waves: the waves come out even".
    std::string sentence() const;
};

// Empty when any count is not positive (blocks per SM unknown, a stage without a launch model).
std::optional<WaveQuantization> waveQuantization(long long blocks, int sms, int blocksPerSm);

// The blocks of a catalog stage's launch at a size (its grid), or 0 when it has no launch model
// (cuBLAS) or the configuration is refused.
long long launchBlocks(StageId stage, const ParamValues &params, const ProblemSize &size);

} // namespace gemmscope
