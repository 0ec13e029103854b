#include "gpu_specs.h"

#include <algorithm>
#include <cmath>

namespace gemmscope {
namespace {

std::vector<GpuSpec> buildGpus()
{
    std::vector<GpuSpec> g;
    GpuSpec t4;
    t4.key = "t4";
    t4.name = "NVIDIA T4";
    t4.arch = 75;
    t4.sms = 40;
    t4.smClockMHz = 1590;
    t4.fp32Tflops = 8.1;
    t4.tf32Tflops = 0; // Turing has no TF32 tensor cores
    t4.dramGBs = 320;
    t4.l2Bytes = 4.0 * 1024 * 1024;
    t4.maxThreadsPerSm = 1024;
    t4.maxBlocksPerSm = 16;
    t4.sharedMemPerSm = 65536;
    t4.sharedMemPerBlockOptin = 65536;
    t4.sharedMemReservedPerBlock = 0;
    t4.source = "NVIDIA T4 datasheet; the worklog's figures (8.1 TFLOP/s, 320 GB/s, 40 SMs)";
    g.push_back(t4);

    GpuSpec a100;
    a100.key = "a100";
    a100.name = "NVIDIA A100 SXM 80GB";
    a100.arch = 80;
    a100.sms = 108;
    a100.smClockMHz = 1410;
    a100.fp32Tflops = 19.5;
    a100.tf32Tflops = 156;
    a100.dramGBs = 2039;
    a100.l2Bytes = 40.0 * 1024 * 1024;
    a100.sharedMemPerSm = 167936;
    a100.sharedMemPerBlockOptin = 166912;
    a100.source = "NVIDIA A100 datasheet (SXM4 80GB; dense TF32)";
    g.push_back(a100);

    GpuSpec h100;
    h100.key = "h100";
    h100.name = "NVIDIA H100 SXM";
    h100.arch = 90;
    h100.sms = 132;
    h100.smClockMHz = 1980;
    h100.fp32Tflops = 66.9;
    h100.tf32Tflops = 494.7;
    h100.dramGBs = 3350;
    h100.l2Bytes = 50.0 * 1024 * 1024;
    h100.source = "NVIDIA H100 datasheet (SXM5; dense TF32); FP32 = 132 SMs x 128 x 2 x 1.98 GHz";
    g.push_back(h100);

    GpuSpec h200 = h100;
    h200.key = "h200";
    h200.name = "NVIDIA H200 SXM";
    h200.dramGBs = 4800;
    h200.l2Bytes = 60.0 * 1024 * 1024;
    h200.source = "NVIDIA H200 datasheet (141 GB HBM3e, 4.8 TB/s); compute as the H100 SXM";
    g.push_back(h200);

    GpuSpec b200;
    b200.key = "b200";
    b200.name = "NVIDIA B200";
    b200.arch = 100;
    b200.sms = 148;
    b200.smClockMHz = 1965;
    b200.fp32Tflops = 80;
    b200.tf32Tflops = 1100;
    b200.dramGBs = 8000;
    b200.l2Bytes = 126.0 * 1024 * 1024;
    b200.source = "NVIDIA HGX B200 datasheet (dense TF32); FP32 ~80 TFLOP/s as the worklog quotes";
    g.push_back(b200);
    return g;
}

} // namespace

const std::vector<GpuSpec> &knownGpus()
{
    static const std::vector<GpuSpec> all = buildGpus();
    return all;
}

const GpuSpec *findGpu(std::string_view key)
{
    for (const auto &g : knownGpus())
        if (g.key == key)
            return &g;
    return nullptr;
}

std::optional<int> parseSmArch(std::string_view text)
{
    constexpr std::string_view prefix = "sm_";
    if (text.size() < prefix.size() + 2 || text.size() > prefix.size() + 3 || text.substr(0, 3) != prefix ||
        text[3] == '0')
        return std::nullopt;
    int value = 0;
    for (const char c : text.substr(3)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

const GpuSpec *findGpuForArch(int arch)
{
    // Prefer the newest part of that architecture (H200 over H100 for sm_90).
    const GpuSpec *best = nullptr;
    for (const auto &g : knownGpus())
        if (g.arch == arch)
            best = &g;
    return best;
}

Occupancy computeOccupancy(const GpuSpec &gpu, int threadsPerBlock, int registersPerThread, int smemPerBlock)
{
    Occupancy o;
    o.maxWarps = gpu.maxThreadsPerSm / 32;
    if (threadsPerBlock < 1 || threadsPerBlock > gpu.maxThreadsPerBlock) {
        o.explanation =
            "a block of " + std::to_string(threadsPerBlock) + " threads cannot launch on " + gpu.name;
        return o;
    }
    const int warpsPerBlock = (threadsPerBlock + 31) / 32;

    struct Limit {
        OccupancyLimiter what;
        int blocks;
        double share = 0; // of the SM's resource one block takes (registers, shared memory)
    };
    // Order matters only for ties: the first listed resource is named as the limiter. Threads
    // come first: when the SM is full of warps, no resource is to blame.
    std::vector<Limit> limits;
    limits.push_back({OccupancyLimiter::Threads, o.maxWarps / warpsPerBlock});
    if (registersPerThread > 0) {
        int byRegs = 0;
        double share = 1;
        if (registersPerThread <= gpu.maxRegistersPerThread) {
            // Registers are allocated per warp, rounded up to the allocation unit, and each of the
            // SM's four sub-partitions holds a quarter of the register file.
            const int perWarp = (registersPerThread * 32 + gpu.registerAllocUnit - 1) /
                                gpu.registerAllocUnit * gpu.registerAllocUnit;
            const int warpsPerPartition = (gpu.registersPerSm / 4) / perWarp;
            byRegs = (warpsPerPartition * 4) / warpsPerBlock;
            share = double(perWarp) * warpsPerBlock / gpu.registersPerSm;
        }
        limits.push_back({OccupancyLimiter::Registers, byRegs, share});
    }
    if (smemPerBlock > 0) {
        // Allocated in 128-byte granules, plus the runtime's per-block reservation.
        const int granule = 128;
        const int smem = (smemPerBlock + gpu.sharedMemReservedPerBlock + granule - 1) / granule * granule;
        const int bySmem = smemPerBlock > gpu.sharedMemPerBlockOptin ? 0 : gpu.sharedMemPerSm / smem;
        limits.push_back({OccupancyLimiter::SharedMemory, bySmem, double(smem) / gpu.sharedMemPerSm});
    }
    limits.push_back({OccupancyLimiter::Blocks, gpu.maxBlocksPerSm});

    const auto best = std::min_element(limits.begin(), limits.end(),
                                       [](const Limit &a, const Limit &b) { return a.blocks < b.blocks; });
    o.blocksPerSm = best->blocks;
    o.activeWarps = o.blocksPerSm * warpsPerBlock;
    o.fraction = o.maxWarps ? double(o.activeWarps) / o.maxWarps : 0;

    // Every resource that allows no more blocks than the limit binds; naming one alone would hide
    // the other (wgmma_tma_tf32: 193 KiB of shared memory and 168 registers both allow one block).
    // The one a block takes the larger share of is named first: it would still bind if the other
    // were freed. Full warps (threads) bind alone, as above.
    std::vector<Limit> binding;
    if (best->what == OccupancyLimiter::Threads)
        binding.push_back(*best);
    else
        for (const Limit &l : limits)
            if (l.blocks == best->blocks)
                binding.push_back(l);
    std::stable_sort(binding.begin(), binding.end(),
                     [](const Limit &a, const Limit &b) { return a.share > b.share; });
    o.limiter = binding.front().what;

    const auto why = [&](OccupancyLimiter limiter) -> std::string {
        switch (limiter) {
        case OccupancyLimiter::Registers:
            return "registers (" + std::to_string(registersPerThread) + " per thread)";
        case OccupancyLimiter::SharedMemory:
            return "shared memory (" + std::to_string(smemPerBlock) + " bytes per block)";
        case OccupancyLimiter::Threads:
            return "threads per SM (" + std::to_string(gpu.maxThreadsPerSm) + ")";
        case OccupancyLimiter::Blocks:
            return "blocks per SM (" + std::to_string(gpu.maxBlocksPerSm) + ")";
        case OccupancyLimiter::Requested: // set by the runner, never by the calculator
        case OccupancyLimiter::None:
        case OccupancyLimiter::Unknown:
            break;
        }
        return {};
    };
    std::string reasons;
    for (size_t i = 0; i < binding.size(); ++i)
        reasons += (i == 0 ? "" : i + 1 == binding.size() ? " and " : ", ") + why(binding[i].what);
    o.explanation = std::to_string(o.blocksPerSm) + " block(s) of " + std::to_string(threadsPerBlock) +
                    " threads per SM on " + gpu.name + ", limited by " + reasons;
    return o;
}

} // namespace gemmscope
