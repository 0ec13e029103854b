// The stage catalog: every kernel stage of the matmul ladder, its parameters, presets and
// constraints. Plain C++20, no Qt, no CUDA: the GUI, the runner and the tests all read it.
//
// Notation is BLAS's throughout: C[M x N] = A[M x K] * B[K x N], row-major, reduce over K.
// (The worklog writes A as M x N and reduces over N; its benchmark is M=8192, N=4096, K=6144 here.)
#pragma once

#include "stage_types.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

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

// Global bytes a launch's loads request, as a stage's traffic hook computes them.
struct LoadTraffic {
    double loadBytes = 0;
    std::string formula;         // "block tile: BM*BN / (2 (BM + BN)) = 64*64 / (2 (64 + 64))"
    bool compulsoryOnly = false; // the tiling is unknown (cuBLAS): intensity is the compulsory one
};

// What the analytic models know about a stage, as functions of its parameters. Every hook is
// called only with parameters violations() accepts (ranges checked, all present). An empty hook
// means "not modelled yet": the models and views say so instead of drawing something untrue.
struct StageModel {
    // Block and grid of a launch. Required for a stage with a source.
    std::function<LaunchGeometry(const ParamValues &, const ProblemSize &)> launch{};
    // Bytes of the kernel's static __shared__ arrays. Required for a stage with a source (naive's
    // formula is 0): tst_stage_catalog fails for an entry without one, and tst_nvrtc_compile
    // compares it with ptxas for every preset.
    std::function<int(const ParamValues &)> staticSmem{};
    // Bytes of dynamic (extern __shared__) memory the launch passes; empty: none.
    std::function<int(const ParamValues &)> dynamicSmem{};
    // The stage's own constraints beyond its parameter ranges, as sentences a user understands
    // ("BM (100) must be a multiple of TM (12)"), appended to `out`.
    std::function<void(const ParamValues &, const ProblemSize &, std::vector<std::string> &out)>
        constraints{};
    // The thread-to-tile shape for the mapping and access models (KernelShape::stage is filled in
    // by kernelShape()). Empty: the mapping is not modelled yet. A shape whose loads are
    // TileLoadScheme::NotModelled draws the owners but no load or access diagrams.
    std::function<KernelShape(const ParamValues &)> mapping{};
    // Global load traffic of a launch for the roofline's predicted point. Empty: not modelled
    // yet (the roofline then places the run at its compulsory intensity and says so).
    std::function<LoadTraffic(const ParamValues &, const ProblemSize &, const LaunchGeometry &)> traffic{};
};

// The oldest architecture CUDA 13 builds for: its NVRTC refuses anything below sm_75 (Turing) with a
// compile error, and its cuBLAS dropped Maxwell, Pascal and Volta. No stage can claim less.
inline constexpr int kCuda13MinArch = 75;
inline constexpr const char *kCuda13MinArchReason =
    "CUDA 13's NVRTC and cuBLAS build for nothing older than Turing (sm_75)";

// The operands a TMA stage reads through tensor maps, which the runner encodes (128-byte swizzle,
// FP32, zero fill outside the matrix) and passes after the kernel's usual arguments: A (M x K) in
// boxes of boxK x <aBoxRowsParam> floats and BT (N x K, the stage is also `transposedB`) in boxes
// of boxK x <btBoxRowsParam>. boxK x 4 bytes is one 128-byte swizzle row.
// With `rowMajorB` the second map is B itself (K x N, as given): boxes of boxK rows of K x
// bBoxColumns floats of N (bBoxColumns x 4 bytes is one 128-byte swizzle row); btBoxRowsParam is
// then unused. With `aCopyRoundsParam` naming a parameter, a run that rounds its TF32 inputs gets
// A's map encoded as TF32 where that parameter is 0: the copy engine rounds A as it copies.
struct TensorMapOperands {
    std::string aBoxRowsParam;
    std::string btBoxRowsParam;
    int boxK = 32;
    bool rowMajorB = false;
    int bBoxColumns = 32;
    std::string aCopyRoundsParam{};
};

