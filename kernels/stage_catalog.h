// The stage catalog: every kernel stage of the matmul ladder, its parameters, presets and
// constraints. Plain C++20, no Qt, no CUDA: the GUI, the runner and the tests all read it.
//
// Notation is BLAS's throughout: C[M x N] = A[M x K] * B[K x N], row-major, reduce over K.
// (The worklog writes A as M x N and reduces over N; its benchmark is M=8192, N=4096, K=6144 here.)
#pragma once

#include <climits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

struct ProblemSize {
    long long m = 8192;
    long long n = 4096;
    long long k = 6144;
    double flops() const { return 2.0 * double(m) * double(n) * double(k); }
    friend bool operator==(const ProblemSize &, const ProblemSize &) = default;
};

enum class StageId {
    Naive,          // worklog step 0
    SmemTiled,      // worklog step 1, guide's 32x32 +1 padded kernel
    Coarsened,      // worklog step 2: register tiling, tx<BK / ty<BK loads
    Coalesced,      // worklog step 3 (and step 6 at 192x192): linear-tid cooperative loads
    DoubleBuffered, // worklog steps 4, 5a, 5b
    Strided,        // worklog step 7: strided thread layout
    Final,          // worklog step 8: __restrict__ + #pragma unroll
    CublasFp32,     // baseline: cuBLAS SGEMM, pedantic FP32 math
    CublasTf32,     // baseline: cuBLAS SGEMM with TF32 tensor cores
};

enum class Precision { Fp32, Tf32 };

// The oldest architecture CUDA 13 builds for: its NVRTC refuses anything below sm_75 (Turing)
// with a compile error, and its cuBLAS dropped Maxwell, Pascal and Volta. No stage can say less.
inline constexpr int kCuda13MinArch = 75;

// One integer tile parameter. When `choices` is non-empty only those values are legal
// (a slider then steps through them); otherwise min..max in steps of `step`.
struct ParamSpec {
    std::string name;  // "BM" (also the template argument's name in the kernel)
    std::string label; // "Block tile rows (BM)"
    std::string help;  // one sentence for a tooltip
    int min = 1;
    int max = 1;
    int step = 1;
    int defaultValue = 1;
    std::vector<int> choices;
};

using ParamValues = std::map<std::string, int>;

struct StageInfo {
    StageId id;
    std::string key;               // stable identifier used in JSON and on the command line: "coalesced"
    std::string title;             // "Coalesced cooperative loads"
    std::string seedStep;          // "worklog step 3" — what this stage reproduces
    std::string summary;           // two sentences on what changed from the previous stage
    std::string sourceFile;        // file under kernels/cuda/, e.g. "coalesced.cuh"; empty for cuBLAS
    std::string kernelName;        // template name, e.g. "gemmscope::coalesced"; empty for cuBLAS
    std::vector<ParamSpec> params; // in template-argument order
    int minArch = kCuda13MinArch;  // smallest compute capability (major*10+minor) it runs on
    bool isLibrary = false;        // cuBLAS baselines: no source, no NVRTC
    Precision precision = Precision::Fp32;
    // The stage whose source this one was written from, when it is not the one before it in the
    // ladder: the worklog built step 7 (strided) from step 6, the coalesced kernel without double
    // buffering. Empty: the previous stage with a source.
    std::string derivedFrom{};
};

struct Preset {
    std::string key;   // "worklog-2"
    std::string title; // "Step 2: thread coarsening, 64x64 tiles"
    StageId stage;
    ParamValues params;
    std::string source;                // "worklog step 2" / "guide" / "baseline"
    std::optional<double> worklogT4Ms; // the worklog's published T4 runtime, where it has one
};

struct LaunchGeometry {
    int blockX = 1, blockY = 1;
    long long gridX = 1, gridY = 1;
    // In 64 bits: the geometry of an invalid configuration (one violations() refuses) can have any
    // block shape; it saturates instead of overflowing.
    int threadsPerBlock() const
    {
        const long long t = (long long)blockX * blockY;
        return t > INT_MAX ? INT_MAX : t < INT_MIN ? INT_MIN : int(t);
    }
    int staticSmemBytes = 0; // the kernel's __shared__ arrays, as the model computes them
};

const std::vector<StageInfo> &stages();           // the ladder, in order
const StageInfo *findStage(std::string_view key); // nullptr if unknown
const StageInfo &stageInfo(StageId id);
const std::vector<Preset> &presets(); // worklog steps 0-8, guide, baselines
const Preset *findPreset(std::string_view key);

ParamValues defaultParams(StageId id);

// The value of one parameter, or `fallback` when the set does not have it.
int paramValue(const ParamValues &params, std::string_view name, int fallback = 0);

// Human-readable reasons the configuration cannot run, empty when it can. Covers unknown or
// missing parameters, ranges, divisibility, threads per block, static shared memory (48 KiB)
// and problem sizes (>= 1, each matrix < 2^31 elements, checked without overflow for any
// 64-bit M, N, K). Defined for every input. Example:
// "BM (100) must be a multiple of TM x threads in y (4 x 16 = 64)".
std::vector<std::string> violations(StageId id, const ParamValues &params, const ProblemSize &size);

// Block and grid shape and static shared memory of a (valid) configuration. Defined (no division
// by zero, no overflow) for any input, but meaningful only where violations() is empty.
LaunchGeometry launchGeometry(StageId id, const ParamValues &params, const ProblemSize &size);

// NVRTC name expression of the kernel instantiation: "gemmscope::coalesced<64, 64, 8, 4, 4>".
std::string kernelNameExpression(StageId id, const ParamValues &params);

// "BM=64 BN=64 BK=8 TM=4 TN=4" — for tables and file names.
std::string formatParams(const ParamValues &params);

} // namespace gemmscope
