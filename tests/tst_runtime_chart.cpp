// The runtime chart draws exactly the successful runs as bars, in ladder order, with p20-p80
// whiskers, cuBLAS FP32 as a reference line, failed runs as markers (never as times), and the
// speedup-over-naive comparison against the worklog's published T4 progression.
#include "chart_layout.h"
#include "runtime_chart.h"
#include "session.h"
#include "stage_catalog.h"
#include "support/full_ladder.h"
#include "support/run_conditions.h"

#include <QApplication>
#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

RunRecord okRun(const QString &id, const QString &stage, const QString &preset, double median, double p20,
                double p80)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.presetKey = preset;
    r.m = 8192;
    r.n = 4096;
    r.k = 6144;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = median;
    r.p20Ms = p20;
    r.p80Ms = p80;
    r.count = 20;
    r.tflops = 2.0 * 8192 * 4096 * 6144 / (median * 1e-3) / 1e12;
    r.gpuName = QStringLiteral("NVIDIA H200");
    return r;
}

RunRecord failedRun(const QString &id, const QString &stage)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.status = RunStatus::Failed;
    r.origin = QStringLiteral("measured");
    r.errorKind = QStringLiteral("wrong_result");
    r.errorMessage = QStringLiteral("relative error 0.3 is above the tolerance 1e-05");
    r.medianMs = 5; // a failed run must not be plotted even if it carries a number
    return r;
}

// Deliberately out of ladder order.
QList<RunRecord> sampleRuns()
{
    return {okRun("r4", "cublas_fp32", "", 8.15, 8.10, 8.30),
            okRun("r3", "coalesced", "worklog-3", 30.1, 29.8, 30.6), failedRun("r5", "strided"),
            okRun("r1", "naive", "worklog-0", 240.0, 238.0, 243.0),
            okRun("r2", "coarsened", "worklog-2", 31.5, 31.0, 32.2)};
}

int totalBars(const RuntimeChart &chart)
{
    int n = 0;
    for (QCPBars *bars : chart.runBars())
        n += bars->dataCount();
    return n;
}

bool barsContainKey(const RuntimeChart &chart, double key)
{
    for (QCPBars *bars : chart.runBars())
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            if (it->key == key)
                return true;
    return false;
}

double tflopsOf(const RunRecord &r, double ms)
{
    return 2.0 * r.m * r.n * r.k / (ms * 1e-3) / 1e12;
}

void layOut(RuntimeChart &chart)
{
    // Shown (offscreen) so the layout gives the plot its size before pixels are computed.
    chart.resize(900, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
}

// Whether `chart`, changed run by run, shows what a chart given `runs` at once shows: the rows, each
// bar with its whisker, the failure marks, the cuBLAS line, the axis and the legend.
bool sameAsGivenAll(const RuntimeChart &chart, const QList<RunRecord> &runs)
{
    // What depends on every row follows in a later turn of the event loop.
    if (!QTest::qWaitFor([&chart] { return !chart.settleDue(); }))
        return false;
    RuntimeChart fresh;
    fresh.setRuns(runs);
    const auto rows = [](const RuntimeChart &c) {
        QStringList out;
        for (const RuntimeSlot &slot : c.runtimeSlotList())
            out << slot.run->runId + (slot.plotted ? QString() : QStringLiteral(" ") + slot.failure);
        return out;
    };
    const auto marks = [](const RuntimeChart &c) {
        QMap<QString, QStringList> out; // by bar name: "key value -err +err"
        for (int b = 0; b < c.runBars().size(); ++b) {
            QCPBars *bars = c.runBars()[b];
            QCPErrorBars *whisker = c.whiskers()[b];
            if (whisker->dataCount() != bars->dataCount())
                return QMap<QString, QStringList>{{QStringLiteral("whiskers out of step"), {}}};
            for (int i = 0; i < bars->dataCount(); ++i)
                out[bars->name()] << QStringLiteral("%1 %2 -%3 +%4")
                                         .arg(bars->data()->at(i)->key)
                                         .arg(bars->data()->at(i)->value)
                                         .arg(whisker->data()->at(i).errorMinus)
                                         .arg(whisker->data()->at(i).errorPlus);
        }
        for (QCPItemText *marker : c.failureMarkers())
            out[QStringLiteral("failures")]
                << QStringLiteral("%1 %2").arg(marker->position->value()).arg(marker->text());
        if (c.referenceLine())
            out[QStringLiteral("reference")] << QString::number(c.referenceLine()->point1->coords().x());
        out[QStringLiteral("value axis")] << c.valueAxis()->label();
        out[QStringLiteral("key range")]
            << QStringLiteral("%1 %2").arg(c.keyAxis()->range().lower).arg(c.keyAxis()->range().upper);
        QCPLegend *legend = c.customPlot()->legend;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (legend->item(i)) // wrapped in columns under a wide plot, it has empty cells
                out[QStringLiteral("legend")] << legendItemText(legend->item(i));
        return out;
    };
    bool same = true;
    if (rows(chart) != rows(fresh)) {
        qWarning() << "rows" << rows(chart) << "given all:" << rows(fresh);
        same = false;
    }
    const auto mine = marks(chart), theirs = marks(fresh);
    for (const QString &key :
         QSet<QString>(mine.keyBegin(), mine.keyEnd()) | QSet<QString>(theirs.keyBegin(), theirs.keyEnd()))
        if (mine.value(key) != theirs.value(key)) {
            qWarning() << key << mine.value(key) << "given all:" << theirs.value(key);
            same = false;
        }
    return same;
}

} // namespace