// A stage's catalog entry: everything the GUI, the runner, the models and the tests know about it.
// Adding a stage is its .cuh, one entry in buildStages() (kernels/stage_catalog.cpp), its
// preset(s) and its test rows: see CONTRIBUTING.md.
struct StageInfo {
    std::string key{};               // stable identifier used in JSON and on the command line: "coalesced"
    std::string title{};             // "Coalesced cooperative loads"
    std::string seedStep{};          // "worklog step 3" — what this stage reproduces
    std::string summary{};           // two sentences on what changed from the previous stage
    std::string sourceFile{};        // file under kernels/cuda/, e.g. "coalesced.cuh"; empty for cuBLAS
    std::string kernelName{};        // template name, e.g. "gemmscope::coalesced"; empty for cuBLAS
    std::vector<ParamSpec> params{}; // in template-argument order
    int minArch = kCuda13MinArch;    // smallest compute capability (major*10+minor) it runs on
    std::string minArchReason{};     // why, when the stage itself needs more: "cp.async arrived with sm_80"
    // Built for sm_<minArch>a (wgmma, setmaxnreg): architecture-specific code that runs on that
    // architecture alone, so newer GPUs are refused too (archViolation says so).
    bool archSpecific = false;
    // The kernel reads B transposed (BT, N x K row-major) in place of B: the runner runs
    // gemmscope::transpose_b (transpose.cuh) before it in every launch it times or verifies, so
    // the stage's time includes the transpose. For instructions that read only K-major operands.
    bool transposedB = false;
    // The kernel reads A and BT with TMA through tensor maps the runner builds (tma.cuh): its
    // parameters are (A, BT, C, M, N, K, mapA, mapBT), or (A, B, ..., mapA, mapB) with rowMajorB.
    std::optional<TensorMapOperands> tensorMaps{};
    // A TF32 stage that rounds its inputs to nearest TF32 itself, as it reads them: the runner runs
    // no rounding pre-pass and passes one more argument after the tensor maps, `int roundTf32`
    // (1, or 0 for a run that asks for truncated inputs).
    bool roundsTf32InKernel = false;
    // Persistent blocks: the launch model's grid counts output tiles, the runner launches at most
    // as many blocks as the GPU holds at once (SMs x resident blocks per SM) in x, and the kernel
    // walks the tiles itself (blockIdx.x, blockIdx.x + gridDim.x, ...).
    bool persistent = false;
    // The parameter (CLUSTER) whose value is the number of blocks, side by side in x, launched as
    // one thread-block cluster (sm_90): the persistent grid is then a whole number of clusters, and
    // A's tensor map box is BM / CLUSTER rows (each block copies its share into every block of the
    // cluster). Empty: no clusters.
    std::string clusterParam{};
    bool isLibrary = false; // cuBLAS baselines: no source, no NVRTC
    // A user's kernel (custom_stage.h): compiled from `sourceText` in place of `sourceFile`, which
    // then only names it for compiler messages and line maps.
    bool isCustom = false;
    std::string sourceText{};
    Precision precision = Precision::Fp32;
    // The stage whose source this one was written from, when it is not the one before it in the
    // ladder: the worklog built step 7 (strided) from step 6, the coalesced kernel without double
    // buffering. Empty: the previous stage with a source.
    std::string derivedFrom{};
    bool beyondSeeds = false;                  // past the worklog and the guide (float4, warp tiles, ...)
    std::string shortLabel{};                  // a few letters for crowded axes: "coal"
    std::uint32_t color = 0x8c564b;            // 0xRRGGBB, the stage's colour in every chart
    std::vector<std::string> compileOptions{}; // extra NVRTC options the stage needs
    StageModel model{};
    StageId id{key}; // derived from the key; never set it by hand
};

struct Preset {
    std::string key;   // "worklog-2"
    std::string title; // "Step 2: thread coarsening, 64x64 tiles"
    StageId stage;
    ParamValues params;
    std::string source;                // "worklog step 2" / "guide" / "baseline"
    std::optional<double> worklogT4Ms; // the worklog's published T4 runtime, where it has one
    // What this step does to its stage, where its stage's title alone would misname it: step 5a
    // runs the double-buffering kernel, but what the step changes is the tile size. Empty when the
    // stage's title says it.
    std::string change = {};
};

const std::vector<StageInfo> &stages();           // the ladder, in order
const StageInfo *findStage(std::string_view key); // nullptr if unknown
const StageInfo &stageInfo(StageId id);
const std::vector<Preset> &presets(); // worklog steps 0-8, guide, baselines
const Preset *findPreset(std::string_view key);

ParamValues defaultParams(StageId id);

// Human-readable reasons the configuration cannot run, empty when it can. Covers unknown or
// missing parameters, ranges, problem sizes (>= 1, each matrix < 2^31 elements), then the stage's
// own constraints (divisibility, ...), threads per block, static shared memory (48 KiB) and
// dynamic shared memory (227 KiB, the most any GPU gives a block). Defined for every input: sizes
// are checked in 64 bits before any product (2^32 x 2^32 x 2^32 is refused, never wrapped). Example:
// "BM (100) must be a multiple of TM (12): each thread owns TM rows of the block tile."
std::vector<std::string> violations(StageId id, const ParamValues &params, const ProblemSize &size);

// Block and grid shape, static and dynamic shared memory of a (valid) configuration. A stage
// without a launch model (cuBLAS) gives the default geometry of one thread. Defined for every
// input: parameters outside their ranges (a zero or missing tile from a damaged file) give an
// empty grid and no shared memory; the stage's hooks are never called with them.
LaunchGeometry launchGeometry(StageId id, const ParamValues &params, const ProblemSize &size);

// Every parameter of the stage present, known and within its range or choices: the condition the
// model hooks (StageModel) need before they may divide by a tile.
bool paramsInRange(StageId id, const ParamValues &params);

// Why the stage cannot be built for or run on compute capability `arch` (major*10+minor), as a
// sentence; empty when it can. Older than minArch (with the stage's own reason, or CUDA 13's
// floor), or, for an architecture-specific stage, any architecture but its own.
std::string archViolation(const StageInfo &stage, int arch);

// The NVRTC --gpu-architecture value for the stage on `arch`: "sm_90", or "sm_90a" for an
// architecture-specific stage.
std::string nvrtcArchitecture(const StageInfo &stage, int arch);

// NVRTC name expression of the kernel instantiation: "gemmscope::coalesced<64, 64, 8, 4, 4>".
std::string kernelNameExpression(StageId id, const ParamValues &params);

// "BM=64 BN=64 BK=8 TM=4 TN=4" — for tables and file names; names in the order the catalog's
// stages declare them (block tile before thread tile).
std::string formatParams(const ParamValues &params);

} // namespace gemmscope
