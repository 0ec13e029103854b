// gemmscope-bench --kernel FILE.cuh [--params BM=64,BN=32]: a user's kernel (docs/custom-kernels.md)
// read, parsed and registered as a custom stage, so that the bench measures it beside cuBLAS like
// a built-in stage (the run requests carry its source: app/protocol's encoder adds it).
#pragma once

#include "stage_catalog.h"

#include <QString>
#include <optional>

namespace gemmscope::bench {

struct KernelTarget {
    QString stage; // the registered custom stage's key ("user-...")
    QString title; // the block's title, or the file name
    ParamValues params;
    Precision precision = Precision::Fp32;
};

// The exit status of a kernel file that cannot be measured (unreadable, not a regular file, too
// large, or with problems in its text).
inline constexpr int kBadKernelExitCode = 2;

// The file at `path` read (a regular file of at most 1 MiB), parsed and registered. Otherwise
// empty with `error` set: one sentence naming the file, or one line per problem in it
// ("my_gemm.cuh:12: ...").
std::optional<KernelTarget> registerKernelFile(const QString &path, QString *error);

// --params "BM=64,BN=32" over the stage's defaults, checked by the catalog for `size`; a sentence
// in `error` for a malformed list, an unknown name or a configuration the catalog refuses.
std::optional<ParamValues> kernelParams(const StageInfo &stage, const QString &text, const ProblemSize &size,
                                        QString *error);

} // namespace gemmscope::bench
