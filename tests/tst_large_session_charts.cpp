// The roofline and the runtime chart with a long session: what they put on the plot does not grow
// with the number of runs (one graph or bar set a stage and preset, capped labels), and selecting a
// run draws neither chart again; they share the session's records rather than copy them. Counted,
// not timed: the counts hold on any machine.
#include "chart_layout.h"
#include "roofline_chart.h"
#include "runtime_chart.h"
#include "support/full_ladder_roofline.h"

#include <QApplication>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;
using namespace gemmscope::test;

namespace {

constexpr int kLongSession = 10000;

// The ladder's runs repeated up to `count` runs, as scripts/big-session.py writes a session: each
// copy its own id and a throughput a little apart, so that the copies are not all one marker.
QList<RunRecord> repeatedLadder(const QList<RunRecord> &ladder, int count)
{
    QList<RunRecord> runs;
    runs.reserve(count);
    for (int i = 0; runs.size() < count; ++i) {
        RunRecord run = ladder[i % ladder.size()];
        const int round = i / int(ladder.size());
        run.runId = QStringLiteral("%1-r%2").arg(run.runId).arg(round);
        const double scale = 1.0 + 0.0005 * (round % 97);
        run.tflops *= scale;
        run.medianMs /= scale;
        run.p20Ms /= scale;
        run.p80Ms /= scale;
        runs << run;
    }
    return runs;
}

QString firstMeasuredRun(const QList<RunRecord> &runs)
{
    for (const RunRecord &run : runs)
        if (run.status == RunStatus::Ok && run.origin != QLatin1String("worklog"))
            return run.runId;
    return {};
}

// Every plottable with its data size: what selecting a run must leave as it was.
QList<std::pair<QCPAbstractPlottable *, int>> plottablesWithData(QCustomPlot *plot)
{
    QList<std::pair<QCPAbstractPlottable *, int>> out;
    for (int i = 0; i < plot->plottableCount(); ++i)
        out << std::pair(plot->plottable(i), plot->plottable(i)->interface1D()
                                                 ? plot->plottable(i)->interface1D()->dataCount()
                                                 : -1);
    return out;
}

} // namespace

class LargeSessionCharts : public QObject {
    Q_OBJECT

private slots:
    void theRooflineDrawsALongSessionWithAsManyGraphsAsTheLadder()
    {
        const FullLadder ladder = loadFullLadder();
        RooflineChart small;
        showRunsUnderTheirCeilings(small, ladder);
        const int ladderPlottables = small.customPlot()->plottableCount();
        const int ladderItems = small.customPlot()->itemCount();

        RooflineChart chart;
        const QList<RunRecord> runs = repeatedLadder(ladder.runs, kLongSession);
        chart.setRuns(runs);
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel);
        QCustomPlot *plot = chart.customPlot();
        // One graph a stage's preset and a kind of mark, however many runs: the ladder's own.
        QCOMPARE(plot->plottableCount(), ladderPlottables);
        // The labels are capped (150) and the joins are one item: far fewer than the runs.
        QVERIFY2(plot->itemCount() <= ladderItems + 150,
                 qPrintable(QStringLiteral("%1 items for %2 runs").arg(plot->itemCount()).arg(runs.size())));
    }

    void selectingARunLeavesTheRooflinesMarksAsTheyWere()
    {
        const FullLadder ladder = loadFullLadder();
        RooflineChart chart;
        const QList<RunRecord> runs = repeatedLadder(ladder.runs, kLongSession);
        chart.setRuns(runs);
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel);
        QCustomPlot *plot = chart.customPlot();
        const auto before = plottablesWithData(plot);
        const int rebuilds = chart.rebuildCount();
        const QString selected = firstMeasuredRun(runs);
        QVERIFY(!selected.isEmpty());

        // The first selection brings the ring and the legend's "selected run" entry ...
        chart.setSelectedRun(selected);
        QCOMPARE(chart.rebuildCount(), rebuilds);
        const auto after = plottablesWithData(plot);
        QVERIFY(after.size() > before.size()); // the ring (and the selected run's model disc)
        QCOMPARE(after.mid(0, before.size()), before);
        bool legendNamesIt = false;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto *item = qobject_cast<QCPAbstractLegendItem *>(plot->legend->item(i)))
                legendNamesIt = legendNamesIt || legendItemText(item) == QLatin1String("selected run");
        QVERIFY(legendNamesIt);
        QVERIFY(chart.pixelOfRun(selected));

        // ... and clearing it takes them away, again without drawing the runs afresh.
        chart.setSelectedRun(QString());
        QCOMPARE(chart.rebuildCount(), rebuilds);
        QCOMPARE(plottablesWithData(plot), before);
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto *item = qobject_cast<QCPAbstractLegendItem *>(plot->legend->item(i)))
                QVERIFY(legendItemText(item) != QLatin1String("selected run"));
    }

    void theRuntimeChartDrawsALongSessionWithAsManyBarSetsAsTheLadder()
    {
        const FullLadder ladder = loadFullLadder();
        RuntimeChart small;
        small.setRuns(ladder.runs);
        const int ladderPlottables = small.customPlot()->plottableCount();

        RuntimeChart chart;
        const QList<RunRecord> runs = repeatedLadder(ladder.runs, kLongSession);
        chart.setRuns(runs);
        QCustomPlot *plot = chart.customPlot();
        QCOMPARE(plot->plottableCount(), ladderPlottables);
        // Value labels and failure marks only for the bars there is room to label (400).
        QVERIFY2(plot->itemCount() <= 400 + 50,
                 qPrintable(QStringLiteral("%1 items for %2 runs").arg(plot->itemCount()).arg(runs.size())));

        const auto before = plottablesWithData(plot);
        const int rebuilds = chart.rebuildCount();
        chart.setSelectedRun(firstMeasuredRun(runs));
        chart.setSelectedRun(QString());
        QCOMPARE(chart.rebuildCount(), rebuilds);
        const auto after = plottablesWithData(plot);
        QCOMPARE(after.mid(0, before.size()), before);
    }

    void bothChartsShareTheSessionsRecordsInsteadOfCopyingThem()
    {
        // A copy of every record was ~110 MB a chart at 100,000 runs, and most of a big session's
        // time to show. The charts hold the very list they are given, after each change too.
        const FullLadder ladder = loadFullLadder();
        QList<RunRecord> runs = repeatedLadder(ladder.runs, 2000);
        runs.reserve(3000); // room for a run more, as the session keeps
        RooflineChart roofline;
        RuntimeChart runtime;
        const QList<PlotChart *> charts{&roofline, &runtime};
        for (PlotChart *chart : charts) {
            chart->setRuns(runs);
            QCOMPARE(chart->sharedRuns().constData(), runs.constData());
        }
        // The charts let go of the list before the session changes it, so that the change copies
        // no record (a write to a shared list copies it whole), and take it again with the change.
        for (PlotChart *chart : charts)
            chart->runsAboutToChange();
        const RunRecord *before = runs.constData();
        RunRecord added = ladder.runs.first();
        added.runId = QStringLiteral("added");
        runs.append(added);
        QCOMPARE(runs.constData(), before);
        for (PlotChart *chart : charts) {
            chart->runAdded(runs, runs.size() - 1);
            QCOMPARE(chart->sharedRuns().constData(), runs.constData());
            QCOMPARE(chart->sharedRuns().size(), runs.size());
        }
    }
};

QTEST_MAIN(LargeSessionCharts)
#include "tst_large_session_charts.moc"
