// Measured roofline ceilings of the device: FP32 FMA peak, DRAM copy bandwidth and (sm_80 on) the
// TF32 tensor-core peak of mma.sync, cached on disk per GPU UUID so that the (few-second)
// measurement runs once per device.
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
    // TF32 tensor cores, measured with back-to-back mma.sync m16n8k8 (kTf32PeakKernel); 0 when not
    // measured, and then tf32Unavailable says why (sm_75 has no TF32).
    double tf32Tflops = 0;
    QString tf32Unavailable;
};

// What the TF32 roof was measured with, as the ceilings event names it. On Hopper mma.sync reaches
// only part of the tensor cores' wgmma peak: the name keeps the roof honest.
inline constexpr const char *kTf32PeakKernel = "mma.sync.m16n8k8.tf32";
// The microbenchmark's CUDA source (extern "C" gemmscope_tf32_mma_peak), NVRTC-compilable for
// sm_80 and later; tst_nvrtc_compile compiles it without a GPU.
const char *tf32MmaPeakSource();
// Why a device cannot run it (empty when it can): TF32 tensor cores arrived with sm_80.
QString tf32Unavailable(const DeviceInfo &device);

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
// TFLOP/s of dense TF32 mma.sync (2 x 16 x 8 x 8 FLOP per instruction); call only where
// tf32Unavailable() is empty.
double measureTf32MmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
double measureDramBandwidthGBs(const DeviceInfo &device, JobContext &job);

QString ceilingsCachePath(const QString &cacheDir, const DeviceInfo &device);
std::optional<Ceilings> loadCeilings(const QString &path);
void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &ceilings);

} // namespace gemmscope::runner
