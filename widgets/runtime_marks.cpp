#include "runtime_marks.h"

#include "chart_text.h"
#include "run_color.h"
#include "stage_catalog.h"
#include "stage_names.h"

#include <algorithm>
#include <cmath>

namespace gemmscope::runtime_scene {

QString longLabel(const RuntimeSlot &slot)
{
    const StageInfo *stage = findStage(slot.run->stage.key());
    if (stage && stage->isLibrary && slot.label == shortPresetLabel(slot.run->presetKey))
        return QString::fromStdString(stage->title); // "cuBLAS FP32 (pedantic SGEMM)": its code says it again
    return stage ? codeAndName(slot.label, runStageTitleText(*slot.run)) : slot.label;
}

int tickStride(qsizetype rows, double rowPx, int labelPx)
{
    const int stride = rowPx > 0 ? std::max(1, int(std::ceil((labelPx - 1) / rowPx))) : 1;
    return std::max<int>(stride, int((rows + kMaxLabelledBars - 1) / kMaxLabelledBars));
}

int keyNameBudget(int widthPx)
{
    return std::max(0, widthPx * 45 / 100);
}

QString fittedName(const QString &code, const QString &longName, int budgetPx, const QFontMetrics &metrics)
{
    if (metrics.horizontalAdvance(longName) <= budgetPx)
        return longName;
    const QString shortened = metrics.elidedText(longName, Qt::ElideRight, budgetPx);
    // The code whole, and enough of the name after it ("8 — __rest…") to tell what it is.
    const qsizetype kept = shortened.size() - 1 - code.size(); // less the "…"
    const qsizetype joiner = longName.startsWith(code + QStringLiteral(" — ")) ? 3 : 0;
    if (!shortened.startsWith(code) || kept - joiner < kMinNameLetters)
        return QString();
    return shortened;
}

bool failuresMarked(qsizetype rows)
{
    return rows <= kMaxLabelledBars;
}

QList<FailureMark> failureMarks(const RuntimeSlotRows &rows, int selectedRow)
{
    QList<FailureMark> marks;
    if (!failuresMarked(rows.size()))
        return marks;
    for (int row = 0; row < rows.size(); ++row)
        if (const RuntimeSlot &slot = rows[row]; !slot.plotted)
            marks << FailureMark{row, QStringLiteral("\u2715 %1: no time").arg(slot.failure), slot.runId,
                                 row == selectedRow};
    return marks;
}

QList<ValueLabel> valueLabels(const RuntimeSlotRows &rows, int tickStride, RuntimeValue mode)
{
    const int stride =
        std::max({1, tickStride, int((rows.size() + kMaxLabelledBars - 1) / kMaxLabelledBars)});
    QList<ValueLabel> labels;
    for (int row = 0; row < rows.size(); row += stride) {
        const RuntimeSlot &slot = rows[row];
        if (!slot.plotted)
            continue;
        // A run not comparable with a steady burst says so beside its number.
        const QString text =
            (mode == RuntimeValue::Milliseconds ? formatMs(slot.value) : formatTflops(slot.value)) +
            comparabilityMark(*slot.run);
        labels << ValueLabel{row, std::max(slot.value, slot.high), text};
    }
    return labels;
}

LegendInputs legendInputs(const RuntimeSlotRows &rows, const QString &referenceText, bool failuresMarked,
                          bool selectionShown)
{
    LegendInputs in;
    in.referenceText = referenceText;
    in.selectionShown = selectionShown;
    // The stages and shades met so far, by id: a 100,000-run session wrote and compared a key text
    // per row each time the legend was looked at (a selection, a switch to the Ladder workspace).
    std::vector<std::pair<StageId, int>> stagesMet;
    for (qsizetype row = 0; row < rows.size(); ++row) {
        const RuntimeSlot &slot = rows[row];
        if (!slot.plotted) {
            in.anyFailed = in.anyFailed || failuresMarked;
            continue;
        }
        if (slot.published) {
            in.publishedDrawn = true;
        } else if (const std::pair<StageId, int> met{slot.stage, presetShade(*slot.run)};
                   std::find(stagesMet.begin(), stagesMet.end(), met) == stagesMet.end()) {
            stagesMet.push_back(met);
            in.stagesDrawn << stageKeyText(slot.stage);
            in.shadesDrawn << met.second;
        }
        in.anyNotSteady = in.anyNotSteady || !comparabilityMark(*slot.run).isEmpty();
    }
    return in;
}

bool wantsLogScale(const RuntimeSlotRows &rows)
{
    // On a linear axis the H200's 0.36 ms cuBLAS TF32 bar is a pixel beside the naive kernel's 25 ms.
    double lo = 0, hi = 0;
    for (qsizetype row = 0; row < rows.size(); ++row)
        if (const RuntimeSlot &slot = rows[row]; slot.plotted && slot.value > 0) {
            lo = lo > 0 ? std::min(lo, slot.value) : slot.value;
            hi = std::max(hi, slot.value);
        }
    return lo > 0 && hi / lo > kLogSpan;
}

ValueExtent valueExtent(const RuntimeSlotRows &rows, std::optional<double> reference)
{
    ValueExtent e;
    for (qsizetype row = 0; row < rows.size(); ++row)
        if (const RuntimeSlot &slot = rows[row]; slot.plotted) {
            e.lowest = e.lowest > 0 ? std::min(e.lowest, slot.low) : slot.low;
            e.highest = std::max(e.highest, slot.high);
        }
    if (reference) {
        e.lowest = e.lowest > 0 ? std::min(e.lowest, *reference) : *reference;
        e.highest = std::max(e.highest, *reference);
    }
    return e;
}

ValueRange valueRange(const ValueExtent &extent, int widestLabelPx, int axisWidthPx, bool log)
{
    const double width = std::max(60, axisWidthPx);
    const double share = std::clamp(1.0 - widestLabelPx / width, 0.5, 0.95); // of the axis left for the bars
    if (log) {
        const double lo = extent.lowest > 0 ? extent.lowest / 1.6 : 0.1;
        const double hi = std::max(extent.highest, lo * 2);
        return {lo, lo * std::pow(hi / lo, 1.0 / share) * 1.05};
    }
    return {0, extent.highest > 0 ? extent.highest / share * 1.03 : 1};
}

int rowAt(double key, qsizetype rowCount)
{
    const int index = qRound(key);
    if (index < 0 || index >= rowCount || std::abs(key - index) > kRowHitHalfHeight)
        return -1;
    return index;
}

QString runIdOf(const RuntimeSlot &slot)
{
    return slot.published ? QString() : slot.runId;
}

QString runIdOf(const SpeedupRow &row)
{
    return row.measuredSpeedup ? row.measuredRunId : QString();
}

QString slotTooltip(const RuntimeSlot &slot, const std::optional<RunRecord> &cublasFp32,
                    const std::optional<RunRecord> &cublasTf32)
{
    QString text = runTooltip(*slot.run);
    const bool timed = slot.plotted && slot.run->medianMs > 0;
    if (cublasFp32 && timed && cublasFp32->runId != slot.runId)
        text += QStringLiteral("\n%1% of cuBLAS FP32 (%2)")
                    .arg(100.0 * cublasFp32->medianMs / slot.run->medianMs, 0, 'f', 1)
                    .arg(formatMs(cublasFp32->medianMs));
    // A tensor-core stage is measured against the tensor-core library too.
    const StageInfo *stage = findStage(slot.run->stage.key());
    if (cublasTf32 && stage && stage->precision == Precision::Tf32 && timed &&
        cublasTf32->runId != slot.runId)
        text += QStringLiteral("\n%1% of cuBLAS TF32 (%2)")
                    .arg(100.0 * cublasTf32->medianMs / slot.run->medianMs, 0, 'f', 1)
                    .arg(formatMs(cublasTf32->medianMs));
    return text;
}

QString speedupText(double speedup)
{
    return QStringLiteral("x%1").arg(speedup, 0, 'f', speedup < 10 ? 2 : 1);
}

QString speedupTooltip(const SpeedupRow &row)
{
    const Preset *preset = findPreset(row.presetKey.toStdString());
    QString text = row.title;
    if (preset && preset->worklogT4Ms)
        text += QStringLiteral("\nthe worklog's T4: %1, %2 over 0 (naive)")
                    .arg(formatMs(*preset->worklogT4Ms), speedupText(row.publishedSpeedup));
    if (row.measuredSpeedup)
        text += QStringLiteral("\nmeasured: %1 over 0 (naive), run %2")
                    .arg(speedupText(*row.measuredSpeedup), row.measuredRunId);
    else
        text += QStringLiteral("\nmeasured: %1").arg(row.note);
    return text;
}

QString speedupLabel(const SpeedupRow &row)
{
    const QString measured =
        row.measuredSpeedup ? speedupText(*row.measuredSpeedup) : QStringLiteral("not run");
    return QStringLiteral("%1  (T4 %2)").arg(measured, speedupText(row.publishedSpeedup));
}

SpeedupMarks speedupMarks(const QList<SpeedupRow> &rows)
{
    SpeedupMarks marks;
    ValueExtent &e = marks.extent;
    for (int i = 0; i < rows.size(); ++i) {
        const SpeedupRow &row = rows[i];
        const QString shortName = shortPresetLabel(row.presetKey);
        marks.keyLabels << (shortName.isEmpty() ? row.label : shortName);
        marks.longLabels << (row.title.isEmpty() ? row.label : row.title);
        e.lowest = e.lowest > 0 ? std::min(e.lowest, row.publishedSpeedup) : row.publishedSpeedup;
        e.highest = std::max(e.highest, row.publishedSpeedup);
        double end = row.publishedSpeedup;
        if (row.measuredSpeedup) {
            e.lowest = std::min(e.lowest, *row.measuredSpeedup);
            e.highest = std::max(e.highest, *row.measuredSpeedup);
            end = std::max(end, *row.measuredSpeedup);
        }
        marks.labels << ValueLabel{i, end, speedupLabel(row)};
    }
    return marks;
}

} // namespace gemmscope::runtime_scene
