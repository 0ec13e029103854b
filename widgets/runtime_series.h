// What the runtime chart plots, computed from runs without any widget: the ladder order, one
// slot per run with its value and p20-p80 whisker, the cuBLAS FP32 reference and the
// "speedup over naive" comparison with the worklog's published T4 progression.
// QtCore only, so the numbers are tested apart from the painting.
#pragma once

#include "run_record.h"
#include "stage_names.h" // shortRunLabel, shortPresetLabel: a run's tick-sized name

#include <QList>
#include <QString>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace gemmscope {

enum class RuntimeValue { Milliseconds, Tflops };

// Which GPU and problem size a run belongs to. Runs of different groups are not comparable on one
// linear axis (the published T4 times are 50x the H200's), so the chart shows one group at a time.
struct RunGroup {
    QString gpu;                   // "NVIDIA H200", "NVIDIA T4 (published)"; empty: unknown
    long long m = 0, n = 0, k = 0; // 0: unknown
    QString key() const;           // stable identifier for a combo box: "NVIDIA H200|8192x4096x6144"
    QString label() const;         // "NVIDIA H200, 8192 x 4096 x 6144"
    // By the fields, not by key(): runGroups compares each run's group with the groups found so
    // far, and formatting two keys a comparison was a seventh of showing a 100,000-run session.
    bool operator==(const RunGroup &other) const
    {
        return m == other.m && n == other.n && k == other.k && gpu == other.gpu;
    }
};

// One x position of the runtime chart.
struct RuntimeSlot {
    // The run drawn: a record of the list the slot was made from, which the slot's holder keeps
    // while it draws (the chart holds the session's runs, and points its slots at them again after
    // each change). Not a copy: a 100,000-run session's copies were 120 MB and a fifth of the time
    // the window stood still to show it.
    const RunRecord *run = nullptr;
    qsizetype at = -1; // the run's index in that list
    // What the chart asks of a run that has left the list, where `run` points elsewhere.
    QString runId;
    RunGroup group;
    bool published = false; // a worklog figure
    StageId stage;
    std::pair<int, int> rank; // ladderRank of the run when the slot was made
    bool plotted = false;     // false for failed or unfinished runs: never drawn as a time
    double value = 0;         // median in ms, or TFLOP/s at the median
    double low = 0;           // whisker ends, in the same unit: p20/p80 (ms) or FLOP/s at p80/p20
    double high = 0;
    QString label;   // tick label: preset or stage, and the run id
    QString failure; // for a run not plotted: "wrong result", "compile error", ...
};

// A stage's rank: catalog order, the TF32 stages moved beside cuBLAS TF32 (after cuBLAS FP32).
// Unknown stages sort last. A preset's rank: its place in the catalog's presets.
int stageRank(const QString &stageKey);
int presetRank(const QString &presetKey);

// Stable sort of runs by ladder rank; runs of equal rank keep their time order.
QList<RunRecord> ladderOrdered(const QList<RunRecord> &runs);
// The same order as indices into `runs`, copying no record.
std::vector<qsizetype> ladderOrder(const QList<RunRecord> &runs);
// A run's place on the ladder, as ladderOrdered sorts. Within each group of stages (CUDA cores,
// cuBLAS FP32, tensor cores, cuBLAS TF32) the worklog's steps come in the worklog's order (step 6,
// which runs the step-3 kernel on 192x192 tiles, after 5b); every other run follows the last step
// of its stage (or of the stages before it in the catalog), in catalog order: the guide's variants
// after step 1, a stage's own settings after its presets, the stages past the worklog after step 8.
std::pair<int, int> ladderRank(const RunRecord &run);

// The run's throughput when it took `ms`: from the problem size, or scaled from its tflops field
// when the size is missing.
double tflopsAt(const RunRecord &run, double ms);

// The slots of `runs` in ladder order (those `plotted` keeps, where given). They point into `runs`,
// which must outlive them: a temporary list is refused at compile time.
QList<RuntimeSlot> runtimeSlots(const QList<RunRecord> &runs, RuntimeValue mode,
                                const std::function<bool(const RunRecord &)> &plotted = {});
QList<RuntimeSlot> runtimeSlots(QList<RunRecord> &&runs, RuntimeValue mode,
                                const std::function<bool(const RunRecord &)> &plotted = {}) = delete;
// One run's slot, the same way; `at` is its index in the list `run` belongs to.
RuntimeSlot runtimeSlotOf(const RunRecord &run, RuntimeValue mode, qsizetype at = -1);
RuntimeSlot runtimeSlotOf(RunRecord &&run, RuntimeValue mode, qsizetype at = -1) = delete;
RuntimeSlot runtimeSlotOf(const RunRecord &run, RuntimeValue mode, qsizetype at, std::pair<int, int> rank);

// The latest successful cuBLAS FP32 run that is not a published (worklog) figure.
std::optional<RunRecord> cublasFp32Reference(const QList<RunRecord> &runs);
// The same for cuBLAS TF32: what the tensor-core stages are measured against.
std::optional<RunRecord> cublasTf32Reference(const QList<RunRecord> &runs);

// One worklog step in the speedup comparison.
struct SpeedupRow {
    QString presetKey;                     // "worklog-3"
    QString label;                         // "3", the code the tables and charts print
    QString title;                         // presetTitle: "3 — Coalesced cooperative loads"
    double publishedSpeedup = 0;           // T4 ms(step 0) / T4 ms(step N), from the worklog
    std::optional<double> measuredSpeedup; // this GPU: ms(naive) / ms(step N) at the same size
    QString measuredRunId;
    QString note; // why there is no measured value
};

// Every preset with a published T4 time, in preset order. Measured speedups use the latest Ok
// non-worklog run of each preset and the latest Ok run of step 0 with the same problem size.
QList<SpeedupRow> speedupOverNaive(const QList<RunRecord> &runs);

RunGroup runGroupOf(const RunRecord &run);
// A run belongs to a group when every field it knows matches (a run without a size or GPU, such as
// one that failed before it ran, belongs to every group).
bool inGroup(const RunRecord &run, const RunGroup &group);
// The distinct groups of runs that know both their GPU and their size, in order of appearance.
QList<RunGroup> runGroups(const QList<RunRecord> &runs);
// The group of the latest run measured here (not a published figure); else of the latest run.
std::optional<RunGroup> latestGroup(const QList<RunRecord> &runs);
QList<RunRecord> runsInGroup(const QList<RunRecord> &runs, const RunGroup &group);

// Where a stage sits on the ladder, for the charts' grouped legends: the worklog's steps (and the
// guide's variants of them), the stages past the worklog on CUDA cores, the tensor-core stages,
// the cuBLAS baselines. Unknown stages count as past the worklog.
enum class LadderGroup { WorklogSteps, BeyondWorklog, TensorCores, Baselines };
LadderGroup ladderGroupOf(const QString &stageKey);
QString ladderGroupName(LadderGroup group); // "stages 0–8 (worklog), G32 (guide)", "+ beyond the worklog", ...

// Human text for the protocol's error kinds: "wrong_result" -> "wrong result".
QString failureLabel(const RunRecord &run);

} // namespace gemmscope
