// Measured roofline ceilings of the device: FP32 FMA peak, DRAM copy bandwidth, (sm_80 on) the
// TF32 tensor-core peak (wgmma on Hopper, mma.sync elsewhere) and the L2 and shared-memory read
// bandwidths (ceilings_memory.h), cached on disk per GPU UUID so that the (few-second) measurement
// runs once per device.
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
    // TF32 tensor cores, measured with tf32Kernel (tf32PeakKernel() of the device); 0 when not
    // measured, and then tf32Unavailable says why (sm_75 has no TF32).
    double tf32Tflops = 0;
    QString tf32Unavailable;
    QString tf32Kernel; // what measured tf32Tflops: kTf32MmaPeakKernel or kTf32WgmmaPeakKernel
    // The memory levels below DRAM, GB/s read; 0 when not measured (a cache written before them).
    // memoryBenchmark: kMemoryBenchmark of the runner that measured them.
    double l2GBs = 0;
    double sharedGBs = 0;
    QString memoryBenchmark;
};

// What the TF32 roof was measured with, as the ceilings event names it (tf32_kernel). On Hopper
// mma.sync reaches only ~65 % of the tensor cores' peak (wgmma kernels and cuBLAS run above it),
// so sm_90 measures with wgmma; every other TF32 device (sm_80, 86, 89, 100, ...) with mma.sync.
inline constexpr const char *kTf32MmaPeakKernel = "mma.sync.m16n8k8.tf32";
inline constexpr const char *kTf32WgmmaPeakKernel = "wgmma.m64n256k8.tf32";
const char *tf32PeakKernel(int arch); // the name above that `arch` (90 = sm_90) measures with
// The TF32 microbenchmark the runner compiles for `arch`: back-to-back wgmma m64n256k8 built for
// sm_90a on sm_90, independent mma.sync m16n8k8 chains elsewhere. tst_nvrtc_compile compiles both
// without a GPU (NVRTC refuses the mma.sync one for sm_75).
NvrtcProgram tf32PeakProgram(int arch);
// Why a device cannot run it (empty when it can): TF32 tensor cores arrived with sm_80.
QString tf32Unavailable(const DeviceInfo &device);
// Whether ceilings read from the cache lack a TF32 peak this device can measure, or hold one
// measured with another kernel than the device's (a Hopper cache written with mma.sync before
// the wgmma benchmark existed): the job then measures the TF32 peak again, only it.
bool tf32NeedsMeasuring(const Ceilings &cached, const DeviceInfo &device);
// Whether ceilings read from the cache lack the L2 or shared-memory bandwidth, or hold figures of
// another benchmark than this runner's (kMemoryBenchmark): the job then measures those two again.
bool memoryLevelsNeedMeasuring(const Ceilings &cached);

double measureFmaPeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
// TFLOP/s of dense TF32 with tf32PeakProgram(device.cc()); call only where tf32Unavailable() is
// empty.
double measureTf32PeakTflops(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
double measureDramBandwidthGBs(const DeviceInfo &device, JobContext &job);

QString ceilingsCachePath(const QString &cacheDir, const DeviceInfo &device);
std::optional<Ceilings> loadCeilings(const QString &path);
void storeCeilings(const QString &path, const DeviceInfo &device, const Ceilings &ceilings);

} // namespace gemmscope::runner
