// What the runtime chart draws beside its bars, without QCustomPlot: the value beside every named
// row (and none beside a failure), how many rows are named when they are thin, the legend's inputs
// from the rows drawn, the value axis' scale and range, which row a point of the plot is over, and
// what a row's tooltip and a speedup row's label say.
#include "chart_text.h"
#include "run_color.h"
#include "runtime_marks.h"
#include "stage_catalog.h"
#include "stage_names.h"

#include <QtTest>

#include <list>

using namespace gemmscope;
using namespace gemmscope::runtime_scene;

namespace {

RunRecord timedRun(const QString &id, const QString &stage, double ms)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.m = r.n = r.k = 4096;
    r.medianMs = ms;
    r.p20Ms = ms * 0.9;
    r.p80Ms = ms * 1.2;
    r.count = 20;
    r.tflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (ms * 1e-3) * 1e-12;
    return r;
}

RunRecord failedRun(const QString &id)
{
    RunRecord r = timedRun(id, QStringLiteral("coalesced"), 0);
    r.status = RunStatus::Failed;
    r.medianMs = 0;
    return r;
}

RunRecord noisy(RunRecord r)
{
    protocol::RunConditions c;
    c.samples = 20;
    c.noisePct = 9;
    c.maxNoisePct = 2;
    r.conditions = c;
    return r;
}

// The slots point at their runs, which must outlive them: each test's runs are kept until the end.
const QList<RunRecord> &kept(const QList<RunRecord> &runs)
{
    static std::list<QList<RunRecord>> held;
    return held.emplace_back(runs);
}

RuntimeSlotRows rowsOf(const QList<RunRecord> &runs, RuntimeValue mode = RuntimeValue::Milliseconds)
{
    RuntimeSlotRows rows;
    rows.assign(runtimeSlots(kept(runs), mode));
    return rows;
}

} // namespace

class TestRuntimeMarks : public QObject {
    Q_OBJECT
private slots:
    void valueBesideEveryNamedRowWithATime()
    {
        const RunRecord steady = timedRun(QStringLiteral("r1"), QStringLiteral("naive"), 25);
        const RunRecord shaky = noisy(timedRun(QStringLiteral("r2"), QStringLiteral("coalesced"), 10));
        QVERIFY(!comparabilityMark(shaky).isEmpty());
        const RuntimeSlotRows rows = rowsOf({steady, failedRun(QStringLiteral("r3")), shaky});
        QCOMPARE(rows.size(), 3);
        QList<ValueLabel> labels = valueLabels(rows, 1, RuntimeValue::Milliseconds);
        QCOMPARE(labels.size(), 2); // none beside the failure
        const int steadyRow = int(rows.rowOf(QStringLiteral("r1"))),
                  shakyRow = int(rows.rowOf(QStringLiteral("r2")));
        const auto labelOf = [&](int row) {
            for (const ValueLabel &l : labels)
                if (l.row == row)
                    return l;
            return ValueLabel{-1, 0, {}};
        };
        // At the whisker's end (p80), which reaches past the bar.
        QCOMPARE(labelOf(steadyRow), (ValueLabel{steadyRow, 25 * 1.2, formatMs(25)}));
        QCOMPARE(labelOf(shakyRow).text, formatMs(10) + comparabilityMark(shaky));
        // In TFLOP/s the value is the throughput.
        const RuntimeSlotRows tflops = rowsOf({steady}, RuntimeValue::Tflops);
        QCOMPARE(valueLabels(tflops, 1, RuntimeValue::Tflops).first().text, formatTflops(tflops[0].value));
        // Only every n-th row is named: only its value is written.
        QList<RunRecord> many;
        for (int i = 0; i < 10; ++i)
            many << timedRun(QStringLiteral("m%1").arg(i), QStringLiteral("naive"), 20 + i);
        labels = valueLabels(rowsOf(many), 3, RuntimeValue::Milliseconds);
        QCOMPARE(labels.size(), 4);
        for (const ValueLabel &l : labels)
            QCOMPARE(l.row % 3, 0);
    }

    void thinRowsAreNamedEveryNth()
    {
        QCOMPARE(tickStride(20, 20, 14), 1);
        QCOMPARE(tickStride(200, 2, 14), 7); // (14 - 1) px of label over 2 px rows
        QCOMPARE(tickStride(0, 0, 14), 1);
        // Never more names than kMaxLabelledBars, however tall the rows.
        QCOMPARE(tickStride(kMaxLabelledBars * 3, 100, 14), 3);
        QCOMPARE(keyNameBudget(900), 405);
    }

