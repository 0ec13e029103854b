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
    const QString noTf32 = tf32Unavailable(device);
    if (!ceilings) {
        Ceilings measured;
        job.progress(QStringLiteral("fma"), 0, 3);
        measured.fmaTflops = measureFmaPeakTflops(state.compiler, device, job);
        job.progress(QStringLiteral("dram"), 1, 3);
        measured.dramGBs = measureDramBandwidthGBs(device, job);
        job.progress(QStringLiteral("tf32"), 2, 3);
        if (noTf32.isEmpty()) {
            measured.tf32Tflops = measureTf32PeakTflops(state.compiler, device, job);
            measured.tf32Kernel = QString::fromLatin1(tf32PeakKernel(device.cc()));
        }
        measured.tf32Unavailable = noTf32;
        job.progress(QStringLiteral("tf32"), 3, 3);
        measured.measuredAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        storeCeilings(path, device, measured);
        ceilings = measured;
    } else if (tf32NeedsMeasuring(*ceilings, device)) {
        // A cache written before the TF32 roof existed, or on Hopper before it was measured with
        // wgmma (the mma.sync peak sits below real wgmma runs): measure only that, keep the rest.
        job.progress(QStringLiteral("tf32"), 0, 1);
        ceilings->tf32Tflops = measureTf32PeakTflops(state.compiler, device, job);
        ceilings->tf32Kernel = QString::fromLatin1(tf32PeakKernel(device.cc()));
        job.progress(QStringLiteral("tf32"), 1, 1);
        storeCeilings(path, device, *ceilings);
    }
    protocol::CeilingsEvent event;
    event.id = job.id();
    event.gpu = gpuIdentity(device);
    event.fmaTflops = ceilings->fmaTflops;
    event.dramGbs = ceilings->dramGBs;
    event.cached = cached;
    event.measuredAt = ceilings->measuredAt;
    if (ceilings->tf32Tflops > 0) {
        event.tf32Tflops = ceilings->tf32Tflops;
        event.tf32Kernel = ceilings->tf32Kernel;
    } else if (!noTf32.isEmpty()) {
        event.tf32Unavailable = noTf32;
    }
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
