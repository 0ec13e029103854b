// The `result` event of a `run` job (docs/protocol.md), built from what the job measured. Pure:
// no CUDA, so tests build one the way the job does and compare it with recorded results.
#pragma once

#include "events.h"
#include "kernel_timer.h"
#include "stage_catalog.h"

#include <QDateTime>
#include <cstdint>
#include <optional>

namespace gemmscope::runner {

// Everything a finished run knows about itself.
struct RunFacts {
    const StageInfo *stage = nullptr;
    ParamValues params;
    ProblemSize size;
    std::uint64_t seed = 1;
    protocol::GpuInfo gpu; // its identity: name, arch, uuid
    int smClockMhz = 0;    // the datasheet's clock (sm_clock_source "nominal")
    TimingStats stats;
    TimingOptions timing;
    std::optional<protocol::RunConditions> conditions; // empty where nothing was measured
    std::optional<protocol::BaselineResult> baseline;  // when the run asked for one
    protocol::VerifyResult verify;
    std::optional<protocol::CompiledInfo> compiled; // GemmScope's kernels; cuBLAS has none
    QString build;                                  // the request's; empty: "release"
    QString tf32Rounding;                           // TF32 stages: "rna" or "truncate"; else empty
    int maxBlocksPerSm = 0;                         // 0: not asked for
    int smemCarveout = -1;                          // -1: not asked for
    std::optional<protocol::Counters> counters;     // when the run asked for counters
    QDateTime finishedAt;
};

// Verification against cuBLAS that passed with `relError` under `tolerance`, or was skipped.
protocol::VerifyResult verifyPassed(double relError, double tolerance);
protocol::VerifyResult verifySkipped();

// The event without its id (JobContext::send adds it). A GemmScope kernel's result echoes its
// build and the launch settings asked for, so that a run says how it was launched.
protocol::ResultEvent resultEvent(const RunFacts &facts);

} // namespace gemmscope::runner
