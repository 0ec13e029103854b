// The GPU the runner works on (device 0), queried through the CUDA runtime API only, or the
// sentence that says why there is none (no driver vs. no device).
#pragma once

#include "events.h"
#include "gpu_specs.h"

#include <QString>
#include <optional>

namespace gemmscope::runner {

// What this GPU is: one GpuSpec (kernels/gpu_specs.h, the type the occupancy calculator and the
// roofline use for every GPU) filled from the device — its name, compute capability, SMs, clock,
// L2 and per-SM limits as the runtime reports them, the datasheet of its architecture for what the
// runtime has no attribute for (register allocation unit, FP32 peak, DRAM bandwidth) — plus what
// only a present device has.
struct DeviceInfo {
    GpuSpec spec; // key "measured"; smClockMHz: the nominal clock (cudaDevAttrClockRate), not live
    long long memBytes = 0;
    QString uuid; // "GPU-8c1f...": keys the ceilings cache

    QString name() const { return QString::fromStdString(spec.name); }
    int cc() const { return spec.arch; } // compute capability major*10+minor
    QString arch() const { return QStringLiteral("sm_%1").arg(spec.arch); }
};

struct DeviceProbe {
    std::optional<DeviceInfo> device;
    QString error; // set when there is no device: why, in one sentence
};

// Why the CUDA runtime found no GPU: `cudaError` is the cudaError_t it returned, and
// `driverLibraryFound` whether libcuda.so.1 can be loaded. The runtime reports a missing driver as
// cudaErrorInsufficientDriver ("CUDA driver version is insufficient"); a driver that is not there
// is called missing, never also insufficient, so the runtime's own words are left out then.
QString noGpuSentence(int cudaError, bool driverLibraryFound);

// Selects device 0 and creates its context (first runtime call). Never throws.
DeviceProbe probeDevice();

// The device as the protocol's "gpu" object: everything `ready` says of it, or (`identity`) the
// name, arch and uuid a result or a ceilings measurement names.
protocol::GpuInfo gpuInfo(const DeviceInfo &device);
protocol::GpuInfo gpuIdentity(const DeviceInfo &device);

// "sm_90" -> 90; 0 when the text is not exactly of that form (parseSmArch).
int parseArch(const QString &arch);

} // namespace gemmscope::runner