class TstRuntimeChart : public QObject {
    Q_OBJECT

private slots:
    void rendersOneBarPerSuccessfulRun()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        layOut(chart);
        QVERIFY(!chart.grab().isNull());
        QCOMPARE(totalBars(chart), 4);
        QCOMPARE(chart.runtimeSlotList().size(), 5);
    }

    // The group choice is as wide as its entries ask, not stretched across the chart ("All runs"
    // took 730 px of a 1920 window), and a long group name is whole in it.
    void groupChoiceIsAsWideAsItsEntries()
    {
        RuntimeChart chart;
        chart.resize(960, 500);
        chart.setRuns(sampleRuns());
        layOut(chart);
        auto *combo = chart.findChild<QComboBox *>(QStringLiteral("runtimeGroupCombo"));
        QVERIFY(combo);
        QVERIFY2(combo->width() < 300, qPrintable(QString::number(combo->width())));
        QList<RunRecord> runs = sampleRuns();
        RunRecord other = runs.first();
        other.runId = QStringLiteral("elsewhere");
        other.gpuName = QStringLiteral("NVIDIA GeForce RTX 4090 Laptop GPU");
        other.m = other.n = other.k = 6144;
        runs << other;
        chart.setRuns(runs);
        layOut(chart);
        QVERIFY(combo->count() >= 3);
        int widest = 0;
        for (int i = 0; i < combo->count(); ++i)
            widest = std::max(widest, combo->fontMetrics().horizontalAdvance(combo->itemText(i)));
        QVERIFY2(combo->width() >= std::min(widest, combo->fontMetrics().horizontalAdvance(QString(40, 'x'))),
                 qPrintable(QStringLiteral("%1 px for %2").arg(combo->width()).arg(widest)));
    }

    // A run whose number is not comparable says so beside it; a steady one does not.
    void marksRunsThatAreNotComparable()
    {
        QList<RunRecord> runs = sampleRuns();
        const protocol::RunConditions steady = test::steadyBurst();
        protocol::RunConditions noisy = steady;
        noisy.noisePct = 2.5;
        noisy.stoppedBy = protocol::StopReason::Budget;
        runs[1].conditions = noisy;  // r3, worklog-3
        runs[4].conditions = steady; // r2, worklog-2
        RuntimeChart chart;
        chart.resize(900, 600);
        chart.setRuns(runs);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.findChild<QCustomPlot *>();
        QVERIFY(plot);
        QStringList texts;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible())
                texts << text->text();
        QVERIFY2(texts.contains(QStringLiteral("30.1 ms (noisy)")), qPrintable(texts.join(" | ")));
        QVERIFY2(texts.contains(QStringLiteral("31.5 ms")), qPrintable(texts.join(" | ")));
    }

    void ordersRunsByTheLadder()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        QStringList stages;
        for (const RuntimeSlot &slot : chart.runtimeSlotList())
            stages << slot.run->stageKey();
        QStringList expected;
        for (const StageInfo &s : gemmscope::stages()) // the catalog's order, whatever it is
            if (QString key = QString::fromStdString(s.key); stages.contains(key))
                expected << key;
        QCOMPARE(stages, expected);
    }

    void tensorCoreStagesSitBesideCublasTf32()
    {
        // FP32 ladder, cuBLAS FP32, then the TF32 stages, then cuBLAS TF32 they are measured against.
        const int fp32 = stageRank(QStringLiteral("cublas_fp32")),
                  tf32 = stageRank(QStringLiteral("cublas_tf32"));
        QVERIFY(fp32 < tf32);
        for (const StageInfo &s : gemmscope::stages()) {
            const int rank = stageRank(QString::fromStdString(s.key));
            if (s.isLibrary)
                continue;
            if (s.precision == Precision::Tf32)
                QVERIFY2(fp32 < rank && rank < tf32, s.key.c_str());
            else
                QVERIFY2(rank < fp32, s.key.c_str());
        }
        QVERIFY(stageRank(QStringLiteral("no_such_stage")) > tf32);

        // A TF32 run's tooltip gives its share of the latest cuBLAS TF32 run (here an earlier cuBLAS
        // TF32 run of the session: 1.25 ms against 1.0 ms = 80 %).
        QList<RunRecord> runs = sampleRuns();
        runs << okRun("t1", "cublas_tf32", "", 1.25, 1.2, 1.3)
             << okRun("t2", "cublas_tf32", "", 1.0, 0.99, 1.01);
        QCOMPARE(cublasTf32Reference(runs)->runId, QStringLiteral("t2"));
        RuntimeChart chart;
        chart.setRuns(runs);
        layOut(chart);
        const QString tip = chart.tooltipAt(*chart.pixelOfRun(QStringLiteral("t1")));
        QVERIFY2(tip.contains(QStringLiteral("80.0% of cuBLAS TF32")), qPrintable(tip));
        const QString fp32Tip = chart.tooltipAt(*chart.pixelOfRun(QStringLiteral("r2")));
        QVERIFY2(!fp32Tip.contains(QStringLiteral("TF32")), qPrintable(fp32Tip));
    }

    void ordersPresetsWithinAStage()
    {
        // worklog-4, 5a and 5b are all the double-buffered kernel: the preset order decides, and
        // ad-hoc settings of the stage follow its presets.
        const QList<RunRecord> runs{okRun("a", "double_buffered", "", 20, 19, 21),
                                    okRun("b", "double_buffered", "worklog-5b", 15, 14, 16),
                                    okRun("c", "double_buffered", "worklog-4", 25, 24, 26),
                                    okRun("d", "double_buffered", "worklog-5a", 18, 17, 19)};
        QStringList ids;
        for (const RunRecord &r : ladderOrdered(runs))
            ids << r.runId;
        QCOMPARE(ids, (QStringList{"c", "d", "b", "a"}));
    }

    void worklogStepsInTheWorklogsOrder()
    {
        // Step 6 runs the step-3 kernel (192x192 tiles) but comes after 5b; the
        // guide's variants follow step 1, a stage's own settings its last step, the stages past the
        // worklog step 8, the tensor cores cuBLAS FP32.
        const QList<RunRecord> runs{okRun("tf32", "mma_tf32", "tf32-mma", 1, 1, 1),
                                    okRun("own3", "coalesced", "", 1, 1, 1),
                                    okRun("s6", "coalesced", "worklog-6", 1, 1, 1),
                                    okRun("vec", "vectorized", "fp32-vectorized", 1, 1, 1),
                                    okRun("s4", "double_buffered", "worklog-4", 1, 1, 1),
                                    okRun("cublas", "cublas_fp32", "", 1, 1, 1),
                                    okRun("s8", "final", "worklog-8", 1, 1, 1),
                                    okRun("s3", "coalesced", "worklog-3", 1, 1, 1),
                                    okRun("g32", "smem_tiled", "guide-32", 1, 1, 1),
                                    okRun("own4", "double_buffered", "", 1, 1, 1),
                                    okRun("s5b", "double_buffered", "worklog-5b", 1, 1, 1),
                                    okRun("s1", "smem_tiled", "worklog-1", 1, 1, 1),
                                    okRun("s2", "coarsened", "worklog-2", 1, 1, 1)};
        QStringList ids;
        for (const RunRecord &r : ladderOrdered(runs))
            ids << r.runId;
        QCOMPARE(ids, (QStringList{"s1", "g32", "s2", "s3", "s4", "s5b", "own4", "s6", "own3", "s8", "vec",
                                   "cublas", "tf32"}));
    }

    void throughputWithoutProblemSizeScalesFromTheMedian()
    {
        RunRecord r = okRun("x", "naive", "", 10, 9, 12);
        const double atMedian = r.tflops;
        r.m = r.n = r.k = 0;
        QVERIFY(qFuzzyCompare(tflopsAt(r, 5), 2 * atMedian));
        QCOMPARE(tflopsAt(r, 0), 0.0);
    }

    void failedRunIsMarkedNotPlotted()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        int failedSlot = -1;
        for (int i = 0; i < chart.runtimeSlotList().size(); ++i)
            if (chart.runtimeSlotList()[i].run->runId == QLatin1String("r5"))
                failedSlot = i;
        QVERIFY(failedSlot >= 0);
        QVERIFY(!barsContainKey(chart, failedSlot));
        QCOMPARE(chart.failureMarkers().size(), 1);
        QCOMPARE(chart.failureMarkers().first()->position->value(), double(failedSlot)); // its row
        QVERIFY(chart.failureMarkers().first()->text().contains(QStringLiteral("wrong result")));
    }

    void whiskersSpanP20ToP80_data()
    {
        QTest::addColumn<bool>("tflopsMode");
        QTest::newRow("milliseconds") << false;
        QTest::newRow("TFLOP/s") << true;
    }
    void whiskersSpanP20ToP80()
    {
        QFETCH(bool, tflopsMode);
        const QList<RunRecord> runs = sampleRuns();
        RuntimeChart chart;
        chart.setValueMode(tflopsMode ? RuntimeValue::Tflops : RuntimeValue::Milliseconds);
        chart.setRuns(runs);
        int checked = 0;
        for (int b = 0; b < chart.runBars().size(); ++b) {
            QCPBars *bars = chart.runBars()[b];
            QCPErrorBars *whisker = chart.whiskers()[b];
            QCOMPARE(whisker->dataPlottable(), bars);
            QCOMPARE(whisker->dataCount(), bars->dataCount());
            for (int i = 0; i < bars->dataCount(); ++i) {
                const auto bar = bars->data()->at(i);
                const RunRecord run = *chart.runtimeSlotList()[int(bar->key)].run;
                const auto err = whisker->data()->at(i);
                const double low = tflopsMode ? tflopsOf(run, run.p80Ms) : run.p20Ms;
                const double high = tflopsMode ? tflopsOf(run, run.p20Ms) : run.p80Ms;
                QCOMPARE(bar->value, tflopsMode ? run.tflops : run.medianMs);
                QVERIFY(qFuzzyCompare(bar->value - err.errorMinus, low));
                QVERIFY(qFuzzyCompare(bar->value + err.errorPlus, high));
                ++checked;
            }
        }
        QCOMPARE(checked, 4);
    }

    void whiskerReachesItsCapsUnbroken()
    {
        // The whisker is one line from its p20 to its p80 through the bar's end: QCustomPlot leaves a
        // gap around a data point for its scatter symbol, which a bar has not, and a p80 a few pixels
        // past the bar's end drew a cap floating beside it (+wgmma/+tma).
        RuntimeChart chart;
        chart.setRuns({okRun("r1", "naive", "worklog-0", 100.0, 99.0, 102.0),
                       okRun("r2", "coalesced", "worklog-3", 40.0, 39.0, 42.0)});
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot->grab().toImage();
        const double ratio = plot->devicePixelRatioF();
        int checked = 0;
        for (int b = 0; b < chart.runBars().size(); ++b) {
            QCPBars *bars = chart.runBars()[b];
            const QCPErrorBars *whisker = chart.whiskers()[b];
            for (int i = 0; i < bars->dataCount(); ++i) {
                const auto bar = bars->data()->at(i);
                const double end = plot->xAxis->coordToPixel(bar->value);
                const double cap = plot->xAxis->coordToPixel(bar->value + whisker->data()->at(i).errorPlus);
                const int row = qRound(plot->yAxis->coordToPixel(bar->key));
                QVERIFY2(cap - end > 6, qPrintable(QStringLiteral("cap %1 px past the end").arg(cap - end)));
                for (int x = qCeil(end) + 1; x < cap - 1; ++x) {
                    const QColor c = image.pixelColor(QPoint(qRound(x * ratio), qRound(row * ratio)));
                    QVERIFY2(qGray(c.rgb()) < 128,
                             qPrintable(QStringLiteral("bar %1: no whisker at x=%2 (end %3, cap %4)")
                                            .arg(i)
                                            .arg(x)
                                            .arg(end)
                                            .arg(cap)));
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 0);
    }

    void cublasReferenceLine_data()
    {
        QTest::addColumn<bool>("tflopsMode");
        QTest::newRow("milliseconds") << false;
        QTest::newRow("TFLOP/s") << true;
    }
    void cublasReferenceLine()
    {
        QFETCH(bool, tflopsMode);
        RuntimeChart chart;
        chart.setValueMode(tflopsMode ? RuntimeValue::Tflops : RuntimeValue::Milliseconds);
        chart.setRuns(sampleRuns());
        QVERIFY(chart.referenceLine());
        const RunRecord cublas = sampleRuns().first();
        const double expected = tflopsMode ? cublas.tflops : cublas.medianMs;
        // A vertical line: values run along the horizontal axis.
        QCOMPARE(chart.referenceLine()->point1->coords().x(), expected);
        QCOMPARE(chart.referenceLine()->point2->coords().x(), expected);
    }

    void noReferenceLineWithoutCublas()
    {
        RuntimeChart chart;
        QList<RunRecord> runs = sampleRuns();
        runs.removeFirst();
        chart.setRuns(runs);
        QVERIFY(!chart.referenceLine());
    }

    void logScaleUsesLogTicker()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        chart.setLogScale(true);
        QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart.valueAxis()->ticker().dynamicCast<QCPAxisTickerLog>());
        QVERIFY(chart.valueAxis()->range().lower > 0);
        chart.setLogScale(false);
        QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLinear);
    }

    void speedupMatchesWorklogAndMeasurement()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        chart.setMode(RuntimeChart::Mode::Speedup);
        const Preset *zero = findPreset("worklog-0");
        QVERIFY(zero && zero->worklogT4Ms);
        QCPBars *published = chart.publishedSpeedupBars();
        QCPBars *measured = chart.measuredSpeedupBars();
        QVERIFY(published && measured);
        int row = 0;
        for (const Preset &p : presets()) {
            if (!p.worklogT4Ms)
                continue;
            QCOMPARE(published->data()->at(row)->key, double(row));
            QCOMPARE(published->data()->at(row)->value, *zero->worklogT4Ms / *p.worklogT4Ms);
            ++row;
        }
        QCOMPARE(published->dataCount(), row);
        // Measured: naive 240 ms; worklog-2 31.5 ms and worklog-3 30.1 ms; the others were not run.
        QCOMPARE(measured->dataCount(), 3);
        QMap<QString, double> measuredByPreset;
        for (const SpeedupRow &r : chart.speedupRows())
            if (r.measuredSpeedup)
                measuredByPreset[r.presetKey] = *r.measuredSpeedup;
        QCOMPARE(measuredByPreset.value("worklog-0"), 1.0);
        QCOMPARE(measuredByPreset.value("worklog-2"), 240.0 / 31.5);
        QCOMPARE(measuredByPreset.value("worklog-3"), 240.0 / 30.1);

        // A later launch experiment of step 3 (one block per SM) is its own bar, starred, and
        // never stands in for the step in the comparison with the worklog.
        QList<RunRecord> runs = sampleRuns();
        RunRecord limited = okRun("r9", "coalesced", "worklog-3", 87.7, 87.6, 87.8);
        limited.maxBlocksPerSm = 1;
        limited.timestamp = QDateTime::currentDateTimeUtc().addDays(1);
        runs.append(limited);
        chart.setRuns(runs);
        for (const SpeedupRow &r : chart.speedupRows())
            if (r.presetKey == QStringLiteral("worklog-3"))
                QCOMPARE(*r.measuredSpeedup, 240.0 / 30.1);
        chart.setMode(RuntimeChart::Mode::Runtime);
        QStringList labels;
        for (const RuntimeSlot &slot : chart.runtimeSlotList())
            labels << slot.label;
        QVERIFY2(labels.contains(QStringLiteral("3")) && labels.contains(QStringLiteral("3*")),
                 qPrintable(labels.join(',')));
    }

    void speedupNeedsNaiveAtTheSameSize()
    {
        QList<RunRecord> runs = sampleRuns();
        for (RunRecord &r : runs)
            if (r.presetKey == QLatin1String("worklog-0"))
                r.m = 4096; // a naive run at another size is no baseline
        RuntimeChart chart;
        chart.setRuns(runs);
        chart.setMode(RuntimeChart::Mode::Speedup);
        for (const SpeedupRow &r : chart.speedupRows())
            if (r.presetKey == QLatin1String("worklog-3")) {
                QVERIFY(!r.measuredSpeedup);
                QVERIFY2(r.note.contains(QStringLiteral("8192x4096x6144")), qPrintable(r.note));
            }
    }

    void selectionHighlightsTheBar()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        QVERIFY(!chart.selectionBar());
        chart.setSelectedRun(QStringLiteral("r3"));
        QVERIFY(chart.selectionBar());
        const double key = chart.selectionBar()->data()->at(0)->key;
        QCOMPARE(chart.runtimeSlotList()[int(key)].run->runId, QStringLiteral("r3"));
        QCOMPARE(chart.selectionBar()->data()->at(0)->value, 30.1);
        QCOMPARE(totalBars(chart), 4); // the highlight is not a run
    }

    // A selection's frame adds one entry to the legend; the rest of it is what the rows said when
    // they last changed. The first selection in a 100,000-run session went over every row again
    // for that one entry (38 ms of the first switch to Counters).
    void aSelectionReadsNoRowForTheLegend()
    {
        const QList<RunRecord> runs = test::loadFullLadder().runs;
        RuntimeChart chart;
        chart.setRuns(runs);
        layOut(chart);
        const auto legendTexts = [](const RuntimeChart &c) {
            QStringList out;
            const QCPLegend *legend = c.customPlot()->legend;
            for (int i = 0; i < legend->itemCount(); ++i)
                if (legend->item(i))
                    out << legendItemText(legend->item(i));
            return out;
        };
        const QStringList unselected = legendTexts(chart);
        const int reads = chart.legendRowReads();
        const QString id = runs.at(runs.size() / 2).runId;
        chart.setSelectedRun(id);
        QVERIFY(chart.selectionBar());
        QCOMPARE(chart.legendRowReads(), reads);
        RuntimeChart fresh; // given the runs and the selection at once
        fresh.setRuns(runs);
        fresh.setSelectedRun(id);
        QCOMPARE(legendTexts(chart), legendTexts(fresh));
        QVERIFY(legendTexts(chart).size() > unselected.size()); // the frame is explained
        chart.setSelectedRun(QString());
        QCOMPARE(legendTexts(chart), unselected);
        QCOMPARE(chart.legendRowReads(), reads);

        // Rows that changed without a settle (a run's conditions, its marks the same) are read
        // again at the next selection.
        qsizetype measured = 0;
        while (runs.at(measured).origin == QLatin1String("worklog"))
            ++measured;
        const int rebuilds = chart.rebuildCount();
        chart.runChanged(runs, measured);
        QCOMPARE(chart.rebuildCount(), rebuilds); // changed in place
        chart.setSelectedRun(id);
        QCOMPARE(chart.legendRowReads(), reads + 1);
    }

    void clickEmitsRunIdAndHoverExplains()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        layOut(chart);
        QSignalSpy spy(&chart, &RuntimeChart::runClicked);
        for (const QString &id : {QStringLiteral("r2"), QStringLiteral("r5")}) {
            const auto pixel = chart.pixelOfRun(id);
            QVERIFY(pixel);
            QTest::mouseClick(chart.customPlot(), Qt::LeftButton, {}, pixel->toPoint());
            QVERIFY(!spy.isEmpty());
            QCOMPARE(spy.last().at(0).toString(), id);
        }
        const QString tip = chart.tooltipAt(*chart.pixelOfRun(QStringLiteral("r2")));
        QVERIFY2(tip.contains(QStringLiteral("31.5 ms")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("of cuBLAS FP32")), qPrintable(tip));
        QVERIFY(chart.tooltipAt(*chart.pixelOfRun(QStringLiteral("r5")))
                    .contains(QStringLiteral("wrong_result")));
        QVERIFY(chart.runIdAt(QPointF(2, 2)).isEmpty()); // outside the axis rect
    }

    void shortTickLabels_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("label");
        QTest::newRow("step") << "worklog-3"
                              << "coalesced"
                              << "3";
        QTest::newRow("lettered step") << "worklog-5a"
                                       << "double_buffered"
                                       << "5a";
        QTest::newRow("bk8 variant") << "worklog-8-bk8"
                                     << "final"
                                     << "8/BK8";
        QTest::newRow("guide") << "guide-32"
                               << "smem_tiled"
                               << "G32";
        QTest::newRow("guide padded") << "guide-32-padded"
                                      << "smem_tiled"
                                      << "G32+1";
        QTest::newRow("cublas") << "cublas_fp32"
                                << "cublas_fp32"
                                << "cuBLAS FP32";
        QTest::newRow("tf32") << "cublas_tf32"
                              << "cublas_tf32"
                              << "cuBLAS TF32";
        QTest::newRow("past the worklog") << "fp32-tuned"
                                          << "pipelined"
                                          << "+tuned";
        // A preset past the worklog without a name of its own: "+" and its stage's short label.
        QTest::newRow("tensor cores") << "tf32-wgmma"
                                      << "wgmma_tf32"
                                      << "+wgmma";
        QTest::newRow("custom parameters") << ""
                                           << "coalesced"
                                           << "coal*";
    }

    void shortTickLabels()
    {
        QFETCH(QString, preset);
        QFETCH(QString, stage);
        QFETCH(QString, label);
        RuntimeChart chart;
        chart.setRuns({okRun("x", stage, preset, 10, 9, 11)});
        QCOMPARE(chart.runtimeSlotList().first().label, label);
        auto ticker = chart.keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0.0), label);
    }

    void plotsTheLatestGpuAndSizeGroup()
    {
        // Published T4 figures beside H200 runs: by default only the latest measured group.
        QList<RunRecord> runs = sampleRuns();
        RunRecord t4 = okRun("t4-0", "naive", "worklog-0", 956.41, 956.41, 956.41);
        t4.origin = QStringLiteral("worklog");
        t4.gpuName = QStringLiteral("NVIDIA T4 (published)");
        runs.prepend(t4);
        RuntimeChart chart;
        chart.setRuns(runs);
        QVERIFY(!chart.groupFilter().isEmpty());
        for (const RuntimeSlot &slot : chart.runtimeSlotList())
            QVERIFY2(slot.run->runId != QStringLiteral("t4-0"), "a T4 figure plotted in the H200 group");
        QCOMPARE(chart.runtimeSlotList().size(), 5);
        // 240 ms beside 8.15 ms is a 29x spread: logarithmic by itself (more than 20x).
        QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLogarithmic);
        // "All runs" mixes 956 ms with 8 ms: the scale is logarithmic too.
        chart.setGroupFilter(QString());
        QCOMPARE(chart.runtimeSlotList().size(), 6);
        QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLogarithmic);
        // Values within 20x of each other read best on a linear axis.
        RuntimeChart narrow;
        QList<RunRecord> close = sampleRuns();
        close.removeIf([](const RunRecord &r) { return r.presetKey == QLatin1String("worklog-0"); });
        narrow.setRuns(close);
        QCOMPARE(narrow.valueAxis()->scaleType(), QCPAxis::stLinear);
        // A scale the user picked stays.
        chart.setLogScale(false);
        chart.setRuns(runs);
        QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLinear);
    }

    void viewComboSwitchesModes()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        chart.viewCombo()->setCurrentIndex(2);
        emit chart.viewCombo()->activated(2);
        QCOMPARE(chart.mode(), RuntimeChart::Mode::Speedup);
        chart.viewCombo()->setCurrentIndex(1);
        emit chart.viewCombo()->activated(1);
        QCOMPARE(chart.mode(), RuntimeChart::Mode::Runtime);
        QCOMPARE(chart.valueMode(), RuntimeValue::Tflops);
        chart.setMode(RuntimeChart::Mode::Speedup);
        QCOMPARE(chart.viewCombo()->currentIndex(), 2);
    }

    // The whole H200 ladder (23 runs, 0.36 ms to 25 ms, plus the published T4 rows) at the
    // sizes the Ladder workspace gives a chart: the plot keeps half the height, the legend's entries
    // are at the application's font and never overprint, no two texts on the plot overlap, and the
    // spread (70x) turns the scale logarithmic by itself.
    void readableWithTheFullLadder_data() { test::addLadderSizes(); }
    void readableWithTheFullLadder()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        for (const RuntimeChart::Mode mode : {RuntimeChart::Mode::Runtime, RuntimeChart::Mode::Speedup}) {
            RuntimeChart chart;
            chart.setRuns(ladder.runs);
            chart.setMode(mode);
            chart.setSelectedRun(ladder.runs.last().runId);
            chart.resize(size);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            QCustomPlot *plot = chart.customPlot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            plot->replot(QCustomPlot::rpImmediateRefresh); // the labels placed after the first
            const QString what =
                mode == RuntimeChart::Mode::Runtime ? QStringLiteral("runtime") : QStringLiteral("speedup");
            test::saveShot(&chart,
                           QStringLiteral("runtime-%1-%2x%3").arg(what).arg(size.width()).arg(size.height()));
            if (mode == RuntimeChart::Mode::Runtime) {
                QCOMPARE(chart.runtimeSlotList().size(), 23); // the H200 group: every stage of the ladder
                QCOMPARE(chart.valueAxis()->scaleType(), QCPAxis::stLogarithmic);
                QVERIFY2(chart.valueAxis()->label().contains(QStringLiteral("log")),
                         qPrintable(chart.valueAxis()->label()));
            }
            const int plotHeight = plot->axisRect()->rect().height();
            QVERIFY2(
                plotHeight * 2 >= size.height(),
                qPrintable(
                    QStringLiteral("%1: plot %2 px of %3").arg(what).arg(plotHeight).arg(size.height())));
            // The legend: shown, at the application's font, no entry over another or over the plot.
            QCPLegend *legend = plot->legend;
            QVERIFY(legend->visible());
            QVERIFY(legend->itemCount() > 0);
            int entries = 0; // a legend wrapped in columns under the plot counts its empty cells too
            for (int i = 0; i < legend->itemCount(); ++i)
                entries += legend->item(i) != nullptr;
            QVERIFY2(entries <= 8, qPrintable(QString::number(entries)));
            QVERIFY2(legend->font().pointSizeF() >= QApplication::font().pointSizeF(),
                     qPrintable(QString::number(legend->font().pointSizeF())));
            QList<QRectF> rects{QRectF(plot->axisRect()->rect())};
            QStringList names{QStringLiteral("the plot")};
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (!legend->item(i))
                    continue;
                rects << QRectF(legend->item(i)->outerRect());
                auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
                names << (item ? item->plottable()->name() : QStringLiteral("legend item %1").arg(i));
                const QFontMetrics metrics(legend->font());
                QVERIFY2(legend->item(i)->outerRect().height() >= metrics.height(), qPrintable(names.last()));
            }
            QString overlap = test::firstOverlap(rects, names);
            QVERIFY2(overlap.isEmpty(), qPrintable(what + QStringLiteral(": ") + overlap));
            // The texts on the plot (values, marks) never overlap each other (their glyphs: a line's
            // box, its leading and descent, reaches into the next of rows 11 px apart) or a bar.
            QList<QRectF> labels, glyphs;
            QStringList labelNames;
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible()) {
                    labels << labelRect(text);
                    glyphs << labelGlyphRect(text);
                    labelNames << text->text();
                }
            overlap = test::firstOverlap(glyphs, labelNames);
            QVERIFY2(overlap.isEmpty(), qPrintable(what + QStringLiteral(": ") + overlap));
            // Clear of the axis line under the last row ("0.363 ms" stood on it at 1280x800).
            const int axisLine = plot->axisRect()->rect().bottom();
            for (int i = 0; i < labels.size(); ++i)
                QVERIFY2(labels[i].bottom() < axisLine,
                         qPrintable(what + QStringLiteral(": \"%1\" on the axis line").arg(labelNames[i])));
            for (const QRectF &bar : chart.barRects())
                for (int i = 0; i < labels.size(); ++i)
                    QVERIFY2(
                        !bar.adjusted(0.5, 0.5, -0.5, -0.5).intersects(labels[i]),
                        qPrintable(what + QStringLiteral(": label \"%1\" over a bar").arg(labelNames[i])));
            if (const QString shot = test::shotPath(QStringLiteral("runtime-%1-export.png").arg(what));
                !shot.isEmpty() && size == QSize(620, 390))
                QVERIFY(!chart.exportTo(shot));
        }
    }

    // At the Ladder's sizes the legend sits under the bars, not in a column beside them: there its
    // ~240 px left the stages' names too little room at 1280x800 and 1440x900 (names cut short) and
    // at 1920x1080 its few entries stood over a blank as high as the chart. The smallest chart
    // keeps it beside (under it, its rows would take the bars' height).
    void legendUnderTheBarsUnlessTheChartIsSmall_data() { test::addLadderSizes(); }
    void legendUnderTheBarsUnlessTheChartIsSmall()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const bool below = QByteArray(QTest::currentDataTag()) != "smallest";
        const QRect bars = plot->axisRect()->rect();
        QCPLegend *legend = plot->legend;
        QVERIFY(legend->visible());
        int entries = 0;
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (!item)
                continue;
            ++entries;
            const QRect at = item->outerRect();
            QVERIFY2(plot->rect().contains(at), qPrintable(legendItemText(item)));
            if (below)
                QVERIFY2(at.top() >= bars.bottom(), qPrintable(legendItemText(item)));
            else
                QVERIFY2(at.left() >= bars.right(), qPrintable(legendItemText(item)));
        }
        QVERIFY(entries > 0);
        if (below) {
            QVERIFY2(
                bars.right() >= plot->width() - 40,
                qPrintable(QStringLiteral("bars end at %1 of %2 px").arg(bars.right()).arg(plot->width())));
            // Its entries flow in two rows, not a grid's three: the rows keep the bars' height.
            QVERIFY2(legend->outerRect().height() <= 2 * (QFontMetrics(legend->font()).height() + 8),
                     qPrintable(QStringLiteral("legend %1 px high").arg(legend->outerRect().height())));
        }
        // Beside the bars when the chart shrinks, under them again when it grows.
        chart.resize(480, 300);
        QApplication::processEvents();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 0; i < legend->itemCount(); ++i)
            if (legend->item(i))
                QVERIFY(legend->item(i)->outerRect().left() >= plot->axisRect()->rect().right());
        chart.resize(size);
        QApplication::processEvents();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 0; i < legend->itemCount(); ++i)
            if (legend->item(i))
                QVERIFY(below ? legend->item(i)->outerRect().top() >= plot->axisRect()->rect().bottom()
                              : legend->item(i)->outerRect().left() >= plot->axisRect()->rect().right());
    }

    // The Ladder workspace at 1920x1080 gives the runtime chart half the width (~960 px): room to
    // name each bar's stage beside its code. A step named by a longer change ("6  Coalesced
    // cooperative loads: double buffering removed") left every bar with its code alone there.
    void fullLadderNamesStagesAtHalfA1920Window()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.resize(950, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        const auto ticker = chart.customPlot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker && !ticker->ticks().isEmpty());
        QVERIFY2(ticker->ticks().first().startsWith(QStringLiteral("0 — Naive")),
                 qPrintable(ticker->ticks().first()));
    }

    // The Ladder's runtime pane at 1280x800 and 1440x900 names every stage whole (at 1280 at most a
    // few of the longest cut short): the legend, in a column beside the bars, took ~240 px of the
    // width and left the names a third of the rest, so that "6 — Coalesced cooperative loads: la…"
    // and eight more were cut at both sizes. Every row keeps its name and the legend every entry.
    void fullLadderNamesWholeAtTheLadderSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("mostCut");
        QTest::newRow("1280x800") << QSize(620, 390) << 3;
        QTest::newRow("1440x900") << QSize(700, 440) << 0;
        QTest::newRow("1920x1080") << QSize(940, 530) << 0;
    }
    void fullLadderNamesWholeAtTheLadderSizes()
    {
        QFETCH(QSize, size);
        QFETCH(int, mostCut);
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.setSelectedRun(ladder.runs.last().runId); // the legend's longest form: the selection too
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QList<RuntimeSlot> rows = chart.runtimeSlotList();
        const auto ticker = chart.keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), rows.size()); // every row named
        QStringList cut;
        for (int row = 0; row < rows.size(); ++row) {
            const QString name = ticker->ticks().value(row);
            const QString whole = runtime_scene::longLabel(rows[row]);
            if (name == whole)
                continue;
            // Cut short, it still says its code and a readable part of its stage's name.
            QVERIFY2(name.endsWith(QStringLiteral("\u2026")) && whole.startsWith(name.chopped(1)) &&
                         name.size() > rows[row].label.size() + 3 + runtime_scene::kMinNameLetters,
                     qPrintable(name));
            cut << name;
        }
        QVERIFY2(cut.size() <= mostCut, qPrintable(QStringLiteral("%1 names cut: ").arg(cut.size()) +
                                                   cut.join(QStringLiteral(" | "))));
        // The names' column is as wide as its widest name, within the plot; the bars take the rest.
        const QRect bars = plot->axisRect()->rect();
        const QFontMetrics metrics(chart.keyAxis()->tickLabelFont());
        for (int row = 0; row < rows.size(); ++row)
            QVERIFY2(bars.left() - metrics.horizontalAdvance(ticker->ticks().value(row)) >= 0,
                     qPrintable(ticker->ticks().value(row)));
        // The legend still explains every mark, clear of the bars and inside the plot.
        QCPLegend *legend = plot->legend;
        QVERIFY(legend->visible());
        QStringList entries;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem *item = legend->item(i)) {
                entries << legendItemText(item);
                QVERIFY2(plot->rect().contains(item->outerRect()), qPrintable(entries.last()));
                QVERIFY2(!item->outerRect().intersects(bars), qPrintable(entries.last()));
            }
        for (const QString &expected : {QStringLiteral("whisker"), QStringLiteral("cuBLAS FP32: "),
                                        QStringLiteral("cuBLAS baselines"), QStringLiteral("selected run")})
            QVERIFY2(std::any_of(entries.cbegin(), entries.cend(),
                                 [&](const QString &e) { return e.contains(expected); }),
                     qPrintable(expected + QStringLiteral(" not in ") + entries.join(QStringLiteral(" | "))));
    }

    // The dashed cuBLAS FP32 line leaves a gap where it would cross a value: it ran through
    // "0.508 ms", "0.400 ms" and "0.363 ms" at 1280x800. At every width from the smallest chart to
    // a wide one, no value shown (nor a failure mark) has the line over its glyphs, and the line
    // still reads: drawn over most of the plot's height.
    void cublasLineLeavesTheValuesReadable()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        int crossedWhole = 0; // texts the whole line would cross: what the gaps are for
        for (int width = 480; width <= 1000; width += 20) {
            chart.resize(width, width < 560 ? 300 : 440);
            QApplication::processEvents();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            plot->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY(chart.referenceLine());
            const QRect bars = plot->axisRect()->rect();
            const double x = chart.valueAxis()->coordToPixel(chart.referenceLine()->point1->coords().x());
            const QLineF whole(x, bars.top(), x, bars.bottom());
            const QList<QLineF> drawn = chart.referenceLine()->drawnSegments();
            double length = 0;
            for (const QLineF &segment : drawn) {
                QVERIFY(std::abs(segment.x1() - x) < 0.5 && std::abs(segment.x2() - x) < 0.5);
                length += segment.length();
            }
            QVERIFY2(
                length >= 0.6 * bars.height(),
                qPrintable(
                    QStringLiteral("%1 of %2 px drawn at %3 px").arg(length).arg(bars.height()).arg(width)));
            for (int i = 0; i < plot->itemCount(); ++i) {
                auto *text = qobject_cast<QCPItemText *>(plot->item(i));
                if (!text || !text->visible() || text->text().isEmpty())
                    continue;
                const QRectF glyphs = labelGlyphRect(text);
                crossedWhole += segmentCrossesRect(whole, glyphs);
                for (const QLineF &segment : drawn)
                    QVERIFY2(!segmentCrossesRect(segment, glyphs),
                             qPrintable(QStringLiteral("the cuBLAS line crosses \"%1\" at %2 px")
                                            .arg(text->text())
                                            .arg(width)));
            }
        }
        QVERIFY2(crossedWhole > 0, "no width put a value on the line");
    }

    // The legend goes under the bars only where the rows keep a name's height with it there: the
    // 27-run H100 ladder in the Ladder's runtime pane at 1600x1000 had two legend lines under the
    // bars and named every other row; beside them, every row is named.
    void everyRowNamedWhereTheLegendBesideLeavesTheRoom_data()
    {
        QTest::addColumn<int>("height");
        QTest::newRow("950x380") << 380;
        QTest::newRow("950x400") << 400;
    }
    void everyRowNamedWhereTheLegendBesideLeavesTheRoom()
    {
        QFETCH(int, height);
        Session session;
        QString error;
        QVERIFY2(
            session.open(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h100-ladder-27-runs-4096.json"),
                         &error),
            qPrintable(error));
        RuntimeChart chart;
        chart.setRuns(session.runs());
        chart.resize(950, height);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        for (int i = 0; i < 3; ++i) { // the legend's place follows the last layout's rows
            QApplication::processEvents();
            plot->replot(QCustomPlot::rpImmediateRefresh);
        }
        const int rows = int(chart.runtimeSlotList().size());
        QCOMPARE(rows, 27);
        const auto ticker = chart.keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QVERIFY2(
            ticker->ticks().size() == rows,
            qPrintable(QStringLiteral("%1 of %2 rows named, %3 px a row, legend %4")
                           .arg(ticker->ticks().size())
                           .arg(rows)
                           .arg(double(plot->axisRect()->height()) / rows)
                           .arg(legendIsBeside(plot) ? QStringLiteral("beside") : QStringLiteral("below"))));
        QVERIFY(plot->legend->visible());
    }

    // A chart whose rows are about as high as a label (the Ladder's runtime pane at 1600x1000 with
    // a 27-run session: ~11 px a row) names every row by its code and (cut short where needed) its
    // stage's name, and writes every bar's value beside it: it showed codes alone and a value on
    // every other bar, each neighbour's hidden by the leading of the line above.
    void everyRowKeepsItsValueAndAName_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1600x1000") << 950; // the Ladder's runtime pane at these window sizes
        QTest::newRow("1280x800") << 620;
        QTest::newRow("1920x1080") << 940;
    }
    void everyRowKeepsItsValueAndAName()
    {
        QFETCH(int, width);
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.resize(width, 380);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        const QList<RuntimeSlot> rows = chart.runtimeSlotList();
        // Every height from rows too low for a name each to rows taller than a label: where every row
        // is named, each has its value, and its name beyond its code.
        int allNamed = 0;
        for (int height = 330; height <= 450; height += 3) {
            chart.resize(width, height);
            QApplication::processEvents();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const auto ticker = chart.keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker);
            const double rowPx = double(plot->axisRect()->height()) / rows.size();
            // Rows as high as the names' glyphs are all named (27 rows of 11.5 px at 1280x800 were
            // named every other, measured by the names' line with its leading).
            QVERIFY2(rowPx < 11 || ticker->ticks().size() == rows.size(),
                     qPrintable(QStringLiteral("%1 of %2 rows named, %3 px a row")
                                    .arg(ticker->ticks().size())
                                    .arg(rows.size())
                                    .arg(rowPx)));
            if (ticker->ticks().size() != rows.size())
                continue; // every other row named: its values beside the named rows only
            ++allNamed;
            for (int row = 0; row < rows.size(); ++row) {
                const QString name = ticker->ticks().value(row);
                QVERIFY2(
                    name.startsWith(rows[row].label) && name.size() > rows[row].label.size() + 4,
                    qPrintable(QStringLiteral("%1: a code alone at %2x%3").arg(name).arg(width).arg(height)));
            }
            QSet<int> valued;
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i));
                    text && text->visible() && text->text().contains(QStringLiteral(" ms")))
                    valued << int(std::lround(text->position->value()));
            for (int row = 0; row < rows.size(); ++row)
                if (rows[row].plotted)
                    QVERIFY2(valued.contains(row),
                             qPrintable(QStringLiteral("row %1 (%2) has no value at %3x%4, %5 px a row")
                                            .arg(row)
                                            .arg(rows[row].label)
                                            .arg(width)
                                            .arg(height)
                                            .arg(rowPx)));
        }
        QVERIFY(allNamed >= 5);
    }

    // With the whole ladder the bars are told apart. No whisker runs
    // into a value label (at least 3 px between a cap and its digits: "⊣0.508 ms" read as one
    // glyph), both baselines say cuBLAS at every width, no two neighbouring bars share a colour
    // (4, 5a, 5b were one cyan; +pipe, +tuned one teal), and a log axis that runs on past its last
    // label names a value near its end.
    void fullLadderBarsReadApart_data() { test::addLadderSizes(); }
    void fullLadderBarsReadApart()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        RuntimeChart chart;
        chart.setRuns(ladder.runs);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh);

        // Each whisker from its p20 to its p80 end, its caps' height.
        QList<QRectF> whiskers;
        for (int b = 0; b < chart.runBars().size(); ++b) {
            const QCPBars *bars = chart.runBars()[b];
            const QCPErrorBars *whisker = chart.whiskers()[b];
            const double half = whisker->whiskerWidth() / 2 + whisker->pen().widthF() / 2;
            for (int i = 0; i < bars->dataCount() && i < whisker->dataCount(); ++i) {
                const auto bar = bars->data()->at(i);
                const QCPErrorBarsData e = whisker->data()->at(i);
                const double low = chart.valueAxis()->coordToPixel(bar->value - e.errorMinus);
                const double high = chart.valueAxis()->coordToPixel(bar->value + e.errorPlus);
                const double y = chart.keyAxis()->coordToPixel(bar->key);
                whiskers << QRectF(QPointF(std::min(low, high) - 0.5, y - half),
                                   QPointF(std::max(low, high) + 0.5, y + half));
            }
        }
        QVERIFY(whiskers.size() >= 20);
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || !text->visible())
                continue;
            const QRectF glyphs = labelRect(text).marginsRemoved(QMarginsF(text->padding()));
            for (const QRectF &w : whiskers)
                QVERIFY2(!w.adjusted(-3, 0, 3, 0).intersects(glyphs),
                         qPrintable(QStringLiteral("whisker %1,%2 %3x%4 runs into \"%5\" at %6,%7")
                                        .arg(w.x())
                                        .arg(w.y())
                                        .arg(w.width())
                                        .arg(w.height())
                                        .arg(text->text())
                                        .arg(glyphs.x())
                                        .arg(glyphs.y())));
        }

        // Both cuBLAS rows say cuBLAS, whichever labels (short or long) the width chose.
        auto ticker = chart.keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QList<RuntimeSlot> ladderRows = chart.runtimeSlotList();
        int baselines = 0;
        for (int row = 0; row < ladderRows.size(); ++row) {
            const StageInfo *stage = findStage(ladderRows[row].run->stage.key());
            if (!stage || !stage->isLibrary)
                continue;
            ++baselines;
            const QString name = ticker->ticks().value(row);
            QVERIFY2(name.contains(QStringLiteral("cuBLAS")), qPrintable(name));
            QVERIFY2(name.contains(stage->precision == Precision::Tf32 ? QStringLiteral("TF32")
                                                                       : QStringLiteral("FP32")),
                     qPrintable(name));
        }
        QCOMPARE(baselines, 2);

        // Neighbouring bars differ in colour.
        QMap<int, QColor> colorOfRow;
        for (QCPBars *bars : chart.runBars())
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                colorOfRow.insert(int(std::lround(it->key)), bars->brush().color());
        QCOMPARE(colorOfRow.size(), 23);
        for (auto it = colorOfRow.cbegin(); std::next(it) != colorOfRow.cend(); ++it) {
            const QColor a = it.value(), b = std::next(it).value();
            const int distance =
                std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
            QVERIFY2(distance >= 60, qPrintable(QStringLiteral("rows %1 (%2) and %3 (%4): %5 %6")
                                                    .arg(it.key())
                                                    .arg(ladderRows.value(it.key()).label)
                                                    .arg(std::next(it).key())
                                                    .arg(ladderRows.value(std::next(it).key()).label)
                                                    .arg(a.name(), b.name())));
        }

        // The value axis: its last label no farther from the axis' end than a label's width.
        QCPAxis *values = chart.valueAxis();
        QCOMPARE(values->scaleType(), QCPAxis::stLogarithmic);
        QVector<double> ticks;
        QVector<QString> tickLabels;
        values->ticker()->generate(values->range(), QLocale(), QLatin1Char('g'), 6, ticks, nullptr,
                                   &tickLabels);
        QVERIFY(!ticks.isEmpty());
        const double gap =
            std::abs(values->coordToPixel(values->range().upper) - values->coordToPixel(ticks.last()));
        QVERIFY2(gap < 60, qPrintable(QStringLiteral("%1 px unlabelled after %2 (axis to %3)")
                                          .arg(gap)
                                          .arg(ticks.last())
                                          .arg(values->range().upper)));
    }

    // Views update incrementally: a run that arrives, starts, finishes and goes away
    // changes its own row. The other bars and whiskers stay the same objects, the chart is never
    // drawn again from all its runs, and after every step it shows what a chart given all the runs
    // at once shows.
    void aRunChangesOnlyItsOwnRow_data()
    {
        QTest::addColumn<QString>("templateId");
        QTest::newRow("mid-ladder (rows below move)") << QStringLiteral("12e7-10");
        QTest::newRow("cuBLAS FP32 (the reference moves)") << QStringLiteral("12e7-22");
    }
    void aRunChangesOnlyItsOwnRow()
    {
        QFETCH(QString, templateId);
        QList<RunRecord> runs = test::loadFullLadder().runs;
        RuntimeChart chart;
        chart.setRuns(runs);
        layOut(chart);
        const int rebuilds = chart.rebuildCount();
        const QList<QCPBars *> bars = chart.runBars();
        const QList<QCPErrorBars *> whiskers = chart.whiskers();
        RunRecord finished;
        for (const RunRecord &run : runs)
            if (run.runId == templateId)
                finished = run;
        QVERIFY(!finished.runId.isEmpty());
        finished.runId = QStringLiteral("new");
        finished.medianMs *= 0.8; // its own value: the reference line and the axis follow it
        finished.p20Ms *= 0.8;
        finished.p80Ms *= 0.8;
        RunRecord queued = finished;
        queued.status = RunStatus::Queued;
        queued.medianMs = queued.p20Ms = queued.p80Ms = 0;
        queued.tflops = 0;
        queued.gpuName.clear(); // not measured yet: it belongs to every group

        runs.append(queued);
        chart.runAdded(runs, runs.size() - 1);
        QVERIFY(sameAsGivenAll(chart, runs));
        RunRecord running = queued;
        running.status = RunStatus::Running;
        runs.last() = running;
        chart.runChanged(runs, runs.size() - 1);
        running.preliminaryMedianMs = finished.medianMs;
        runs.last() = running;
        chart.runChanged(runs, runs.size() - 1);
        QVERIFY(sameAsGivenAll(chart, runs));
        runs.last() = finished;
        chart.runChanged(runs, runs.size() - 1);
        QVERIFY(sameAsGivenAll(chart, runs));
        chart.setSelectedRun(QStringLiteral("new"));
        QVERIFY(chart.selectionBar());
        QCOMPARE(chart.selectionBar()->data()->at(0)->value, finished.medianMs);

        QCOMPARE(chart.rebuildCount(), rebuilds);
        QCOMPARE(chart.runBars(), bars); // its stage has bars already: no new plottable
        QCOMPARE(chart.whiskers(), whiskers);

        runs.removeLast();
        chart.runRemoved(runs, runs.size(), QStringLiteral("new"));
        QVERIFY(sameAsGivenAll(chart, runs));
        QVERIFY(!chart.selectionBar());
        QCOMPARE(chart.rebuildCount(), rebuilds);
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh); // draws what it holds
    }

    // The rows point at the runs they draw instead of copying them (a 100,000-run session's copies
    // were 120 MB): through the session's way of changing its list (the views let go of it, the
    // list changes in place, moves or shifts, the views take it again) each row still points at
    // its own run in the list it holds. Under AddressSanitizer a row left pointing into a freed
    // list fails here too.
    void rowsPointAtTheirRunsAsTheListChanges()
    {
        QList<RunRecord> runs = test::loadFullLadder().runs;
        runs.squeeze(); // the next run added moves the list
        RuntimeChart chart;
        chart.setRuns(runs);
        const auto pointAtTheirRuns = [&] {
            const QList<RuntimeSlot> rows = chart.runtimeSlotList();
            for (const RuntimeSlot &slot : rows) {
                if (!slot.run || slot.run < runs.constData() || slot.run >= runs.constData() + runs.size()) {
                    qWarning() << slot.runId << "points outside the list the chart holds";
                    return false;
                }
                if (slot.run->runId != slot.runId || slot.run != runs.constData() + slot.at) {
                    qWarning() << slot.runId << "points at" << slot.run->runId;
                    return false;
                }
            }
            return !rows.isEmpty();
        };
        QVERIFY(pointAtTheirRuns());
        const int rebuilds = chart.rebuildCount();

        RunRecord added = runs.first();
        for (const RunRecord &run : std::as_const(runs))
            if (run.isOk() && run.origin != QLatin1String("worklog"))
                added = run;
        added.runId = QStringLiteral("added");
        const auto changeAsTheSessionDoes = [&](auto change) {
            chart.runsAboutToChange(); // the chart holds no copy: the list changes in place
            change();
        };
        changeAsTheSessionDoes([&] {
            const RunRecord *before = runs.constData();
            runs.append(added);
            QVERIFY(runs.constData() != before); // moved: every row's pointer had to follow
            chart.runAdded(runs, runs.size() - 1);
        });
        QVERIFY(pointAtTheirRuns());
        changeAsTheSessionDoes([&] {
            runs.last().medianMs *= 0.9;
            runs.last().p20Ms *= 0.9;
            runs.last().p80Ms *= 0.9;
            chart.runChanged(runs, runs.size() - 1);
        });
        QVERIFY(pointAtTheirRuns());
        // A run from the middle: the runs after it move one place earlier.
        qsizetype middle = runs.size() / 2;
        while (!runs[middle].isOk())
            ++middle;
        const QString removedId = runs[middle].runId;
        changeAsTheSessionDoes([&] {
            runs.removeAt(middle);
            chart.runRemoved(runs, middle, removedId);
        });
        QVERIFY(pointAtTheirRuns());
        QCOMPARE(chart.rebuildCount(), rebuilds); // each change in place, not drawn afresh
        QVERIFY(sameAsGivenAll(chart, runs));
    }

    // With thousands of thin rows a value label spans hundreds of them: it still never sits over
    // a bar, checked against every bar drawn (the chart asks the rows' longest bar in the span).
    void valueLabelsStayOffTheBarsOfThousandsOfRows()
    {
        const QList<RunRecord> ladder = test::loadFullLadder().runs;
        QList<RunRecord> runs;
        for (int copy = 0; copy < 100; ++copy)
            for (RunRecord run : ladder) {
                run.runId += QStringLiteral("-%1").arg(copy);
                // Each stage's rows of unequal length: a label meets its neighbours' longer bars.
                const double slower = 1 + 0.08 * ((copy * 7) % 10);
                run.medianMs *= slower;
                run.p20Ms *= slower;
                run.p80Ms *= slower;
                run.tflops /= slower;
                runs << run;
            }
        RuntimeChart chart;
        chart.setRuns(runs);
        const QList<RuntimeSlot> rows = chart.runtimeSlotList();
        chart.setSelectedRun(rows[rows.size() / 2].run->runId);
        chart.resize(900, 700);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(rows.size() > 2000);
        QVERIFY(chart.selectionBar());
        const QList<QRectF> bars = chart.barRects(); // the selection's bar among them
        int shown = 0, hidden = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || text->text().isEmpty())
                continue;
            if (!text->visible()) {
                ++hidden;
                continue;
            }
            ++shown;
            const QRectF label = labelRect(text).adjusted(0.5, 0.5, -0.5, -0.5);
            for (const QRectF &bar : std::as_const(bars))
                QVERIFY2(!bar.intersects(label),
                         qPrintable(QStringLiteral("\"%1\" over a bar").arg(text->text())));
        }
        // Some values beside the longest bars of their span show; the others hide.
        QVERIFY2(shown > 0 && hidden > 0,
                 qPrintable(QStringLiteral("%1 shown, %2 hidden").arg(shown).arg(hidden)));
    }

    void exportsEveryFormat()
    {
        RuntimeChart chart;
        chart.setRuns(sampleRuns());
        layOut(chart);
        QTemporaryDir dir;
        for (const QString &suffix : {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg")}) {
            const QString path = dir.filePath(QStringLiteral("runtime.") + suffix);
            const auto error = chart.exportTo(path);
            QVERIFY2(!error, qPrintable(error.value_or(QString())));
            QVERIFY(QFileInfo(path).size() > 500);
        }
        QVERIFY(chart.exportTo(dir.filePath(QStringLiteral("runtime.bmp"))));
    }
};

QTEST_MAIN(TstRuntimeChart)
#include "tst_runtime_chart.moc"
