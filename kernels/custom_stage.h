// A user's kernel as a stage made of data: its source text (one .cuh) carries a parameter block
// that names the kernel template, its precision, its tunable parameters, their constraints and
// its launch shape as integer expressions. parseCustomStage() turns that text into a StageInfo
// whose model hooks evaluate those expressions, so the catalog checks, the runner's compile and
// launch path, the views and the session treat it as they treat a built-in stage.
// Plain C++20, no Qt, no CUDA: the GUI, the runner and the tests all parse the same way.
//
// The block (docs/custom-kernels.md is the user's reference):
//
//   /* gemmscope:kernel
//   name      gemmscope::my_gemm            the __global__ template, qualified
//   title     My tiled kernel               optional, shown in tables and charts
//   precision fp32                          fp32 or tf32: the verification threshold
//   param BM  16..256 step 16 default 64    a range (step optional, default 1) ...
//   param TM  {4, 8} default 8              ... or a list of choices
//   require   BM % TM == 0                  a constraint; refuses a configuration before compiling
//   block     BN / TN, BM / TM              threads per block in x, y (y optional: 1)
//   grid      ceil_div(N, BN), ceil_div(M, BM)
//   shared    4 * (BM * BK + BK * BN)       static __shared__ bytes (optional; ptxas tells after compiling)
//   dynamic_shared 0                        extern __shared__ bytes the launch passes (optional)
//   */
//
// Template arguments are the parameters in the block's order; the kernel's arguments are those of
// every built-in stage: (const float *A, const float *B, float *C, int M, int N, int K).
// Expressions are integer (64-bit, overflow is an error): + - * / % ( ), comparisons, && || !,
// min(a, b), max(a, b), ceil_div(a, b); names are the parameters and M, N, K.
#pragma once

#include "stage_catalog.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

// Limits that keep a hostile or damaged source from costing more than a sentence.
inline constexpr std::size_t kMaxKernelSourceBytes = 1u << 20; // 1 MiB
inline constexpr int kMaxCustomParams = 16;
inline constexpr std::size_t kMaxExpressionLength = 512;
inline constexpr int kMaxExpressionDepth = 64;

// A problem in a kernel's source, at its 1-based line (0: the whole text), as a sentence.
struct SourceProblem {
    int line = 0;
    std::string message;
    friend bool operator==(const SourceProblem &, const SourceProblem &) = default;
};

struct CustomKernelSource {
    std::string text;        // the .cuh, parameter block included
    std::string fileName;    // what the user calls it ("my_gemm.cuh"); programs and line maps use it
    std::string derivedFrom; // catalog key of the stage it was copied from; empty for a blank kernel
};

struct CustomStageParse {
    std::optional<StageInfo> stage;      // set exactly when `problems` is empty
    std::vector<SourceProblem> problems; // every problem found, in line order
};

// The problems as a compiler writes them, one a line: "my_gemm.cuh:12: The parameter BM ...".
std::string describeSourceProblems(std::string_view fileName, const std::vector<SourceProblem> &problems);

// The stable key of a kernel's text: "user-" and 16 hex digits of a 64-bit hash of the text.
// The same text gives the same key in every process; any edit gives another.
std::string customStageKey(std::string_view text);
bool isCustomStageKey(std::string_view key);

// The source checks that need no parameter block: size (kMaxKernelSourceBytes), binary content
// (NUL bytes, invalid UTF-8) and includes. An #include may name only the project's headers
// (embeddedKernelSources()) in quotes; any other path, an <...> include or a macro include is a
// problem at its line that names it.
std::vector<SourceProblem> sourceProblems(std::string_view text);

// The whole text checked and, when it is sound, turned into a StageInfo: key customStageKey(),
// isCustom, sourceText, kernelName, params, precision, derivedFrom and model hooks (launch,
// staticSmem, dynamicSmem, constraints; no mapping or traffic model). Never throws; bounded time
// and memory for any input.
CustomStageParse parseCustomStage(const CustomKernelSource &source);

// Adds a parsed custom stage to the catalog so that findStage(), stageInfo(), violations() and
// launchGeometry() know its key from then on, in every thread. Idempotent: registering a key that
// is there returns the entry already registered. Entries are never removed or moved, so the
// reference stays valid for the life of the process. A stage whose key is not a custom key is
// registered under customStageKey(sourceText), so it can never shadow a built-in stage.
const StageInfo &registerCustomStage(StageInfo stage);
// The registered custom stage of that key, or nullptr (findStage() asks this for custom keys).
const StageInfo *findCustomStage(std::string_view key);
// Parses and registers in one step; the problems when the text is not sound.
CustomStageParse registerCustomKernel(const CustomKernelSource &source);

// The custom stages registered so far, in registration order.
std::vector<const StageInfo *> customStages();

} // namespace gemmscope
