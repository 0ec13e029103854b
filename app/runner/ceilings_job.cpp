// The `ceilings` job: the cached measurement, or a new one with `refresh`.
#include "ceilings.h"
#include "events.h"
#include "job_context.h"
#include "runner_state.h"

#include <QDateTime>

namespace gemmscope::runner {

void runCeilingsJob(RunnerState &state, const protocol::CeilingsJob &request, JobContext &job)
{
    const bool refresh = request.refresh.value_or(false);
    const DeviceInfo &device = state.requireDevice();
    const QString path = ceilingsCachePath(state.cacheDir, device);
    std::optional<Ceilings> ceilings = refresh ? std::nullopt : loadCeilings(path);
    const bool cached = ceilings.has_value();
    if (!ceilings) {
        Ceilings measured;
        job.progress(QStringLiteral("fma"), 0, 2);
        measured.fmaTflops = measureFmaPeakTflops(state.compiler, device, job);
        job.progress(QStringLiteral("dram"), 1, 2);
        measured.dramGBs = measureDramBandwidthGBs(device, job);
        job.progress(QStringLiteral("dram"), 2, 2);
        measured.measuredAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        storeCeilings(path, device, measured);
        ceilings = measured;
    }
    protocol::CeilingsEvent event;
    event.id = job.id();
    event.gpu = gpuIdentity(device);
    event.fmaTflops = ceilings->fmaTflops;
    event.dramGbs = ceilings->dramGBs;
    event.cached = cached;
    event.measuredAt = ceilings->measuredAt;
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
