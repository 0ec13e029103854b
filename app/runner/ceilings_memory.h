// The roofline's memory-level ceilings below DRAM: L2 read bandwidth and shared-memory
// read bandwidth, each measured by an NVRTC-built microbenchmark of 128-bit loads over every SM.
#pragma once

#include "gpu_device.h"
#include "nvrtc_compiler.h"

namespace gemmscope::runner {

class JobContext;

// What the two benchmarks are, as the ceilings cache records it (memory_benchmark): a cache that
// names another (or none: written before them) has its L2 and shared figures measured again. Change
// it whenever either kernel or how its bytes are counted changes.
inline constexpr const char *kMemoryBenchmark =
    "l2:ld.global.cg.v4.f32x4,l2/3;shared:ld.volatile.shared.v4.f32x8;v1";

// L2: every thread of one wave of resident blocks reads a buffer of about a third of the L2 (so it
// stays in L2 across passes, on Hopper's two L2 partitions too) with 128-bit ld.global.cg (cached
// in L2, not L1), four loads in flight a thread, many passes, each pass starting at another offset
// so no load repeats the one before it.
NvrtcProgram l2BandwidthProgram(int arch);
// Shared memory: every block fills a 16 KiB shared array once, then streams 128-bit
// ld.volatile.shared over it, eight independent conflict-free loads per thread and iteration.
NvrtcProgram sharedBandwidthProgram(int arch);

// The float4 loads each of `threads` threads makes a pass of the L2 benchmark: a multiple of 4, at
// least 4, as many as keep the buffer (loads x threads x 16 bytes) within a third of `l2Bytes` (2
// MiB when the device does not say its L2 size; where even 4 do not fit, the buffer is larger).
int l2LoadsPerThread(double l2Bytes, long long threads);

// GB/s (1e9 bytes a second) read, the best of a few repetitions.
double measureL2BandwidthGBs(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);
double measureSharedBandwidthGBs(const NvrtcCompiler &compiler, const DeviceInfo &device, JobContext &job);

} // namespace gemmscope::runner