    // A row's name on the key axis: whole where it fits, cut short with "…" where not, and the code
    // alone (an empty name) only where not even a few letters of the stage's name fit beside it.
    void namesAreShortenedBeforeTheyAreDropped()
    {
        const QFontMetrics metrics(QFont(QStringLiteral("DejaVu Sans"), 8));
        const QString code = QStringLiteral("+pad");
        const QString full =
            code + QStringLiteral(" — Register prefetch, padded tiles in dynamic shared memory");
        const int fullPx = metrics.horizontalAdvance(full);
        QCOMPARE(fittedName(code, full, fullPx, metrics), full);
        const QString cut = fittedName(code, full, fullPx / 2, metrics);
        QVERIFY2(cut.startsWith(code + QStringLiteral(" — Register")) && cut.endsWith(QChar(0x2026)),
                 qPrintable(cut));
        QVERIFY(metrics.horizontalAdvance(cut) <= fullPx / 2);
        // Room for the code and a letter or two: codes alone.
        const int tight = metrics.horizontalAdvance(code + QStringLiteral(" — Re…"));
        QVERIFY(fittedName(code, full, tight, metrics).isEmpty());
        // A library's own title (no " — ") is cut the same way, its code kept whole.
        const QString library = QStringLiteral("cuBLAS FP32 (pedantic SGEMM)");
        const QString cutLibrary = fittedName(QStringLiteral("cuBLAS FP32"), library,
                                              metrics.horizontalAdvance(library) - 10, metrics);
        QVERIFY2(cutLibrary.startsWith(QStringLiteral("cuBLAS FP32 (p")), qPrintable(cutLibrary));
    }

    void longNameAddsTheStage()
    {
        const RunRecord coalesced = timedRun(QStringLiteral("r1"), QStringLiteral("coalesced"), 3);
        RuntimeSlot slot = runtimeSlotOf(coalesced, RuntimeValue::Milliseconds);
        // Joined as every other view joins a code and a name (stage_names.h), not by two spaces.
        QCOMPARE(longLabel(slot), slot.label + QStringLiteral(" — ") + runStageTitleText(*slot.run));
        QCOMPARE(longLabel(slot), runNameText(*slot.run));
        RunRecord unknown = *slot.run;
        unknown.stage = stageIdOf(QStringLiteral("no_such_stage"));
        slot = runtimeSlotOf(unknown, RuntimeValue::Milliseconds);
        QCOMPARE(longLabel(slot), slot.label);
    }

    // Every colour a bar wears is in the legend, under one entry only: the legend showed each stage's
    // own colour, so "+tuned" (pipelined's lighter shade) found its match in stage 7's steel blue.
    void everyBarColourIsInOneLegendEntry()
    {
        QList<RunRecord> runs;
        for (const Preset &preset : presets()) {
            RunRecord run = timedRun(QString::fromStdString(preset.key), stageKeyText(preset.stage), 3);
            run.presetKey = QString::fromStdString(preset.key);
            for (const auto &[name, value] : preset.params)
                run.params.insert(QString::fromStdString(name), value);
            runs << run;
        }
        for (const StageId library : {StageId::CublasFp32, StageId::CublasTf32}) {
            RunRecord run = timedRun(stageKeyText(library), stageKeyText(library), 2);
            run.presetKey = stageKeyText(library);
            runs << run;
        }
        const RuntimeSlotRows rows = rowsOf(runs);
        const QList<LegendEntry> entries = legendEntries(legendInputs(rows, QString(), true, false));
        QSet<QRgb> barColours;
        for (qsizetype row = 0; row < rows.size(); ++row)
            barColours << runColor(*rows[row].run).rgb();
        QVERIFY(barColours.size() >= 20);
        QHash<QRgb, QString> entryOf;
        for (const LegendEntry &entry : entries)
            for (const QColor &color : entry.colors) {
                QVERIFY2(!entryOf.contains(color.rgb()) || entryOf.value(color.rgb()) == entry.text,
                         qPrintable(QStringLiteral("%1 in \"%2\" and \"%3\"")
                                        .arg(color.name(), entryOf.value(color.rgb()), entry.text)));
                entryOf.insert(color.rgb(), entry.text);
            }
        for (const QRgb colour : std::as_const(barColours))
            QVERIFY2(entryOf.contains(colour),
                     qPrintable(QColor(colour).name() + QStringLiteral(": not in the legend")));
    }

