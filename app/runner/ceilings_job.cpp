// The `ceilings` job: the cached measurement, or a new one with `refresh`.
#include "ceilings.h"
#include "ceilings_memory.h"
#include "events.h"
#include "job_context.h"
#include "runner_state.h"

#include <QDateTime>

namespace gemmscope::runner {

namespace {

// The L2 and shared-memory bandwidths, as progress phases `l2` and `shared` from `done` of `total`.
void measureMemoryLevels(RunnerState &state, const DeviceInfo &device, JobContext &job, Ceilings &ceilings,
                         int done, int total)
{
    job.progress(protocol::ProgressPhase::L2, done, total);
    ceilings.l2GBs = measureL2BandwidthGBs(state.compiler, device, job);
    job.progress(protocol::ProgressPhase::Shared, done + 1, total);
    ceilings.sharedGBs = measureSharedBandwidthGBs(state.compiler, device, job);
    ceilings.memoryBenchmark = QString::fromLatin1(kMemoryBenchmark);
    job.progress(protocol::ProgressPhase::Shared, done + 2, total);
}

} // namespace

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
        job.progress(protocol::ProgressPhase::Fma, 0, 5);
        measured.fmaTflops = measureFmaPeakTflops(state.compiler, device, job);
        job.progress(protocol::ProgressPhase::Dram, 1, 5);
        measured.dramGBs = measureDramBandwidthGBs(device, job);
        job.progress(protocol::ProgressPhase::Tf32, 2, 5);
        if (noTf32.isEmpty()) {
            measured.tf32Tflops = measureTf32PeakTflops(state.compiler, device, job);
            measured.tf32Kernel = QString::fromLatin1(tf32PeakKernel(device.cc()));
        }
        measured.tf32Unavailable = noTf32;
        measureMemoryLevels(state, device, job, measured, 3, 5);
        measured.measuredAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        storeCeilings(path, device, measured);
        ceilings = measured;
    } else {
        // A cache written before the TF32 roof existed, or on Hopper before it was measured with
        // wgmma (the mma.sync peak sits below real wgmma runs), or before the L2 and shared-memory
        // roofs (or by another version of their benchmarks): measure only what is missing, keep
        // the rest.
        const bool tf32 = tf32NeedsMeasuring(*ceilings, device);
        const bool memory = memoryLevelsNeedMeasuring(*ceilings);
        const int total = (tf32 ? 1 : 0) + (memory ? 2 : 0);
        if (tf32) {
            job.progress(protocol::ProgressPhase::Tf32, 0, total);
            ceilings->tf32Tflops = measureTf32PeakTflops(state.compiler, device, job);
            ceilings->tf32Kernel = QString::fromLatin1(tf32PeakKernel(device.cc()));
            job.progress(protocol::ProgressPhase::Tf32, 1, total);
        }
        if (memory)
            measureMemoryLevels(state, device, job, *ceilings, tf32 ? 1 : 0, total);
        if (tf32 || memory)
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
    if (ceilings->l2GBs > 0 && ceilings->sharedGBs > 0) {
        event.l2Gbs = ceilings->l2GBs;
        event.sharedGbs = ceilings->sharedGBs;
    }
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
