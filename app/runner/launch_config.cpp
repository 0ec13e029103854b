#include "launch_config.h"

#include "runner_error.h"

#include <algorithm>

namespace gemmscope::runner {

LaunchDims launchDims(const StageInfo &stage, const ParamValues &params, const ProblemSize &size)
{
    LaunchGeometry g = launchGeometry(stage.id, params, size);
    const unsigned clusterX =
        stage.clusterParam.empty() ? 1u : unsigned(std::max(1, paramValue(params, stage.clusterParam, 1)));
    if (stage.persistent) { // the kernel numbers its tiles itself: one long row of them
        g.gridX = (g.gridX * g.gridY + clusterX - 1) / clusterX * clusterX;
        g.gridY = 1;
    }
    if (g.gridX < 1 || g.gridY < 1 || g.gridX > 2147483647LL || g.gridY > 65535)
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("The grid of %1 x %2 blocks exceeds CUDA's limits (x < 2^31, y <= 65535); "
                           "use a smaller problem or larger tiles.")
                .arg(g.gridX)
                .arg(g.gridY));
    LaunchDims d;
    d.grid = dim3(unsigned(g.gridX), unsigned(g.gridY), 1);
    d.block = dim3(unsigned(g.blockX), unsigned(g.blockY), 1);
    d.threads = g.threadsPerBlock();
    d.dynamicSmemBytes = g.dynamicSmemBytes;
    d.clusterX = clusterX;
    return d;
}

unsigned persistentGrid(unsigned tiles, int sms, int blocksPerSm)
{
    const long long resident = (long long)std::max(sms, 1) * std::max(blocksPerSm, 1);
    return unsigned(std::min<long long>(tiles, resident));
}

unsigned persistentClusterGrid(unsigned tiles, unsigned clusterX, int maxClusters)
{
    const unsigned size = std::max(clusterX, 1u);
    const long long needed = (tiles + size - 1) / size;
    return unsigned(std::min<long long>(needed, std::max(maxClusters, 1)) * size);
}

} // namespace gemmscope::runner