    void legendInputsFromTheRowsDrawn()
    {
        RunRecord published = timedRun(QStringLiteral("w1"), QStringLiteral("naive"), 900);
        published.origin = QStringLiteral("worklog");
        const RuntimeSlotRows rows = rowsOf({timedRun(QStringLiteral("r1"), QStringLiteral("coalesced"), 3),
                                             timedRun(QStringLiteral("r2"), QStringLiteral("coalesced"), 3.1),
                                             timedRun(QStringLiteral("r3"), QStringLiteral("naive"), 25),
                                             published, failedRun(QStringLiteral("r4"))});
        LegendInputs in = legendInputs(rows, QStringLiteral("cuBLAS FP32: 2.69 ms"), true, true);
        QCOMPARE(in.stagesDrawn,
                 (QStringList{QStringLiteral("naive"), QStringLiteral("coalesced")})); // once each
        QVERIFY(in.publishedDrawn);
        QVERIFY(in.anyFailed);
        QVERIFY(!in.anyNotSteady);
        QVERIFY(in.selectionShown);
        QCOMPARE(in.referenceText, QStringLiteral("cuBLAS FP32: 2.69 ms"));
        // Failures without their marks (thousands of rows) are not explained; a noisy run is.
        in = legendInputs(rowsOf({failedRun(QStringLiteral("r4")),
                                  noisy(timedRun(QStringLiteral("r5"), QStringLiteral("naive"), 25))}),
                          QString(), false, false);
        QVERIFY(!in.anyFailed);
        QVERIFY(in.anyNotSteady);
        QVERIFY(!in.publishedDrawn);
        QVERIFY(in.referenceText.isEmpty());
    }

    void eachRunWithNoTimeIsMarkedOnItsRow()
    {
        const RuntimeSlotRows rows = rowsOf(
            {timedRun(QStringLiteral("r1"), QStringLiteral("coalesced"), 3), failedRun(QStringLiteral("r2")),
             timedRun(QStringLiteral("r3"), QStringLiteral("naive"), 25), failedRun(QStringLiteral("r4"))});
        QList<int> failedRows;
        for (int row = 0; row < rows.size(); ++row)
            if (!rows[row].plotted)
                failedRows << row;
        QCOMPARE(failedRows.size(), 2);
        const int selected = failedRows.last();
        const QList<FailureMark> marks = failureMarks(rows, selected);
        QCOMPARE(marks.size(), 2);
        for (qsizetype i = 0; i < marks.size(); ++i) {
            const RuntimeSlot &slot = rows[marks[i].row];
            QCOMPARE(marks[i].row, failedRows[i]); // top row first
            QCOMPARE(marks[i].runId, slot.run->runId);
            QVERIFY(!slot.failure.isEmpty());
            QCOMPARE(marks[i].text, QStringLiteral("\u2715 %1: no time").arg(slot.failure));
            QCOMPARE(marks[i].selected, marks[i].row == selected);
        }
        // A selected row with a time frames no failure; none selected frames none.
        for (const int row : {-1, int(rows.rowOf(QStringLiteral("r1")))})
            for (const FailureMark &mark : failureMarks(rows, row))
                QVERIFY(!mark.selected);
    }

    void failuresOfThousandsOfRowsGetNoMark()
    {
        QList<RunRecord> runs{failedRun(QStringLiteral("f"))};
        for (int i = 0; i < kMaxLabelledBars; ++i)
            runs << timedRun(QStringLiteral("r%1").arg(i), QStringLiteral("coalesced"), 3 + i * 1e-3);
        QVERIFY(!failuresMarked(runs.size()));
        QVERIFY(failuresMarked(runs.size() - 1));
        QVERIFY(failureMarks(rowsOf(runs), -1).isEmpty());
        runs.removeLast();
        QCOMPARE(failureMarks(rowsOf(runs), -1).size(), 1);
    }

    void valueAxisSpansBarsWhiskersAndReference()
    {
        const RuntimeSlotRows close =
            rowsOf({timedRun(QStringLiteral("r1"), QStringLiteral("naive"), 20),
                    timedRun(QStringLiteral("r2"), QStringLiteral("coalesced"), 2)});
        QVERIFY(!wantsLogScale(close)); // 10x apart
        QVERIFY(wantsLogScale(rowsOf({timedRun(QStringLiteral("r1"), QStringLiteral("naive"), 25),
                                      timedRun(QStringLiteral("r2"), QStringLiteral("coalesced"), 1)})));
        ValueExtent e = valueExtent(close, std::nullopt);
        QCOMPARE(e.lowest, 2 * 0.9);   // p20 of the fastest
        QCOMPARE(e.highest, 20 * 1.2); // p80 of the slowest
        e = valueExtent(close, 30.0);
        QCOMPARE(e.highest, 30.0);
        QCOMPARE(valueExtent(RuntimeSlotRows{}, 2.5).lowest, 2.5);
        // Linear: from 0, the longest bar ending where its label leaves room (100 of 1000 px).
        const ValueRange linear = valueRange({1.8, 24}, 100, 1000, false);
        QCOMPARE(linear.lower, 0.0);
        QCOMPARE(linear.upper, 24 / 0.9 * 1.03);
        QCOMPARE(valueRange({0, 0}, 0, 1000, false).upper, 1.0);
        // The label never takes more than half the axis.
        QCOMPARE(valueRange({1.8, 24}, 900, 1000, false).upper, 24 / 0.5 * 1.03);
        const ValueRange log = valueRange({1, 100}, 0, 1000, true);
        QCOMPARE(log.lower, 1 / 1.6);
        QCOMPARE(log.upper, (1 / 1.6) * std::pow(100 * 1.6, 1 / 0.95) * 1.05);
    }

