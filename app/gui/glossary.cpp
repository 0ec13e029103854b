#include "glossary.h"

#include "jargon_text.h"
#include "stall_reasons.h"

#include <QCoreApplication>
#include <algorithm>

namespace gemmscope {

namespace {

QString glossaryTr(const char *text)
{
    return QCoreApplication::translate("Glossary", text);
}

QList<GlossaryEntry> entries()
{
    QList<GlossaryEntry> list{
        {glossaryTr("AI (arithmetic intensity)"),
         glossaryTr(
             "FLOPs done per byte moved. On the roofline, per byte of DRAM traffic unless the L2 or "
             "L1/shared "
             "roof is chosen. The model's AI counts the bytes the traffic model predicts; the measured AI "
             "divides by the bytes the hardware counters saw."),
         glossaryTr("Ladder: roofline")},
        {glossaryTr("Above a roof"),
         glossaryTr(
             "With \"Traffic model\" ticked, a run drawn at the model's AI can sit above the DRAM roof when "
             "the caches served bytes the model counted as DRAM traffic: the caches helped. At its measured "
             "AI (the diamond) no run can be above its roof."),
         glossaryTr("Ladder: roofline, \"Traffic model\"")},
        {glossaryTr("Ridge"), jargon::ridge(), glossaryTr("Ladder: roofline")},
        {glossaryTr("Traffic model"), jargon::trafficModel(),
         glossaryTr("Ladder: roofline, \"Traffic model\"; Kernel; Counters")},
        {glossaryTr("cuBLAS FP32 (reference), pedantic SGEMM"), jargon::pedanticSgemm(),
         glossaryTr("Ladder: the cuBLAS FP32 row, bar and point; the results' Rel. error; parameter panel: "
                    "the stage's description")},
        {glossaryTr("Normal build, shared reads as written (release, scalar build)"), jargon::normalBuild(),
         glossaryTr("Counters: Measured vs model, its heading; Kernel: Bank conflicts; parameter panel: "
                    "Measurement")},
        {glossaryTr("Runner template (Runners)"), jargon::runnerTemplate(),
         glossaryTr("Sweep: Runners; gemmscope-bench --sweep")},
        {glossaryTr("Median, p20–p80"), jargon::spread(), glossaryTr("Ladder: runtime chart, results table")},
        {glossaryTr("% of cuBLAS"),
         glossaryTr("cuBLAS's time over the run's time on the same GPU at the same size: 90 % means 90 % of "
                    "cuBLAS's speed. Compared only within one regime (burst or sustained)."),
         glossaryTr("Ladder: results table; gemmscope-bench")},
        // The two documents the ladder comes from, one entry each: the Origin column's tooltip and the
        // runtime chart's legend use their words (issue 38).
        {glossaryTr("Worklog, T4, published"), jargon::worklog(),
         glossaryTr("Ladder: results table (Origin), runtime chart and its speedup view; parameter panel "
                    "presets")},
        {glossaryTr("Guide (G32, G32+1)"), jargon::guide(),
         glossaryTr("Ladder: runtime chart legend, results table (Stage); parameter panel presets")},
        {glossaryTr("Not checked (no clock log)"), jargon::noClockLog(),
         glossaryTr("Ladder: results table (Trust)")},
        {glossaryTr("Refused (by the stage's rules)"), jargon::refused(),
         glossaryTr("Sweep: heatmap cells, Problem sizes points")},
        {glossaryTr("Measured on GPU (machine \"name\")"), jargon::measuredOnHost(),
         glossaryTr("Sweep: the line under the heatmap, the best cell")},
        {glossaryTr("% of cuBLAS FP32 (Sweep)"), jargon::percentOfCublasFp32(),
         glossaryTr("Sweep: Colour by, the heatmap's colour scale, the best cell")},
        {glossaryTr("Stage, preset, run"), jargon::stagePresetRun(),
         glossaryTr("Parameter panel (Stage, Preset); results table (Stage, Stage name); every chart")},
        {glossaryTr("Stage codes"),
         glossaryTr(
             "The presets' codes, in the charts and the tables' Stage column: 0-8 the worklog's stages "
             "(it calls them steps; 5a/5b and 8/BK8 its variants), G32 the guide's, +vec4, +warp, +pipe, "
             "+tuned, +async the FP32 stages beyond the worklog, +mma, +wgmma, +tma the tensor-core "
             "stages, cuBLAS and TF32 the two cuBLAS baselines."),
         glossaryTr("Ladder: charts and table")},
        {glossaryTr("Sector, sectors per request"), jargon::sector(),
         glossaryTr("Kernel: Coalescing; Counters")},
        {glossaryTr("Bank, wavefront, bank conflict"), jargon::wavefront(),
         glossaryTr("Kernel: Banks; Counters")},
        {glossaryTr("Swizzle"),
         glossaryTr(
             "A permutation of a shared tile's columns (XOR of the column with the row) that spreads a "
             "column's reads over all banks without padding."),
         glossaryTr("Kernel: Banks; parameter panel")},
        {glossaryTr("SASS, PTX, CUBIN"),
         glossaryTr(
             "PTX is the virtual instruction set NVRTC compiles CUDA to; SASS is the GPU's own machine code "
             "that ptxas makes of it, stored in a CUBIN. The SASS tab shows SASS where nvdisasm is "
             "installed, else the PTX (the compiler may still merge or reorder its instructions)."),
         glossaryTr("Kernel: SASS / PTX tab")},
        {glossaryTr("FFMA, LDG, STG, LDS, STS, BAR"), jargon::ffma(),
         glossaryTr("Kernel: SASS tab; Counters")},
        {glossaryTr("HMMA, HGMMA, mma.sync, wgmma"),
         glossaryTr(
             "Tensor-core matrix instructions: mma.sync (SASS HMMA) is issued by one warp; wgmma (SASS "
             "HGMMA) by a warpgroup of four warps on Hopper, reading B (and here A) from shared memory."),
         glossaryTr("Kernel; Why not cuBLAS?")},
        {glossaryTr("TMA, cp.async"),
         glossaryTr(
             "Ways to copy global memory into shared memory without passing through registers: cp.async per "
             "thread (Ampere and later), the Tensor Memory Accelerator a whole tile per instruction "
             "(Hopper)."),
         glossaryTr("Kernel; stage list")},
        {glossaryTr("TF32, rounded, truncated"),
         glossaryTr(
             "TensorFloat-32 keeps 10 of FP32's 23 mantissa bits. Rounded: the inputs are rounded to nearest "
             "TF32 first, as cuBLAS does; truncated: the tensor core drops the low bits (a larger error)."),
         glossaryTr("parameter panel; results")},
        {glossaryTr("Occupancy, limiter"),
         glossaryTr(
             "Warps resident on an SM against the most it can hold, and what stops more blocks fitting, "
             "said as \"limited by\" it: registers, shared memory, threads or the block limit."),
         glossaryTr("Ladder: table; compile report")},
        {glossaryTr("Blocks per SM, L1 / shared (carve-out)"),
         glossaryTr(
             "Blocks per SM caps how many blocks share an SM (by giving each unused shared memory). The "
             "carve-out is the share of the SM's L1/shared memory the kernel prefers as shared memory; "
             "the driver decides."),
         glossaryTr("parameter panel: Measurement")},
        {glossaryTr("SM clock, boost, throttled"),
         glossaryTr(
             "The clock the SMs counted while the run was timed. A cool, idle GPU runs at its boost clock; "
             "at the power cap or when hot it lowers it. Samples taken below the threshold (90 % of the "
             "starting clock) are left out and counted as throttled."),
         glossaryTr("Ladder: table (SM clock, Trust)")},
        {glossaryTr("Burst, sustained (Timing)"), jargon::regime(),
         glossaryTr("parameter panel: Measurement, Timing; results")},
        {glossaryTr("Noise, Trust"),
         glossaryTr(
             "Noise is the samples' standard deviation over their mean. Trust reads steady (noise at or "
             "under the target), noisy (above it) or throttled (samples left out). Runs measured before "
             "GemmScope logged clocks, power and noise read \"not checked (no clock log)\"; the worklog's "
             "published T4 rows have no trust mark."),
         glossaryTr("Ladder: table, charts")},
        {glossaryTr("CUPTI"),
         glossaryTr("NVIDIA's profiling interface: the runner reads hardware counters (bytes, requests, "
                    "wavefronts) and samples where warps stall with it."),
         glossaryTr("Counters; Profile (Ctrl+P)")},
        {glossaryTr("Stall reason"),
         glossaryTr(
             "Why a sampled warp could not issue an instruction (waiting on memory, a barrier, a busy "
             "pipe…). Every profile view names a reason by the same short name, listed below as \"Stall "
             "reason: <name>\"; its tooltip adds CUPTI's counter and Nsight Compute's name."),
         glossaryTr("Kernel: Source and SASS heat; Why not cuBLAS?")},
        {glossaryTr("Auto (GPU)"),
         glossaryTr(
             "Whose roofs the roofline draws: Auto uses the ceilings measured on this GPU, else the "
             "datasheet of the GPU the latest run ran on, and names that GPU; another GPU's datasheet can "
             "be chosen."),
         glossaryTr("Ladder: roofline toolbar")},
    };
    // One entry per stall reason, in the words the gutters, legend and tables print (one table:
    // stall_reasons.h), with CUPTI's and Nsight Compute's names for a reader who knows those.
    for (const QString &key : knownStallReasonKeys()) {
        const StallReason r = stallReason(key);
        list.append(
            {glossaryTr("Stall reason: %1").arg(r.name),
             glossaryTr("%1 CUPTI: %2; Nsight Compute: %3.").arg(r.sentence, r.cuptiName(), r.nsightName),
             glossaryTr("Profile views: Source and SASS gutters, stall legend, hot lines, Why not cuBLAS?")});
    }
    std::sort(list.begin(), list.end(), [](const GlossaryEntry &a, const GlossaryEntry &b) {
        return QString::compare(a.term, b.term, Qt::CaseInsensitive) < 0;
    });
    return list;
}

} // namespace

const QList<GlossaryEntry> &glossary()
{
    static const QList<GlossaryEntry> list = entries();
    return list;
}

QString glossaryHtml()
{
    QString rows;
    for (const GlossaryEntry &e : glossary())
        rows += QStringLiteral("<tr><td style='padding:4px 16px 4px 0' valign='top'><b>%1</b></td>"
                               "<td style='padding:4px 0'>%2<br/><i>%3</i></td></tr>")
                    .arg(e.term.toHtmlEscaped(), e.meaning.toHtmlEscaped(), e.where.toHtmlEscaped());
    return QStringLiteral("<h3>%1</h3><table>%2</table>").arg(glossaryTr("Glossary"), rows);
}

} // namespace gemmscope
