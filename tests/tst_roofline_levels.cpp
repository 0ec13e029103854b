// The hierarchical roofline: where the L2 and shared-memory bandwidths were measured,
// the roofline draws their roofs between the DRAM roof and the compute roof, and each run with
// counters once more per level at its measured intensity; each level is toggled (checkbox, context
// menu), the export shows exactly what the view shows, and without those ceilings (an old cache, the
// embedded session) nothing of it appears.
#include "chart_layout.h"
#include "plot_theme.h"
#include "roofline_chart.h"
#include "roofline_math.h"
#include "support/full_ladder.h"
#include "support/run_counters.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

// Illustrative H200-like figures (test data, not a measurement).
constexpr double kFma = 65.3, kDram = 4221, kL2 = 11000, kShared = 33000;
const QString kL2Color = QStringLiteral("#d95f02"), kL1Color = QStringLiteral("#1b9e77");

RunRecord runWithCounters(const QString &id, double dramAi, double l2Ai, std::optional<double> l1Ai)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = 8192;
    r.n = 4096;
    r.k = 6144;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.gpuName = QStringLiteral("NVIDIA H200");
    r.tflops = 13.7;
    r.medianMs = 2.0 * 8192 * 4096 * 6144 / (r.tflops * 1e12) * 1e3;
    QJsonObject counters{{"dram_read_bytes", 1e9}, {"dram_write_bytes", 1e8},  {"l2_bytes", 5e10},
                         {"flops", 4.12e11},       {"dram_intensity", dramAi}, {"l2_intensity", l2Ai},
                         {"kernels", 1},           {"metrics", QJsonObject{}}};
    if (l1Ai) {
        counters.insert(QStringLiteral("l1_bytes"), 1e11);
        counters.insert(QStringLiteral("shared_bytes"), 4e11);
        counters.insert(QStringLiteral("l1_intensity"), *l1Ai);
    }
    test::setCounters(r, counters);
    return r;
}

const RooflineChart::Roof *levelRoof(const RooflineChart &chart, MemoryLevel level)
{
    for (const RooflineChart::Roof &r : chart.roofs())
        if (r.level == level)
            return &r;
    return nullptr;
}

QList<RooflineChart::ChartPoint> pointsOf(const RooflineChart &chart, RooflineChart::PointKind kind)
{
    QList<RooflineChart::ChartPoint> out;
    for (const RooflineChart::ChartPoint &p : chart.points())
        if (p.kind == kind)
            out << p;
    return out;
}

int graphsWithShape(const RooflineChart &chart, QCPScatterStyle::ScatterShape shape)
{
    int markers = 0;
    for (int i = 0; i < chart.customPlot()->graphCount(); ++i)
        if (chart.customPlot()->graph(i)->scatterStyle().shape() == shape)
            markers += chart.customPlot()->graph(i)->dataCount();
    return markers;
}

QStringList legendTexts(const RooflineChart &chart)
{
    QStringList texts;
    for (int i = 0; i < chart.customPlot()->legend->itemCount(); ++i)
        texts << legendItemText(chart.customPlot()->legend->item(i));
    return texts;
}

// The points of every stroke in `color` in an SVG, left of `right` (the legend's icons sit right of
// the plot): each roof's polyline or path.
QList<QPointF> strokePoints(const QString &svg, const QString &color, double right)
{
    QList<QPointF> points;
    for (const QString &element : {QStringLiteral("path[^>]*d"), QStringLiteral("polyline[^>]*points")}) {
        const QRegularExpression re(
            QStringLiteral("<g fill=\"none\" stroke=\"%1\"[^>]*>\\s*<%2=\"([^\"]*)\"").arg(color, element));
        for (auto it = re.globalMatch(svg); it.hasNext();) {
            const QString text = it.next().captured(1);
            if (text.section(QLatin1Char(','), 0, 0)
                    .remove(QRegularExpression(QStringLiteral("[^0-9.-]")))
                    .toDouble() > right)
                continue;
            const QRegularExpression number(QStringLiteral("(-?[0-9.]+)[ ,](-?[0-9.]+)"));
            for (auto n = number.globalMatch(text); n.hasNext();) {
                const auto m = n.next();
                points << QPointF(m.captured(1).toDouble(), m.captured(2).toDouble());
            }
        }
    }
    return points;
}

