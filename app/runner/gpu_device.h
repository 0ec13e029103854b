// The GPU the runner works on (device 0), queried through the CUDA runtime API only, or the
// sentence that says why there is none (no driver vs. no device).
#pragma once

#include "gpu_specs.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace gemmscope::runner {

struct DeviceInfo {
    QString name;
    int cc = 0; // compute capability major*10+minor
    int sms = 0;
    int smClockMHz = 0; // nominal (cudaDevAttrClockRate); the runner cannot read the live clock
    long long l2Bytes = 0;
    long long memBytes = 0;
    int smemPerBlockOptin = 0;
    int smemPerSm = 0;
    int reservedSmemPerBlock = 0;
    int maxThreadsPerSm = 0;
    int maxThreadsPerBlock = 0;
    int maxBlocksPerSm = 0;
    int registersPerSm = 0;
    QString uuid; // "GPU-8c1f...": keys the ceilings cache
    QString arch() const { return QStringLiteral("sm_%1").arg(cc); }
};

struct DeviceProbe {
    std::optional<DeviceInfo> device;
    QString error; // set when there is no device: why, in one sentence
};

// Selects device 0 and creates its context (first runtime call). Never throws.
DeviceProbe probeDevice();

QJsonObject deviceJson(const DeviceInfo &device);
// The device's own limits in the occupancy calculator's terms (datasheet values where the
// runtime has none, e.g. the register allocation unit).
GpuSpec specFromDevice(const DeviceInfo &device);

// "sm_90" -> 90; 0 when the text is not of that form.
int parseArch(const QString &arch);

} // namespace gemmscope::runner
