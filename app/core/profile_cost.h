// "Why not cuBLAS?" ranked by what each difference is estimated to cost in time, from the counters
// of two profiles of the same size on the same GPU (a candidate and its cuBLAS baseline).
//
// The model (docs/why-model.md says the same for users; every term is an estimate):
//  - The bound unit is the baseline's busiest of the issue slots (sm__inst_issued), the FMA pipe
//    and the tensor pipe: the unit cuBLAS keeps near its peak, so the one that sets the time.
//    Each kernel's time T splits into the unit's busy part T * b and its idle part T * (1 - b).
//  - Busy term: Tc * bc - Tb * bb. Issue-bound, one warp instruction per busy issue cycle, so it is
//    the time spent issuing the instructions the candidate executes beyond cuBLAS's ("executes
//    1.3x the warp instructions"). Pipe-bound, the same GEMM puts the same work on the pipe, so
//    it is near zero and left out of the ranking.
//  - Idle term: Tc * (1 - bc) - Tb * (1 - bb), the time the unit waits more than cuBLAS's. It is
//    split by stall reason: each kernel's idle time is shared among its stall reasons in
//    proportion to their PC samples (every reason but "issuing" and "ready", which are not
//    waits), and a reason's term is the candidate's share minus the baseline's. Assumption: the
//    samples taken while the unit idles have the same mix as all samples. The "i-cache miss"
//    (no_instructions) term is one of these.
//  - Bank-conflict term: the shared-memory wavefronts beyond the ideal (Memory per instruction's
//    excess), at one wavefront per SM per cycle (the shared-memory pipe's rate), over the SMs of
//    the GPU at the measured SM clock; less the baseline's own excess, in proportion. This is the
//    time the pipe spends on them: the kernel's time only where the pipe is on the critical path,
//    so an upper bound where the math hides it.
//  - The terms overlap (a bank conflict also shows as "shared load" and "shared queue" samples):
//    they rank what to change first and never add up to the difference in time.
//  - Throughputs as % of peak (L2, DRAM) are no term: a throughput far below its peak limits
//    nothing, so it is never the headline.
// Times are the profiles' gpu__time_duration.sum; without both, the baseline is taken to run as
// long as the candidate, and the terms are shares of the candidate's time.
#pragma once

#include "profile_memory.h"
#include "profile_values.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope {

// Idle: the idle term whole, where the samples cannot split it (either kernel has no wait sampled).
enum class CostKind { Instructions, Stall, BankConflicts, Idle };

struct CostTerm {
    CostKind kind = CostKind::Stall;
    QString key;      // "stall:no_instructions", "bank:store:A tile", "instructions", "idle"
    QString name;     // "i-cache miss", "shared-store bank conflicts (A tile)", "extra instructions"
    double ms = 0;    // estimated time it costs the candidate (negative: the candidate is ahead)
    double share = 0; // of the candidate's time
    QString measured; // what the counters say, "5.8 % of samples against 0.7 %"
    QString where;    // the source line(s) it comes from, "pipelined.cuh:73-76"; empty: none
    QString remedy;   // what would change it, a clause
};

struct CostRanking {
    QList<CostTerm> terms; // every estimated term, the largest cost first
    QString boundUnit;     // "issue slots", "FMA pipe", "tensor pipe"; empty: no unit measured
    std::optional<double> candidateBusy, baselineBusy; // the bound unit's busy share, [0, 1]
    double idleMs = 0;                                 // the idle term, which the stall terms split
    bool timesMeasured = false; // false: both times taken as the candidate's (shares only)
    double candidateMs = 0, baselineMs = 0;
    QString headline; // the sentence naming the top term, where it comes from, and what changes it
    QString
        notes; // what could not be costed and why ("The shared-memory bank conflicts are not costed: ...")
    bool hasCost() const { return !terms.isEmpty() && terms.first().ms > 0; }
};

// The ranking for `candidate` against `baseline` (names as the sentence writes them).
CostRanking rankCosts(const protocol::ProfileEvent &candidate, const protocol::ProfileEvent &baseline,
                      const QString &candidateName, const QString &baselineName);

// "0.37 ms", "30 µs": a duration at a precision that reads.
QString durationText(double ms);

// The SMs of the GPU a profile ran on: the known part its name names ("NVIDIA H200" -> 132), else
// the newest known part of its architecture; nothing where neither is known.
std::optional<int> smCountOf(const protocol::GpuInfo &gpu, const QString &arch);

} // namespace gemmscope
