// Datasheet figures of the GPUs GemmScope knows, and the occupancy calculator that uses them.
// Plain C++20: the runner uses it in compile-only mode, the roofline and the panel without a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

struct GpuSpec {
    std::string key;  // "h200"
    std::string name; // "NVIDIA H200 SXM"
    int arch = 90;    // compute capability major*10+minor
    int sms = 132;
    double smClockMHz = 1980; // boost clock the FP32 peak is quoted at
    double fp32Tflops = 66.9; // datasheet FP32 (non-tensor) peak
    double tf32Tflops = 0;    // datasheet dense TF32 tensor-core peak; 0 = none
    double dramGBs = 4800;    // datasheet DRAM bandwidth, GB/s
    double l2Bytes = 0;
    // Per-SM limits the occupancy calculator needs.
    int maxThreadsPerSm = 2048;
    int maxBlocksPerSm = 32;
    int maxThreadsPerBlock = 1024;
    int registersPerSm = 65536;
    int maxRegistersPerThread = 255;
    int registerAllocUnit = 256; // registers are allocated per warp in units of this many
    int sharedMemPerSm = 233472; // bytes usable by blocks on one SM
    int sharedMemPerBlockOptin = 232448;
    int sharedMemReservedPerBlock = 1024; // the runtime's own reservation per resident block
    std::string source;                   // where the figures come from
};

const std::vector<GpuSpec> &knownGpus();      // T4, A100, H100, H200, B200
const GpuSpec *findGpu(std::string_view key); // by key ("h200")
const GpuSpec *findGpuForArch(int arch); // the newest known part of this compute capability (H200 for sm_90)
// "sm_90" -> 90, strictly: "sm_" and 2 or 3 digits without a leading zero, nothing before or
// after ("sm_ 90", "sm_90\0x", "sm_090", " sm_90", "sm_90a" are refused: nullopt). Every place
// that reads an architecture from a request or a file uses this one reading.
std::optional<int> parseSmArch(std::string_view text);

// Requested: the run asked for fewer blocks per SM than fit (the runner pads shared memory).
// None: the CUDA runtime counted the blocks (the runner's word). Unknown: a name read from a newer
// runner or a file that this build does not know; the calculator never gives it. The protocol
// spells each (app/protocol/values.h).
enum class OccupancyLimiter { Threads, Registers, SharedMemory, Blocks, Requested, None, Unknown };

struct Occupancy {
    int blocksPerSm = 0;
    int activeWarps = 0;
    int maxWarps = 0;
    double fraction = 0; // activeWarps / maxWarps
    OccupancyLimiter limiter = OccupancyLimiter::None;
    std::string explanation; // "4 blocks of 256 threads per SM, limited by registers (64 per thread)"
};

// Theoretical occupancy as CUDA's occupancy calculator computes it. `registersPerThread` 0 means
// unknown (not yet compiled): the register limit is then left out.
Occupancy computeOccupancy(const GpuSpec &gpu, int threadsPerBlock, int registersPerThread, int smemPerBlock);

} // namespace gemmscope
