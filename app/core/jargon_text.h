// The sentences that explain the window's jargon ("p20–p80", "wavefront", "sector", "ridge",
// "FFMA", "pedantic SGEMM", "traffic model", "runner template", "worklog", "guide", "stage, preset,
// run", "not checked (no clock log)", "refused", "measured on ... (machine ...)", "% of cuBLAS FP32",
// "normal build", "burst, sustained"): one text
// for the glossary (Help > Glossary) and for the tooltip where the word is read, so that the two never say
// different things.
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <utility>

namespace gemmscope::jargon {

inline QString tr(const char *text)
{
    return QCoreApplication::translate("Glossary", text);
}

inline QString spread()
{
    return tr("The median is the middle of the timed samples; p20–p80 are the 20th and 80th percentiles "
              "around it (the runtime chart's whisker). A narrow whisker means the launches took nearly "
              "the same time.");
}

inline QString sector()
{
    return tr("Global memory moves in 32-byte sectors. A warp's load is one request; a fully coalesced "
              "4-byte load by 32 threads needs 4 sectors, a scattered one up to 32.");
}

inline QString wavefront()
{
    return tr("Shared memory has 32 banks, 4 bytes wide. A warp's access takes as many wavefronts (passes) "
              "as the most distinct addresses any one bank must serve; more than the ideal number is a "
              "bank conflict, and the access takes that many times longer.");
}

inline QString ridge()
{
    return tr("The intensity where a memory roof meets the compute roof: below it a kernel is limited by "
              "bandwidth, above it by arithmetic.");
}

inline QString ffma()
{
    return tr("SASS instruction classes: FFMA fused multiply-add (one per multiply-add of FP32 math, "
              "which the FP32 roof counts), LDG and STG global load and store, LDS and STS shared-memory "
              "load and store, BAR barrier (__syncthreads). A suffix gives the width: LDS.128 loads 16 "
              "bytes per thread.");
}

inline QString pedanticSgemm()
{
    return tr("cuBLAS's single-precision GEMM (SGEMM) in its pedantic math mode: plain FP32 "
              "multiply-adds, no TF32 tensor cores or other shortcuts. It is the reference every run's "
              "result is checked against, and the FP32 speed the ladder is compared with.");
}

// The build the Counters workspace names in its headline: the release build, said as what it is to
// a reader (a review found "release build" unexplained), against the scalar build.
inline QString normalBuild()
{
    return tr("Normal build (the release build): the kernel compiled as the ladder times it, the compiler "
              "free to merge a thread's neighbouring 4-byte shared-memory reads into one 8- or 16-byte read "
              "(LDS.64, LDS.128), which the access model does not describe. \"Shared reads as written\" (the "
              "scalar build) keeps them 4-byte, as the source writes them, so that the counters compare with "
              "the model; it runs slower.");
}

// The Measurement tab's choice of how a run is timed (protocol::TimingRegime), in its words.
inline QString regime()
{
    return tr("Timing regime. Burst: each run starts from an idle, cool GPU and timing stops when the clock "
              "drops: what one launch costs. Sustained: the kernel runs at load until the clock settles "
              "first: what a long GEMM workload sees, at the power cap if it reaches it (an H200 often at "
              "700 W). Ratios such as % of cuBLAS compare runs of one regime only.");
}

inline QString trafficModel()
{
    return tr("GemmScope's prediction, from a stage's code and tile sizes alone and without a GPU, of the "
              "bytes a kernel moves through DRAM, L2 and shared memory, and so of its arithmetic "
              "intensity. The hardware counters measure the same bytes on the GPU; the two side by side "
              "show where the caches helped.");
}

inline QString runnerTemplate()
{
    return tr("The command that starts each runner of a sweep (the Sweep views' Runners field): empty for "
              "this machine's gemmscope-runner, ssh HOST gemmscope-runner for another machine. With "
              "several runners {gpu} becomes 0, 1, 2, … one GPU each; it is started without a shell.");
}

inline QString worklog()
{
    return tr("A published write-up that speeds up an FP32 matrix multiply in CUDA step by step (steps 0 to "
              "8, from the naive kernel to __restrict__ and unrolled loops), with the time of each step "
              "measured by its author on an NVIDIA T4. GemmScope's ladder reproduces its steps as the "
              "stages 0–8 (5a, 5b and 8/BK8 its variants); its numbers read \"published (worklog)\" and "
              "were not measured here.");
}

inline QString guide()
{
    return tr("A second write-up, on shared-memory tiling with 32x32 tiles; its kernels are the stages G32 "
              "(32x32 tiles) and G32+1 (the B tile padded by one column against bank conflicts). It "
              "publishes no times.");
}

// The three words the window names its kernels with, defined together: how they relate is the point.
inline QString stagePresetRun()
{
    return tr("A stage is one rung of the ladder: one kernel source, shown as its code and name "
              "(\"3 — Coalesced cooperative loads\"). A preset is a stage with a named set of tile "
              "parameters: the worklog's, the guide's or a tuned one; its code is what the tables' Stage "
              "column and the charts print (\"3\", \"+tuned\"). A run is one preset, or parameters of "
              "your own, timed at one problem size on one GPU; its Median time is the middle of its timed "
              "samples. A parameter sweep times many parameter sets of one stage, one heatmap cell each.");
}

inline QString noClockLog()
{
    return tr("Not checked (no clock log): the run was recorded without the log of SM clock, power and "
              "noise that GemmScope keeps while it times a kernel (an older GemmScope or gemmscope-bench "
              "recorded it), so whether the GPU slowed down or the samples were noisy cannot be checked. "
              "Its time is shown; compare it with care.");
}

inline QString refused()
{
    return tr("Refused (by the stage's rules): the stage cannot run these parameters at this size — a tile "
              "that does not divide the problem, more shared memory or threads than a block may have — so "
              "it is never compiled or run. GemmScope's stage catalog holds each stage's rules; hover the "
              "cell or point for the one that refused it.");
}

inline QString measuredOnHost()
{
    return tr("Where a sweep was measured: the GPU, the name of the machine its runner ran on (its host "
              "name, \"vm\" say, whatever the machine is called), and when, in UTC. A sweep spread over "
              "several machines names each.");
}

inline QString percentOfCublasFp32()
{
    return tr("The run's speed as a percentage of cuBLAS FP32's (its pedantic SGEMM, plain FP32 "
              "multiply-adds) at the same problem size on the same GPU, timed in the same sweep: 90 % "
              "means 90 % of cuBLAS's speed.");
}

// The tooltip for a text that may use the words above (a stage's summary): what each one it uses
// means, one paragraph each (plain text); empty when it uses none.
inline QString explainedWords(const QString &text)
{
    const std::pair<QString, QString (*)()> words[] = {{QStringLiteral("p20–p80"), spread},
                                                       {QStringLiteral("sector"), sector},
                                                       {QStringLiteral("wavefront"), wavefront},
                                                       {QStringLiteral("ridge"), ridge},
                                                       {QStringLiteral("FFMA"), ffma},
                                                       {QStringLiteral("pedantic SGEMM"), pedanticSgemm},
                                                       {QStringLiteral("cuBLAS FP32 (reference)"), pedanticSgemm},
                                                       {QStringLiteral("normal build"), normalBuild},
                                                       {QStringLiteral("traffic model"), trafficModel},
                                                       {QStringLiteral("runner template"), runnerTemplate}};
    QStringList meanings;
    QList<QString (*)()> said; // two names of one thing ("cuBLAS FP32 (reference)", its "pedantic SGEMM"): once
    for (const auto &[word, meaning] : words)
        if (text.contains(word, Qt::CaseInsensitive) && !said.contains(meaning)) {
            said << meaning;
            meanings << QStringLiteral("%1: %2").arg(word, meaning());
        }
    return meanings.join(QStringLiteral("\n\n"));
}

} // namespace gemmscope::jargon

namespace gemmscope::jargon {

// Why a run's measured DRAM intensity can sit above its model's, and an early stage's above a later
// one's (the H100's naive kernel measured 16.8 FLOP/B, the shared-memory tiled one after it 8.0):
// the roofline's tooltips say it where it happens.
inline QString measuredIntensityCountsDram()
{
    return tr("Measured AI counts only the bytes that reach DRAM: L2 catches reuse the model counts as "
              "DRAM traffic (much of the naive kernel's), so a run can measure above its model, and an "
              "early stage above a later one.");
}

} // namespace gemmscope::jargon
