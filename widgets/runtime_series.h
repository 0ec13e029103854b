// What the runtime chart plots, computed from runs without any widget: the ladder order, one
// slot per run with its value and p20-p80 whisker, the cuBLAS FP32 reference and the
// "speedup over naive" comparison with the worklog's published T4 progression.
// QtCore only, so the numbers are tested apart from the painting.
#pragma once

#include "run_record.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope {

enum class RuntimeValue { Milliseconds, Tflops };

// One x position of the runtime chart.
struct RuntimeSlot {
    RunRecord run;
    bool plotted = false; // false for failed or unfinished runs: never drawn as a time
    double value = 0;     // median in ms, or TFLOP/s at the median
    double low = 0;       // whisker ends, in the same unit: p20/p80 (ms) or FLOP/s at p80/p20
    double high = 0;
    QString label;   // tick label: preset or stage, and the run id
    QString failure; // for a run not plotted: "wrong result", "compile error", ...
};

// Ladder rank of a run: catalog stage order first, then preset order (runs without a preset after
// the presets of their stage). Unknown stages sort last.
int stageRank(const QString &stageKey);
int presetRank(const QString &presetKey);

// Stable sort of runs by ladder rank; runs of equal rank keep their time order.
QList<RunRecord> ladderOrdered(const QList<RunRecord> &runs);

// The run's throughput when it took `ms`: from the problem size, or scaled from its tflops field
// when the size is missing.
double tflopsAt(const RunRecord &run, double ms);

QList<RuntimeSlot> runtimeSlots(const QList<RunRecord> &runs, RuntimeValue mode);

// The latest successful cuBLAS FP32 run that is not a published (worklog) figure.
std::optional<RunRecord> cublasFp32Reference(const QList<RunRecord> &runs);

// One worklog step in the speedup comparison.
struct SpeedupRow {
    QString presetKey;                     // "worklog-3"
    QString label;                         // "step 3"
    QString title;                         // the preset's title
    double publishedSpeedup = 0;           // T4 ms(step 0) / T4 ms(step N), from the worklog
    std::optional<double> measuredSpeedup; // this GPU: ms(naive) / ms(step N) at the same size
    QString measuredRunId;
    QString note; // why there is no measured value
};

// Every preset with a published T4 time, in preset order. Measured speedups use the latest Ok
// non-worklog run of each preset and the latest Ok run of step 0 with the same problem size.
QList<SpeedupRow> speedupOverNaive(const QList<RunRecord> &runs);

// Human text for the protocol's error kinds: "wrong_result" -> "wrong result".
QString failureLabel(const RunRecord &run);

} // namespace gemmscope