    void pointIsOverTheRowNearestIt()
    {
        QCOMPARE(rowAt(0, 3), 0);
        QCOMPARE(rowAt(1.4, 3), 1);
        QCOMPARE(rowAt(1.46, 3), -1); // between two bars
        QCOMPARE(rowAt(2.3, 3), 2);
        QCOMPARE(rowAt(3, 3), -1);
        QCOMPARE(rowAt(-0.3, 3), 0);
        QCOMPARE(rowAt(-0.6, 3), -1);
        RunRecord published = timedRun(QStringLiteral("w1"), QStringLiteral("naive"), 900);
        published.origin = QStringLiteral("worklog");
        QVERIFY(runIdOf(runtimeSlotOf(published, RuntimeValue::Milliseconds)).isEmpty());
        const RunRecord measured = timedRun(QStringLiteral("r1"), QStringLiteral("naive"), 9);
        QCOMPARE(runIdOf(runtimeSlotOf(measured, RuntimeValue::Milliseconds)), QStringLiteral("r1"));
        SpeedupRow row;
        row.measuredRunId = QStringLiteral("r7");
        QVERIFY(runIdOf(row).isEmpty()); // no measured speedup: nothing to select
        row.measuredSpeedup = 4.2;
        QCOMPARE(runIdOf(row), QStringLiteral("r7"));
    }

    void tooltipComparesWithTheCublasReferences()
    {
        const RunRecord fp32 = timedRun(QStringLiteral("c1"), QStringLiteral("cublas_fp32"), 2);
        const RunRecord tf32 = timedRun(QStringLiteral("c2"), QStringLiteral("cublas_tf32"), 0.5);
        const RunRecord naive = timedRun(QStringLiteral("r1"), QStringLiteral("naive"), 8);
        const RuntimeSlot slot = runtimeSlotOf(naive, RuntimeValue::Milliseconds);
        QCOMPARE(slotTooltip(slot, fp32, tf32),
                 runTooltip(naive) + QStringLiteral("\n25.0% of cuBLAS FP32 (%1)").arg(formatMs(2)));
        QCOMPARE(slotTooltip(slot, std::nullopt, std::nullopt), runTooltip(naive));
        // The reference itself compares with nothing; a tensor-core stage with cuBLAS TF32 too.
        QCOMPARE(slotTooltip(runtimeSlotOf(fp32, RuntimeValue::Milliseconds), fp32, tf32), runTooltip(fp32));
        const RunRecord wgmma = timedRun(QStringLiteral("r2"), QStringLiteral("wgmma_tf32"), 1);
        QVERIFY(slotTooltip(runtimeSlotOf(wgmma, RuntimeValue::Milliseconds), fp32, tf32)
                    .endsWith(QStringLiteral("\n50.0% of cuBLAS TF32 (%1)").arg(formatMs(0.5))));
        // A failure has no time to compare.
        const RunRecord failed = failedRun(QStringLiteral("r3"));
        QCOMPARE(slotTooltip(runtimeSlotOf(failed, RuntimeValue::Milliseconds), fp32, tf32),
                 runTooltip(failed));
    }

    void speedupRowSaysBothSpeedups()
    {
        SpeedupRow row;
        row.title = QStringLiteral("Step 3");
        row.publishedSpeedup = 12.34;
        row.note = QStringLiteral("no step-0 run of this size");
        QCOMPARE(speedupText(2.4), QStringLiteral("x2.40"));
        QCOMPARE(speedupText(12.34), QStringLiteral("x12.3"));
        QCOMPARE(speedupLabel(row), QStringLiteral("not run  (T4 x12.3)"));
        QCOMPARE(speedupTooltip(row), QStringLiteral("Step 3\nmeasured: no step-0 run of this size"));
        row.measuredSpeedup = 3.5;
        row.measuredRunId = QStringLiteral("r9");
        QCOMPARE(speedupLabel(row), QStringLiteral("x3.50  (T4 x12.3)"));
        QVERIFY(speedupTooltip(row).endsWith(QStringLiteral("\nmeasured: x3.50 over 0 (naive), run r9")));
    }

