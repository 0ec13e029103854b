#include "run_request.h"

namespace gemmscope {

protocol::RunJob RunRequest::toRunJob() const
{
    protocol::RunJob job;
    job.id = jobId;
    job.stage = QString::fromStdString(stageInfo(config.stage).key);
    job.params = config.params;
    job.size = config.size;
    job.seed = seed;
    protocol::TimingRequest timing;
    timing.budgetMs = config.timing.budgetMs;
    timing.flushL2 = config.timing.flushL2;
    timing.regime = protocol::valueName(config.timing.regime);
    timing.maxNoisePct = config.timing.maxNoisePct;
    timing.throttleThresholdPct = config.timing.throttleThresholdPct;
    job.timing = timing;
    job.counters = config.timing.counters;
    if (!stageInfo(config.stage).isLibrary) { // cuBLAS has one build and chooses its own launch
        if (config.timing.scalarSharedReads)
            job.build = protocol::valueName(protocol::BuildKind::ScalarShared);
        if (config.timing.maxBlocksPerSm > 0)
            job.maxBlocksPerSm = config.timing.maxBlocksPerSm;
        if (config.timing.smemCarveout >= 0)
            job.smemCarveout = config.timing.smemCarveout;
        if (config.timing.truncateTf32 && stageInfo(config.stage).precision == Precision::Tf32)
            job.tf32Rounding = protocol::valueName(protocol::Tf32Rounding::Truncate);
    }
    return job;
}

protocol::ProfileJob RunRequest::toProfileJob() const
{
    protocol::ProfileJob job;
    job.id = jobId;
    job.stage = QString::fromStdString(stageInfo(config.stage).key);
    job.params = config.params;
    job.size = config.size;
    job.seed = seed;
    const StageInfo &stage = stageInfo(config.stage);
    if (!stage.isLibrary && config.timing.scalarSharedReads)
        job.build = protocol::valueName(protocol::BuildKind::ScalarShared);
    if (!stage.isLibrary && stage.precision == Precision::Tf32)
        job.tf32Rounding = !profile.tf32Rounding.isEmpty() ? profile.tf32Rounding
                           : config.timing.truncateTf32
                               ? protocol::valueName(protocol::Tf32Rounding::Truncate)
                               : QString();
    job.parts = profile.parts;
    job.samplingPeriod = profile.samplingPeriod;
    return job;
}

QJsonObject RunRequest::toProtocolJson() const
{
    if (type == protocol::RequestType::Fault)
        return protocol::toJson(protocol::FaultJob{jobId});
    if (type == protocol::RequestType::Profile)
        return protocol::toJson(toProfileJob());
    return protocol::toJson(toRunJob());
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

RunRequest profileRequest(const RunConfig &config, const ProfileOptions &options)
{
    RunRequest request;
    request.tag = kProfileTag;
    request.type = protocol::RequestType::Profile;
    request.config = config;
    request.profile = options;
    return request;
}

} // namespace gemmscope
