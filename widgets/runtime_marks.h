// What the runtime chart draws beside its bars, free of QCustomPlot: each row's name on the key axis
// (and how many rows are named where they are thinner than a label), the value beside each named
// row, the legend's inputs, the value axis' scale and range, which row a point of the plot is over
// and what its tooltip says. RuntimeChart draws what these say.
#pragma once

#include "runtime_scene.h"
#include "runtime_series.h"
#include "runtime_slot_rows.h"

#include <QFontMetrics>
#include <QList>
#include <QString>
#include <optional>

namespace gemmscope::runtime_scene {

// Values spread wider than this are unreadable on a linear axis (the T4's 956 ms beside cuBLAS at
// 0.4 ms): the scale turns logarithmic unless the user chose one.
inline constexpr double kLogSpan = 20;
// Beyond this many bars a label (and a failure mark) per bar is unreadable and, in a 50,000-run
// session, took most of a minute to lay out and draw: every stride-th bar is labelled instead.
inline constexpr int kMaxLabelledBars = 400;
// A point of the plot this far (in rows) from a row's centre is over no row.
inline constexpr double kRowHitHalfHeight = 0.45;

// A row's name with its stage's, as stage_names.h joins them ("5a — Coalesced ..."); a library's own title
// where its short name says the same ("cuBLAS FP32 (pedantic SGEMM)").
QString longLabel(const RuntimeSlot &slot);
// Every n-th row is named where rows (rowPx high) are lower than a label (labelPx), and never more
// than kMaxLabelledBars names.
int tickStride(qsizetype rows, double rowPx, int labelPx);
// The room the key axis' names may take of the width they share with the bars (a legend beside them
// apart): 45 %, the bars and their values keep the rest. The full ladder's longest name,
// "+tma — Tensor cores: Hopper wgmma fed by TMA", is ~280 px at 8 pt: whole in a 620 px plot.
int keyNameBudget(int widthPx);
// Fewer letters of a stage's name than this beside its code say nothing ("5a — D…"): codes alone.
inline constexpr int kMinNameLetters = 6;
// A row's name on the key axis within `budgetPx`: its long name where it fits, else that name cut
// short with "…" ("+pad — Register prefetch, padde…"); empty where the code and kMinNameLetters of
// the name do not fit (the chart then names every row by its code; the tooltip has the rest).
QString fittedName(const QString &code, const QString &longName, int budgetPx, const QFontMetrics &metrics);

// Whether each run with no time gets a mark on its row: not beyond kMaxLabelledBars rows (the table
// lists the failures of a session of thousands).
bool failuresMarked(qsizetype rows);
// A run with no time marked on its row, at the start of the value axis.
struct FailureMark {
    int row = 0;
    QString text;          // "✕ wrong result: no time"
    QString runId;         // the run a click on it selects
    bool selected = false; // the selected run's: framed
    friend bool operator==(const FailureMark &, const FailureMark &) = default;
};
// One mark a row with no time, top row first, where failures are marked (failuresMarked); none
// where they are not. `selectedRow`: the selected run's row, -1 for none.
QList<FailureMark> failureMarks(const RuntimeSlotRows &rows, int selectedRow);

// A value written beside a bar: at the end of its bar or whisker, whichever reaches farther.
struct ValueLabel {
    int row = 0;
    double end = 0;
    QString text; // "2.69 ms", with the mark of a run not comparable with a steady burst
    friend bool operator==(const ValueLabel &, const ValueLabel &) = default;
};
// One beside every named row with a time (a value beside no name would be read as the named row's).
QList<ValueLabel> valueLabels(const RuntimeSlotRows &rows, int tickStride, RuntimeValue mode);

// What the legend explains, from the rows drawn: `failuresMarked` where each failure has its mark,
// `selectionShown` where the selected run's frame is drawn.
LegendInputs legendInputs(const RuntimeSlotRows &rows, const QString &referenceText, bool failuresMarked,
                          bool selectionShown);

// The value axis: logarithmic where the plotted values spread more than kLogSpan; it spans every bar,
// whisker and the reference, and ends where the longest bar's label (widestLabelPx) ends.
bool wantsLogScale(const RuntimeSlotRows &rows);
struct ValueExtent {
    double lowest = 0, highest = 0;
};
ValueExtent valueExtent(const RuntimeSlotRows &rows, std::optional<double> reference);
struct ValueRange {
    double lower = 0, upper = 0;
    friend bool operator==(const ValueRange &, const ValueRange &) = default;
};
ValueRange valueRange(const ValueExtent &extent, int widestLabelPx, int axisWidthPx, bool log);

// The row at a key-axis coordinate (rows at 0, 1, ...), or -1 between rows and past the ends.
int rowAt(double key, qsizetype rowCount);
// The run a click on a row selects: none for a published row (it ran nowhere here).
QString runIdOf(const RuntimeSlot &slot);
QString runIdOf(const SpeedupRow &row); // its measured run
// A row's tooltip: the run, and how it compares with the cuBLAS FP32 reference (a TF32 stage with
// cuBLAS TF32 too).
QString slotTooltip(const RuntimeSlot &slot, const std::optional<RunRecord> &cublasFp32,
                    const std::optional<RunRecord> &cublasTf32);
QString speedupTooltip(const SpeedupRow &row);
QString speedupText(double speedup); // "x2.40", "x12.5"
// The value beside a speedup row: the measured speedup (or "not run") and the worklog's.
QString speedupLabel(const SpeedupRow &row);

// The speedup view: a row a worklog step, its short and long names, the value beside it (right of
// the longer of its two bars) and the values the axis must show.
struct SpeedupMarks {
    QStringList keyLabels, longLabels;
    QList<ValueLabel> labels;
    ValueExtent extent;
};
SpeedupMarks speedupMarks(const QList<SpeedupRow> &rows);

} // namespace gemmscope::runtime_scene