    // One name a preset (issue 38): the speedup view's rows print the code the tables' Stage column
    // prints for the preset's run, and where there is room that code with its Stage name; never the
    // catalog's key ("worklog-8") nor a title of their own ("Step 8: ..."), which read as other kernels.
    void everyPresetHasACodeOfItsOwn()
    {
        // A chart too narrow for the stage names shows the codes alone: two presets with one code
        // are two bars no one can tell apart.
        QHash<QString, QString> owner;
        for (const Preset &preset : presets()) {
            const QString key = QString::fromStdString(preset.key);
            const QString code = shortPresetLabel(key);
            QVERIFY2(!code.isEmpty(), qPrintable(key));
            QVERIFY2(
                !owner.contains(code),
                qPrintable(QStringLiteral("%1 and %2 are both \"%3\"").arg(owner.value(code), key, code)));
            owner.insert(code, key);
        }
    }

    void speedupRowsNamePresetsAsTheTablesDo()
    {
        RunRecord onlyStep3; // a step without a naive run at its size: its note names stage 0
        onlyStep3.runId = QStringLiteral("r1");
        onlyStep3.presetKey = QStringLiteral("worklog-3");
        onlyStep3.stage = findPreset("worklog-3")->stage;
        onlyStep3.status = RunStatus::Ok;
        onlyStep3.medianMs = 2;
        onlyStep3.m = onlyStep3.n = onlyStep3.k = 4096;
        const QList<SpeedupRow> rows = speedupOverNaive({onlyStep3});
        QVERIFY(rows.size() >= 9);
        const SpeedupMarks marks = speedupMarks(rows);
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const Preset *preset = findPreset(rows[i].presetKey.toStdString());
            QVERIFY(preset);
            RunRecord run; // the preset's own run, as the results table shows it
            run.presetKey = rows[i].presetKey;
            run.stage = preset->stage;
            for (const auto &[name, value] : preset->params)
                run.params.insert(QString::fromStdString(name), value);
            const QString code = shortRunLabel(run);
            QCOMPARE(marks.keyLabels[i], code);
            QCOMPARE(marks.longLabels[i], code + QStringLiteral(" — ") + runStageTitleText(run));
            for (const QString &text : {marks.longLabels[i], speedupTooltip(rows[i])}) {
                QVERIFY2(!text.contains(QStringLiteral("Step"), Qt::CaseInsensitive), qPrintable(text));
                QVERIFY2(!text.contains(QStringLiteral("worklog-")), qPrintable(text));
            }
        }
    }

    void speedupRowsNameTheStepAndSpanBothBars()
    {
        SpeedupRow notRun;
        notRun.presetKey = QStringLiteral("worklog-3");
        notRun.label = QStringLiteral("step 3");
        notRun.title = QStringLiteral("Coalesced cooperative loads");
        notRun.publishedSpeedup = 6;
        SpeedupRow measured;
        measured.presetKey = QStringLiteral("no-such-preset");
        measured.label = QStringLiteral("step 9");
        measured.publishedSpeedup = 2;
        measured.measuredSpeedup = 9.5;
        measured.measuredRunId = QStringLiteral("r9");
        const SpeedupMarks marks = speedupMarks({notRun, measured});
        QCOMPARE(marks.keyLabels,
                 (QStringList{shortPresetLabel(QStringLiteral("worklog-3")), QStringLiteral("step 9")}));
        QVERIFY(!marks.keyLabels.first().isEmpty());
        QCOMPARE(marks.longLabels,
                 (QStringList{QStringLiteral("Coalesced cooperative loads"), QStringLiteral("step 9")}));
        // Right of the longer bar: the published one where nothing ran, else the measured one.
        QCOMPARE(marks.labels,
                 (QList<ValueLabel>{{0, 6, speedupLabel(notRun)}, {1, 9.5, speedupLabel(measured)}}));
        QCOMPARE(marks.extent.lowest, 2.0);
        QCOMPARE(marks.extent.highest, 9.5);
        QVERIFY(speedupMarks({}).labels.isEmpty());
    }
};

QTEST_MAIN(TestRuntimeMarks)
#include "tst_runtime_marks.moc"
