// From a catalog stage and its parameters to an NVRTC program, with the catalog's checks first:
// an invalid configuration is refused with the catalog's sentences before anything compiles.
#pragma once

#include "nvrtc_compiler.h"
#include "requests.h"
#include "stage_catalog.h"

#include <QString>
#include <optional>

namespace gemmscope::runner {

// The stage for a catalog key; RunnerError(invalid_config) naming the known keys otherwise. A
// request's `kernel` (a user's kernel, kernels/custom_stage.h) is registered first: refused with
// invalid_config when its text does not give `key` (customStageKey) or when it has problems (each
// at its line, as "my_gemm.cuh:12: ...").
const StageInfo &requireStage(const QString &key, const std::optional<protocol::KernelSource> &kernel = {});
// RunnerError(invalid_config) joining gemmscope::violations() when there are any, or when the
// architecture is older than the stage needs.
void requireValidConfig(const StageInfo &stage, const ParamValues &params, const ProblemSize &size, int arch);

// Which variant of a stage to build. Release is what every run measures. The other two exist so
// the GPU can check the mapping model against the real kernel:
//  - TraceOwner (-DGEMMSCOPE_TRACE_OWNER=1): the store of C writes the storing thread's index;
//  - ScalarShared (-DGEMMSCOPE_SCALAR_SHARED=1): the inner loop's shared-memory reads stay the
//    scalar 4-byte accesses the source writes (the release build lets the compiler merge them
//    into LDS.64/LDS.128), so hardware bank-conflict counters see the access model's accesses.
enum class StageBuild { Release, TraceOwner, ScalarShared };

// The build a request's "build" names ("release" or empty: the default, "scalar_shared"); throws
// RunnerError(invalid_config) for anything else.
StageBuild stageBuild(const QString &name);

// A custom stage compiles its own text (program name: its file name, so NVRTC says
// "my_gemm.cuh(12): error ...") with --no-source-include and the embedded headers alone; its
// text is checked by sourceProblems() first (RunnerError(invalid_config) with the sentences).
// `withLineInfo` adds -lineinfo (source lines in the PTX and SASS) and asks for the PTX: the
// machine code a `disassemble` job shows. The code is the same; the cache entry is its own.
// The transpose a stage with `transposedB` runs before it (gemmscope::transpose_b, transpose.cuh).
NvrtcProgram transposeProgram(int arch);

NvrtcProgram stageProgram(const StageInfo &stage, const ParamValues &params, int arch,
                          StageBuild build = StageBuild::Release, bool withLineInfo = false);

} // namespace gemmscope::runner
