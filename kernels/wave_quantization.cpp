#include "wave_quantization.h"

#include "stage_catalog.h"

#include <cmath>
#include <cstdio>

namespace gemmscope {

std::optional<WaveQuantization> waveQuantization(long long blocks, int sms, int blocksPerSm)
{
    if (blocks <= 0 || sms <= 0 || blocksPerSm <= 0)
        return std::nullopt;
    WaveQuantization w;
    w.blocks = blocks;
    w.sms = sms;
    w.blocksPerWave = (long long)sms * blocksPerSm;
    w.waves = double(blocks) / double(w.blocksPerWave);
    w.fullWaves = blocks / w.blocksPerWave;
    w.lastWaveBlocks = blocks % w.blocksPerWave;
    // The scheduler spreads a partial wave over as many SMs as it can: one block each first.
    w.lastWaveSms = int(std::min<long long>(sms, w.lastWaveBlocks));
    return w;
}

std::string WaveQuantization::sentence() const
{
    char buf[200];
    if (lastWaveBlocks == 0)
        std::snprintf(buf, sizeof buf, "%.2f waves of %lld blocks: the waves come out even", waves,
                      blocksPerWave);
    else if (fullWaves == 0)
        std::snprintf(buf, sizeof buf, "%.2f waves: %lld blocks fill %d of %d SMs", waves, blocks,
                      lastWaveSms, sms);
    else
        std::snprintf(buf, sizeof buf, "%.2f waves: the last wave runs %d of %d SMs (%lld of %lld blocks)",
                      waves, lastWaveSms, sms, lastWaveBlocks, blocksPerWave);
    return buf;
}

long long launchBlocks(StageId stage, const ParamValues &params, const ProblemSize &size)
{
    const StageInfo *info = findStage(stage.key());
    if (!info || info->isLibrary || !violations(stage, params, size).empty())
        return 0;
    const LaunchGeometry g = launchGeometry(stage, params, size);
    return g.gridX * g.gridY;
}

} // namespace gemmscope
