#include "run_request.h"

namespace gemmscope {

QJsonObject RunRequest::toProtocolJson() const
{
    QJsonObject params;
    for (const auto &[name, value] : config.params)
        params.insert(QString::fromStdString(name), value);
    QJsonObject request{{"type", type}, {"id", jobId}};
    if (type != QLatin1String("run"))
        return request;
    request["stage"] = QString::fromStdString(stageInfo(config.stage).key);
    request["params"] = params;
    request["size"] = QJsonObject{{"m", config.size.m}, {"n", config.size.n}, {"k", config.size.k}};
    request["seed"] = seed;
    request["timing"] =
        QJsonObject{{"budget_ms", config.timing.budgetMs}, {"flush_l2", config.timing.flushL2}};
    request["counters"] = config.timing.counters;
    if (!stageInfo(config.stage).isLibrary) { // cuBLAS has one build and chooses its own launch
        if (config.timing.scalarSharedReads)
            request["build"] = QStringLiteral("scalar_shared");
        if (config.timing.maxBlocksPerSm > 0)
            request["max_blocks_per_sm"] = config.timing.maxBlocksPerSm;
        if (config.timing.smemCarveout >= 0)
            request["smem_carveout"] = config.timing.smemCarveout;
    }
    return request;
}

QList<RunRequest> ladderRequests(const ProblemSize &size, const TimingOptions &timing)
{
    QList<RunRequest> requests;
    for (const Preset &preset : presets()) {
        RunRequest request;
        request.tag = kLadderTag;
        request.config.stage = preset.stage;
        request.config.params = preset.params;
        request.config.size = size;
        request.config.timing = timing;
        request.config.presetKey = QString::fromStdString(preset.key);
        requests.append(request);
    }
    return requests;
}

} // namespace gemmscope
