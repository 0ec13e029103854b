// Measured roofline ceilings of the device: FP32 FMA peak and DRAM copy bandwidth, cached on disk
// per GPU UUID so that the (few-second) measurement runs once per device.
#pragma once

#include "gpu_device.h"
#include "nvrtc_compiler.h"

#include <QJsonObject>
#include <optional>

namespace gemmscope::runner {

class JobContext;

struct Ceilings {
    double fmaTflops = 0;
    double dramGBs = 0;
    QString measuredAt; // ISO 8601 UTC
};

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
double measureDramBandwidthGBs(const DeviceInfo &device, JobContext &job);

QString ceilingsCachePath(const QString &cacheDir, const DeviceInfo &device);
std::optional<Ceilings> loadCeilings(const QString &path);
void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &ceilings);

} // namespace gemmscope::runner