QString exportSvg(RooflineChart &chart, const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    if (const auto error = chart.exportTo(path))
        qFatal("export failed: %s", qPrintable(*error));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(file.readAll());
}

} // namespace

class TestRooflineLevels : public QObject {
    Q_OBJECT

private slots:
    // Ceilings without the levels (an old runner or cache, the embedded session): the chart is as it
    // was — no level roof, no level marker even for runs whose counters carry an L2 intensity, no
    // toggle, the DRAM axis title.
    void nothingWithoutTheLevelsCeilings()
    {
        RooflineChart chart;
        chart.setRuns({runWithCounters(QStringLiteral("r1"), 20, 8, 0.9)});
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"));
        for (MemoryLevel level : {MemoryLevel::L2, MemoryLevel::L1Shared}) {
            QVERIFY(!chart.levelAvailable(level));
            QVERIFY(!levelRoof(chart, level));
            QVERIFY(chart.levelCheck(level)->isHidden());
        }
        QVERIFY(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL2).isEmpty());
        QVERIFY(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL1Shared).isEmpty());
        QCOMPARE(chart.points().size(), 2); // the run at the model's and at the DRAM intensity
        QCOMPARE(chart.customPlot()->xAxis->label(),
                 QStringLiteral("arithmetic intensity, AI (FLOP/byte of DRAM traffic)"));
        QVERIFY(!chart.points().at(1).tooltip.contains(QStringLiteral("L2")));
        // The GPU whose roofs are drawn is not the one the levels were measured on: none either.
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        QVERIFY(chart.levelAvailable(MemoryLevel::L2));
        QVERIFY(chart.setGpu(QStringLiteral("a100")));
        QVERIFY(!chart.levelAvailable(MemoryLevel::L2));
        QVERIFY(!levelRoof(chart, MemoryLevel::L2));
        QVERIFY(chart.levelCheck(MemoryLevel::L2)->isHidden());
    }

    // The picture: the L2 roof lies between the DRAM and the shared roofs, each its own
    // diagonal up to the compute roof, named in the legend and by its ridge label.
    void levelRoofsBetweenDramAndCompute()
    {
        RooflineChart chart;
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        const RooflineChart::Roof *l2 = levelRoof(chart, MemoryLevel::L2);
        const RooflineChart::Roof *shared = levelRoof(chart, MemoryLevel::L1Shared);
        QVERIFY(l2 && shared);
        QCOMPARE(l2->bandwidthGBs, kL2);
        QCOMPARE(shared->bandwidthGBs, kShared);
        QCOMPARE(l2->peakTflops, kFma);
        // Only the diagonal: it ends at its ridge on the compute roof.
        QCOMPARE(l2->graph->dataCount(), 2);
        const auto end = l2->graph->data()->constEnd() - 1;
        QVERIFY(qFuzzyCompare(end->key, roofline::ridgeIntensity(kFma, kL2)));
        QVERIFY(qFuzzyCompare(end->value, kFma));
        QVERIFY(qFuzzyCompare(l2->ridge->position->key(), roofline::ridgeIntensity(kFma, kL2)));
        // At any intensity left of the ridges, DRAM < L2 < shared.
        const RooflineChart::Roof *dram = nullptr;
        for (const RooflineChart::Roof &r : chart.roofs())
            if (!r.level && r.measured)
                dram = &r;
        QVERIFY(dram);
        const double ai = 0.5;
        QVERIFY(roofline::roofAt(ai, dram->peakTflops, dram->bandwidthGBs) <
                roofline::roofAt(ai, l2->peakTflops, l2->bandwidthGBs));
        QVERIFY(roofline::roofAt(ai, l2->peakTflops, l2->bandwidthGBs) <
                roofline::roofAt(ai, shared->peakTflops, shared->bandwidthGBs));
        // Distinct lines: colours of their own, solid.
        QCOMPARE(l2->graph->pen().color().name(), kL2Color);
        QCOMPARE(shared->graph->pen().color().name(), kL1Color);
        QVERIFY(l2->graph->pen().color() != dram->graph->pen().color());
        const QStringList legend = legendTexts(chart);
        QVERIFY2(legend.filter(QStringLiteral("L2 roof (measured)")).size() == 1,
                 qPrintable(legend.join('|')));
        QVERIFY2(legend.filter(QStringLiteral("L1/shared roof (measured)")).size() == 1,
                 qPrintable(legend.join('|')));
        QVERIFY2(legend.filter(QStringLiteral("11.0 TB/s")).size() == 1, qPrintable(legend.join('|')));
        QVERIFY(chart.customPlot()->xAxis->label().contains(QStringLiteral("L2")));
        QVERIFY(!chart.levelCheck(MemoryLevel::L2)->isHidden());
        QVERIFY(!chart.levelCheck(MemoryLevel::L1Shared)->isHidden());
    }

    // With a TF32 run on the chart, the levels' diagonals reach up to the measured tensor-core roof.
    void levelRoofsReachTheTensorRoof()
    {
        RunRecord tf32 = runWithCounters(QStringLiteral("t"), 60, 20, 2.0);
        tf32.stage = stageIdOf(QStringLiteral("mma_tf32"));
        tf32.params.clear();
        RooflineChart chart;
        chart.setRuns({tf32});
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 470, "wgmma.m64n256k8.tf32",
                                  kL2, kShared);
        const RooflineChart::Roof *shared = levelRoof(chart, MemoryLevel::L1Shared);
        QVERIFY(shared);
        QCOMPARE(shared->peakTflops, 470.0);
    }

    // A run with counters: one marker a level at its measured intensity, at its throughput, in its
    // stage's colour, the shape telling the level; the legend explains each shape; the tooltip names
    // every level's intensity and the share of that level's roof.
    void oneMarkerALevel()
    {
        RooflineChart chart;
        chart.setRuns({runWithCounters(QStringLiteral("r1"), 20, 8, 0.9),
                       runWithCounters(QStringLiteral("old"), 18, 7, std::nullopt)}); // before L1 bytes
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        const auto l2 = pointsOf(chart, RooflineChart::PointKind::RunMeasuredL2);
        const auto l1 = pointsOf(chart, RooflineChart::PointKind::RunMeasuredL1Shared);
        QCOMPARE(l2.size(), 2);
        QCOMPARE(l1.size(), 1); // the older run has no L1/shared intensity: no marker, nothing made up
        QCOMPARE(l2.first().intensity, 8.0);
        QCOMPARE(l2.first().tflops, 13.7);
        QCOMPARE(l1.first().intensity, 0.9);
        QCOMPARE(l1.first().runId, QStringLiteral("r1"));
        QVERIFY(l1.first().label.isEmpty()); // the run is labelled once, at its DRAM diamond
        QCOMPARE(graphsWithShape(chart, QCPScatterStyle::ssTriangle), 2);
        QCOMPARE(graphsWithShape(chart, QCPScatterStyle::ssTriangleInverted), 1);
        for (int i = 0; i < chart.customPlot()->graphCount(); ++i) {
            const QCPGraph *g = chart.customPlot()->graph(i);
            if (g->scatterStyle().shape() == QCPScatterStyle::ssTriangle)
                QCOMPARE(g->scatterStyle().brush().color(), stageColor(QStringLiteral("coalesced")));
        }
        const QStringList legend = legendTexts(chart);
        QVERIFY2(legend.contains(QStringLiteral("measured L2 AI (counters)")), qPrintable(legend.join('|')));
        QVERIFY2(legend.contains(QStringLiteral("measured L1/shared AI (counters)")),
                 qPrintable(legend.join('|')));
        const QString tip = l1.first().tooltip;
        QVERIFY2(tip.contains(QStringLiteral("AI measured at L2: 8 FLOP/B")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("AI measured at L1/shared: 0.9 FLOP/B")), qPrintable(tip));
        // 13.7 TFLOP/s at 0.9 FLOP/B under a 33 TB/s roof (29.7 TFLOP/s there): 46.1 %.
        QVERIFY2(
            tip.contains(QStringLiteral("46.1% of the L1/shared, measured roof at its L1/shared intensity")),
            qPrintable(tip));
        // Hovering a level's marker finds its run.
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh); // the labels placed after the first
        test::saveShot(&chart, QStringLiteral("roofline-levels-fp32"));
        const QPointF at(chart.customPlot()->xAxis->coordToPixel(0.9),
                         chart.customPlot()->yAxis->coordToPixel(13.7));
        QCOMPARE(chart.runIdAt(at), QStringLiteral("r1"));
    }

    // Toggling a level hides its roof and its markers (and only its own), from the checkbox, the
    // context menu or the setter; the checkbox follows; the window hears of it (levelsChanged).
    // With the levels' switches in its row, in a pane as narrow as the H200 window gave it
    // (1600x1000), the GPU choice still shows its whole text ("Auto (H200)", not "Auto (").
    void gpuChoiceKeepsItsTextBesideTheLevelSwitches()
    {
        RooflineChart chart;    // shown before the runs came: the choice read "Auto" then
        chart.resize(300, 380); // narrower than the row wants: the row gives way, not the GPU name
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setRuns({runWithCounters(QStringLiteral("r1"), 20, 8, 0.9)});
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        QCoreApplication::processEvents();
        auto *gpu = chart.findChild<QComboBox *>(QStringLiteral("rooflineGpuCombo"));
        QVERIFY(gpu);
        QVERIFY2(gpu->currentText().startsWith(QStringLiteral("Auto (")), qPrintable(gpu->currentText()));
        QVERIFY(!chart.levelCheck(MemoryLevel::L2)->isHidden());
        const int textWidth = gpu->fontMetrics().horizontalAdvance(gpu->currentText());
        QVERIFY2(gpu->width() > textWidth + 20, // the text and the arrow
                 qPrintable(QStringLiteral("%1 px for %2 px of text").arg(gpu->width()).arg(textWidth)));
    }

    void togglingALevelHidesItsRoofAndMarkers()
    {
        RooflineChart chart;
        chart.setRuns({runWithCounters(QStringLiteral("r1"), 20, 8, 0.9)});
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        QSignalSpy changed(&chart, &RooflineChart::levelsChanged);
        chart.levelCheck(MemoryLevel::L2)->click();
        QVERIFY(!chart.levelShown(MemoryLevel::L2));
        QCOMPARE(changed.size(), 1);
        QVERIFY(!levelRoof(chart, MemoryLevel::L2));
        QVERIFY(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL2).isEmpty());
        QCOMPARE(graphsWithShape(chart, QCPScatterStyle::ssTriangle), 0);
        QVERIFY(!legendTexts(chart).contains(QStringLiteral("measured L2 AI (counters)")));
        QVERIFY(!pointsOf(chart, RooflineChart::PointKind::RunMeasured)
                     .first()
                     .tooltip.contains(QStringLiteral("measured at L2")));
        QVERIFY(levelRoof(chart, MemoryLevel::L1Shared)); // the other level stays
        QCOMPARE(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL1Shared).size(), 1);
        QVERIFY(!chart.levelCheck(MemoryLevel::L2)->isHidden()); // still offered, unchecked
        QVERIFY(!chart.levelCheck(MemoryLevel::L2)->isChecked());

        // The context menu offers each measured level, checked as shown; triggering one toggles it.
        QMenu menu;
        chart.interaction()->populateMenu(menu, QPointF(5, 5));
        QAction *l1Toggle = nullptr;
        for (QAction *a : menu.actions())
            if (a->text().startsWith(QStringLiteral("L1/shared")))
                l1Toggle = a;
            else if (a->text().startsWith(QStringLiteral("L2")))
                QVERIFY(a->isCheckable() && !a->isChecked());
        QVERIFY(l1Toggle && l1Toggle->isCheckable() && l1Toggle->isChecked());
        l1Toggle->trigger();
        QVERIFY(!chart.levelShown(MemoryLevel::L1Shared));
        QVERIFY(!levelRoof(chart, MemoryLevel::L1Shared));
        QVERIFY(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL1Shared).isEmpty());
        QVERIFY(!chart.levelCheck(MemoryLevel::L1Shared)->isChecked());
        QCOMPARE(changed.size(), 2);
        QCOMPARE(chart.customPlot()->xAxis->label(),
                 QStringLiteral("arithmetic intensity, AI (FLOP/byte of DRAM traffic)"));

        // Shown again: as before.
        chart.setLevelShown(MemoryLevel::L2, true);
        chart.setLevelShown(MemoryLevel::L1Shared, true);
        QVERIFY(levelRoof(chart, MemoryLevel::L2) && levelRoof(chart, MemoryLevel::L1Shared));
        QCOMPARE(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL2).size(), 1);
        // The choice outlives the ceilings: cleared and set again, a hidden level stays hidden.
        chart.setLevelShown(MemoryLevel::L2, false);
        chart.clearMeasuredCeilings();
        QVERIFY(!levelRoof(chart, MemoryLevel::L1Shared));
        chart.setMeasuredCeilings(kFma, kDram, QStringLiteral("NVIDIA H200"), 0, {}, kL2, kShared);
        QVERIFY(!levelRoof(chart, MemoryLevel::L2));
        QVERIFY(levelRoof(chart, MemoryLevel::L1Shared));
    }

    // The export shows what the view shows: each level's roof in the file while it is shown, not
    // after it is toggled off; and every point of a level roof lies inside the axes (SVG has no
    // clipping here: the print layout cuts each roof to the view).
    void exportShowsExactlyTheShownLevels()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        chart.setRuns(ladder.runs);
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel, kL2, kShared);
        chart.resize(620, 390);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QTemporaryDir dir;
        const QString both = exportSvg(chart, dir, QStringLiteral("both.svg"));
        const QRectF axes = QRectF(chart.printAxisRect()).adjusted(-3, -3, 3, 3);
        for (const QString &color : {kL2Color, kL1Color}) {
            const QList<QPointF> points = strokePoints(both, color, axes.right());
            QVERIFY2(points.size() >= 2, qPrintable(color));
            for (const QPointF &p : points)
                QVERIFY2(axes.contains(p), qPrintable(QStringLiteral("%1 roof point %2,%3 outside the axes")
                                                          .arg(color)
                                                          .arg(p.x())
                                                          .arg(p.y())));
        }
        QVERIFY(both.contains(QStringLiteral("L2 roof (measured)")));
        if (const QString shot = test::shotPath(QStringLiteral("roofline-levels-export.png"));
            !shot.isEmpty())
            QVERIFY(!chart.exportTo(shot));

        chart.setLevelShown(MemoryLevel::L2, false);
        const QString shared = exportSvg(chart, dir, QStringLiteral("shared.svg"));
        QVERIFY(strokePoints(shared, kL2Color, 1e9).isEmpty());
        QVERIFY(!shared.contains(QStringLiteral("L2 roof (measured)")));
        QVERIFY(!strokePoints(shared, kL1Color, axes.right()).isEmpty());
        // And the view after the export is the view before it.
        QVERIFY(!levelRoof(chart, MemoryLevel::L2));
        QVERIFY(levelRoof(chart, MemoryLevel::L1Shared));
        const QString png = dir.filePath(QStringLiteral("levels.png"));
        QVERIFY(!chart.exportTo(png));
        QVERIFY(QFileInfo(png).size() > 1000);
    }

    // The whole H200 ladder with both levels at 1280x800: the levels' ridge labels stay clear of
    // every marker (the L2 triangles of the 23 runs included), every other label and every roof.
    void levelLabelsClearOfLinesAndPoints_data() { test::addLadderSizes(); }
    void levelLabelsClearOfLinesAndPoints()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        chart.setRuns(ladder.runs);
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel, kL2, kShared);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh); // the labels placed after the first
        test::saveShot(&chart, QStringLiteral("roofline-levels-%1x%2").arg(size.width()).arg(size.height()));
        QVERIFY2(pointsOf(chart, RooflineChart::PointKind::RunMeasuredL2).size() >= 16,
                 "the recorded ladder's counters carry L2 intensities");
        QList<QRectF> labels;
        QStringList names;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible()) {
                labels << labelRect(text).marginsRemoved(QMarginsF(text->padding()));
                names << text->text();
            }
        // Each level's line is named beside it (at the smallest size a name may give way: the legend
        // names the line too).
        for (const QString &level : {QStringLiteral("L2"), QStringLiteral("L1/shared")})
            QVERIFY2(names.count(level) == 1 || size == QSize(480, 300), qPrintable(names.join('|')));
        const QString overlap = test::firstOverlap(labels, names);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        const QList<QRectF> markers = chart.markerRects();
        for (int i = 0; i < labels.size(); ++i) {
            for (const QRectF &m : markers)
                QVERIFY2(!m.intersects(labels[i].adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("label \"%1\" over a marker").arg(names[i])));
            for (const QLineF &line : chart.roofSegments())
                QVERIFY2(!segmentCrossesRect(line, labels[i].adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("roof line through \"%1\"").arg(names[i])));
        }
    }
};

QTEST_MAIN(TestRooflineLevels)
#include "tst_roofline_levels.moc"
