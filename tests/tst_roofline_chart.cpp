// The roofline's arithmetic (roof, ridge, percent of roof) and what the chart draws from it: roofs
// and ridges at the right coordinates for every known GPU and for measured ceilings, runs at
// (predicted intensity, achieved TFLOP/s), measured intensities only where counters exist, the
// live predicted point following setPredicted, and the worklog's T4 steps.
#include "chart_layout.h"
#include "plot_theme.h"
#include "roofline_chart.h"
#include "roofline_math.h"
#include "run_color.h"
#include "runtime_series.h"
#include "support/full_ladder_roofline.h"
#include "support/run_counters.h"
#include "traffic_model.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

RunRecord okRun(const QString &id, const QString &stage, const QMap<QString, int> &params, double tflops)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.params = params;
    r.m = 8192;
    r.n = 4096;
    r.k = 6144;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.tflops = tflops;
    r.medianMs = 2.0 * 8192 * 4096 * 6144 / (tflops * 1e12) * 1e3;
    r.p20Ms = r.medianMs * 0.99;
    r.p80Ms = r.medianMs * 1.01;
    return r;
}

const QMap<QString, int> kTiles64{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};

ParamValues toParams(const QMap<QString, int> &m)
{
    ParamValues p;
    for (auto it = m.cbegin(); it != m.cend(); ++it)
        p[it.key().toStdString()] = it.value();
    return p;
}

const RooflineChart::Roof *roofNamed(const RooflineChart &chart, const QString &part)
{
    for (const RooflineChart::Roof &r : chart.roofs())
        if (r.label.contains(part))
            return &r;
    return nullptr;
}

// The roof graph's value at its data points (it is a polyline through them).
double graphValueAt(QCPGraph *graph, double key)
{
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        if (qFuzzyCompare(it->key, key))
            return it->value;
    return -1;
}

// Everything a roofline shows of its runs, as text: each point, each marker, each label's text,
// the title, the legend, the view.
// The key's entries (legend items that belong to no plottable), in order.
QStringList keyTexts(const RooflineChart &chart)
{
    QStringList texts;
    const QCPLegend *legend = chart.customPlot()->legend;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const auto *key = dynamic_cast<const KeyLegendItem *>(legend->item(i)))
            texts << key->text();
    return texts;
}

QStringList drawnRuns(const RooflineChart &chart)
{
    QStringList out;
    for (const RooflineChart::ChartPoint &p : chart.points())
        out << QStringLiteral("point %1 %2 %3 %4 %5 %6")
                   .arg(int(p.kind))
                   .arg(p.runId)
                   .arg(p.intensity)
                   .arg(p.tflops)
                   .arg(p.label, p.tooltip);
    QCustomPlot *plot = chart.customPlot();
    for (int i = 0; i < plot->graphCount(); ++i)
        for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
            out << QStringLiteral("marker %1 %2 %3").arg(plot->graph(i)->name()).arg(it->key).arg(it->value);
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            out << QStringLiteral("text %1").arg(text->text());
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        out << QStringLiteral("legend %1").arg(legendItemText(plot->legend->item(i)));
    out << chart.fullTitle()
        << QStringLiteral("view %1 %2 %3 %4")
               .arg(plot->xAxis->range().lower)
               .arg(plot->xAxis->range().upper)
               .arg(plot->yAxis->range().lower)
               .arg(plot->yAxis->range().upper);
    out.sort();
    return out;
}

// The runs a label names: "3", "6,7", or one line a run for markers too close to tell apart
// ("8: 20.6 TFLOP/s\n7: 20.3").
QSet<QString> namesIn(const QString &text)
{
    QSet<QString> names;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const qsizetype colon = line.indexOf(QStringLiteral(": "));
        for (const QString &part : (colon >= 0 ? line.left(colon) : line).split(QLatin1Char(',')))
            names << part.trimmed();
    }
    return names;
}

} // namespace

class TstRooflineChart : public QObject {
    Q_OBJECT

private slots:
    void roofMath_data()
    {
        QTest::addColumn<double>("intensity");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<double>("roof");
        QTest::addColumn<double>("ridge");
        // Worked by hand: T4 (8.1 TFLOP/s, 320 GB/s) and H200 (66.9, 4800).
        QTest::newRow("T4 naive, memory bound") << 0.25 << 8.1 << 320.0 << 0.08 << 25.3125;
        QTest::newRow("T4 64x64, memory bound") << 16.0 << 8.1 << 320.0 << 5.12 << 25.3125;
        QTest::newRow("T4 192x192, compute bound") << 48.0 << 8.1 << 320.0 << 8.1 << 25.3125;
        QTest::newRow("H200 at the ridge") << 13.9375 << 66.9 << 4800.0 << 66.9 << 13.9375;
    }
    void roofMath()
    {
        QFETCH(double, intensity);
        QFETCH(double, peak);
        QFETCH(double, bandwidth);
        QFETCH(double, roof);
        QFETCH(double, ridge);
        QVERIFY(qFuzzyCompare(roofline::roofAt(intensity, peak, bandwidth), roof));
        QVERIFY(qFuzzyCompare(roofline::ridgeIntensity(peak, bandwidth), ridge));
        QVERIFY(qFuzzyCompare(roofline::percentOfRoof(roof / 2, intensity, peak, bandwidth), 50.0));
    }

    void worklogThroughput()
    {
        // Step 8 on the T4: 412.3 GFLOP in 108.89 ms.
        QVERIFY(qFuzzyCompare(roofline::tflopsFor(roofline::kWorklogFlops, 108.89),
                              412316860416.0 / 0.10889 / 1e12));
        QCOMPARE(roofline::tflopsFor(1e12, 0), 0.0);
        QCOMPARE(roofline::percentOfRoof(1, 1, 0, 0), 0.0);
    }

    void datasheetRoofsAndRidges_data()
    {
        QTest::addColumn<QString>("key");
        for (const GpuSpec &spec : knownGpus())
            QTest::newRow(spec.key.c_str()) << QString::fromStdString(spec.key);
    }
    void datasheetRoofsAndRidges()
    {
        QFETCH(QString, key);
        const GpuSpec *spec = findGpu(key.toStdString());
        QVERIFY(spec);
        RooflineChart chart;
        QVERIFY(chart.setGpu(key.toUpper())); // case-insensitive
        QCOMPARE(chart.roofs().size(), 1);
        const RooflineChart::Roof &roof = chart.roofs().first();
        QVERIFY(!roof.measured);
        QCOMPARE(roof.graph->pen().style(), Qt::DashLine);
        const double ridge = spec->fp32Tflops * 1e3 / spec->dramGBs;
        QVERIFY(qFuzzyCompare(roof.ridge->position->key(), ridge));
        QVERIFY(qFuzzyCompare(roof.ridge->position->value(), spec->fp32Tflops));
        QVERIFY(qFuzzyCompare(graphValueAt(roof.graph, ridge), spec->fp32Tflops));
        // Left of the ridge the roof is bandwidth x intensity; right of it, the flat peak.
        QVERIFY(qFuzzyCompare(graphValueAt(roof.graph, 1e-3), 1e-3 * spec->dramGBs * 1e-3));
        QVERIFY(qFuzzyCompare(graphValueAt(roof.graph, 1e5), spec->fp32Tflops));
    }

    void unknownGpuIsRefused()
    {
        RooflineChart chart;
        QVERIFY(chart.setGpu("h200"));
        QVERIFY(!chart.setGpu("v100"));
        QCOMPARE(chart.gpu(), QStringLiteral("h200"));
        QVERIFY(RooflineChart::gpuKeys().contains("measured"));
    }

    void measuredCeilingsBesideTheDatasheet()
    {
        RooflineChart chart;
        chart.setMeasuredCeilings(64.2, 4100, QStringLiteral("NVIDIA H200"));
        QVERIFY(chart.setGpu("measured"));
        const auto *measured = roofNamed(chart, "measured");
        const auto *datasheet = roofNamed(chart, "H200 datasheet");
        QVERIFY(measured && datasheet);
        QVERIFY(measured->measured);
        QCOMPARE(measured->graph->pen().style(), Qt::SolidLine);
        QVERIFY(qFuzzyCompare(measured->ridge->position->key(), 64.2e3 / 4100));
        QVERIFY(qFuzzyCompare(measured->ridge->position->value(), 64.2));
        QCOMPARE(datasheet->peakTflops, findGpu("h200")->fp32Tflops);
    }

    void measuredGpuFallsBackToTheRunsDevice()
    {
        // Before ceilings are measured, "measured" shows the datasheet of the GPU the runs ran on.
        RooflineChart chart;
        QVERIFY(chart.roofs().isEmpty());
        RunRecord run = okRun("r1", "coalesced", kTiles64, 13.7);
        run.gpuName = QStringLiteral("NVIDIA A100-SXM4-80GB");
        chart.setRuns({run});
        QCOMPARE(chart.roofs().size(), 1);
        QCOMPARE(chart.roofs().first().peakTflops, findGpu("a100")->fp32Tflops);
    }

    void tensorRoofOnlyWithTensorCoreRuns()
    {
        RooflineChart chart;
        chart.setGpu("a100");
        chart.setRuns({okRun("r1", "cublas_fp32", {}, 18)});
        QVERIFY(!roofNamed(chart, "TF32"));
        chart.setRuns({okRun("r1", "cublas_fp32", {}, 18), okRun("r2", "cublas_tf32", {}, 120)});
        const auto *tensor = roofNamed(chart, "TF32");
        QVERIFY(tensor);
        QCOMPARE(tensor->peakTflops, findGpu("a100")->tf32Tflops);
    }

    void measuredTensorRoofBesideTheDatasheet()
    {
        RooflineChart chart;
        chart.setMeasuredCeilings(64.2, 4100, QStringLiteral("NVIDIA H200"), 330,
                                  QStringLiteral("mma.sync.m16n8k8.tf32"));
        QVERIFY(chart.setGpu("measured"));
        chart.setRuns({okRun("r1", "cublas_fp32", {}, 50)});
        QVERIFY(!roofNamed(chart, "mma.sync")); // no TF32 run: no TF32 roof squeezing the plot
        chart.setRuns({okRun("r1", "cublas_fp32", {}, 50), okRun("r2", "cublas_tf32", {}, 410)});
        const auto *measured = roofNamed(chart, "TF32 tensor roof (mma.sync, measured)");
        const auto *datasheet = roofNamed(chart, "H200 datasheet TF32");
        QVERIFY(measured && datasheet);
        QVERIFY(measured->measured);
        QCOMPARE(measured->peakTflops, 330.0);
        QCOMPARE(measured->graph->pen().style(), Qt::SolidLine);
        QVERIFY(qFuzzyCompare(measured->ridge->position->key(), 330e3 / 4100));
        QVERIFY(measured->graph->name().contains(QStringLiteral("mma.sync, measured")));
        QCOMPARE(datasheet->peakTflops, findGpu("h200")->tf32Tflops);

        // The TF32 run is judged against the TF32 roofs, the FP32 run against the measured FP32 roof.
        const QString fp32Tip = chart.points().at(0).tooltip, tf32Tip = chart.points().at(1).tooltip;
        QVERIFY2(fp32Tip.contains(QStringLiteral("of the measured roof")), qPrintable(fp32Tip));
        QVERIFY2(!fp32Tip.contains(QStringLiteral("TF32")), qPrintable(fp32Tip));
        QVERIFY2(tf32Tip.contains(QStringLiteral("of the mma.sync TF32, measured roof")),
                 qPrintable(tf32Tip));
        QVERIFY2(tf32Tip.contains(QStringLiteral("of the H200 datasheet TF32 roof")), qPrintable(tf32Tip));
        QVERIFY2(!tf32Tip.contains(QStringLiteral("of the measured roof")), qPrintable(tf32Tip));
        // 410 TFLOP/s at cuBLAS's compulsory intensity (far right of the ridge): 410 / 330 = 124.2 %.
        QVERIFY2(tf32Tip.contains(QStringLiteral("124.2% of the mma.sync")), qPrintable(tf32Tip));

        // Ceilings without a TF32 measurement (an older runner, sm_75): the datasheet's TF32 roof only.
        chart.setMeasuredCeilings(64.2, 4100, QStringLiteral("NVIDIA H200"));
        QVERIFY(!roofNamed(chart, "mma.sync"));
        QVERIFY(roofNamed(chart, "H200 datasheet TF32"));
    }

    // On Hopper the runner measures the TF32 roof with wgmma: the roof, its legend entry and the
    // run's tooltip say so, and a run below it is judged against it.
    void wgmmaMeasuredTensorRoofNamesIt()
    {
        RooflineChart chart;
        chart.setMeasuredCeilings(64.2, 4100, QStringLiteral("NVIDIA H200"), 470,
                                  QStringLiteral("wgmma.m64n256k8.tf32"));
        QVERIFY(chart.setGpu("measured"));
        chart.setRuns({okRun("r1", "cublas_tf32", {}, 410)});
        const auto *measured = roofNamed(chart, "TF32 tensor roof (wgmma, measured)");
        QVERIFY(measured);
        QVERIFY(!roofNamed(chart, "mma.sync"));
        QCOMPARE(measured->peakTflops, 470.0);
        QVERIFY2(measured->graph->name().contains(QStringLiteral("wgmma, measured")),
                 qPrintable(measured->graph->name()));
        const QString tip = chart.points().at(0).tooltip;
        // 410 / 470 = 87.2 % at cuBLAS's compulsory intensity, far right of the ridge.
        QVERIFY2(tip.contains(QStringLiteral("87.2% of the wgmma TF32, measured roof")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("mma.sync")), qPrintable(tip));

        // A TF32 figure whose kernel is not named (a hand-edited session): "measured", no instruction.
        chart.setMeasuredCeilings(64.2, 4100, QStringLiteral("NVIDIA H200"), 470);
        QVERIFY(roofNamed(chart, "TF32 tensor roof (measured)"));
        QVERIFY(!roofNamed(chart, "wgmma"));
        QVERIFY2(chart.points().at(0).tooltip.contains(QStringLiteral("of the TF32, measured roof")),
                 qPrintable(chart.points().at(0).tooltip));
    }

    void runAtPredictedIntensity()
    {
        RooflineChart chart;
        chart.setGpu("h200");
        chart.setRuns({okRun("r1", "coalesced", kTiles64, 13.7)});
        const auto expected = estimateTraffic(StageId::Coalesced, toParams(kTiles64), ProblemSize{});
        QCOMPARE(chart.points().size(), 1);
        const auto &p = chart.points().first();
        QCOMPARE(p.kind, RooflineChart::PointKind::RunPredicted);
        QCOMPARE(p.runId, QStringLiteral("r1"));
        QCOMPARE(p.intensity, expected.intensity);
        QCOMPARE(p.tflops, 13.7);
        QVERIFY(p.tooltip.contains(QString::fromStdString(expected.formula)));
        QVERIFY(p.tooltip.contains(QStringLiteral("of the H200 datasheet roof")));
    }

    void failedAndPublishedRunsAreNotPoints()
    {
        RunRecord failed = okRun("r2", "naive", {{"BX", 16}, {"BY", 16}}, 1);
        failed.status = RunStatus::Failed;
        RunRecord published = okRun("w", "final", {}, 3.8);
        published.origin = QStringLiteral("worklog");
        RooflineChart chart;
        chart.setRuns({failed, published});
        QVERIFY(chart.points().isEmpty());
    }

    void countersNoteWithoutCounterData()
    {
        RooflineChart chart;
        chart.setRuns({okRun("r1", "coalesced", kTiles64, 13.7)});
        QVERIFY(chart.countersNote());
        QVERIFY(chart.countersNote()->text().contains(QStringLiteral("hardware counters not available")));

        RunRecord withCounters = okRun("r1", "coalesced", kTiles64, 13.7);
        test::setCounters(withCounters, QJsonObject{{QStringLiteral("dram_intensity"), 9.5}});
        chart.setRuns({withCounters});
        QVERIFY(!chart.countersNote());
        QCOMPARE(chart.points().size(), 2);
        const auto &measured = chart.points().at(1);
        QCOMPARE(measured.kind, RooflineChart::PointKind::RunMeasured);
        QCOMPARE(measured.intensity, 9.5);
        QCOMPARE(measured.tflops, 13.7);
    }

    void countersNoteGivesTheRunnersReason()
    {
        RunRecord run = okRun("r1", "coalesced", kTiles64, 13.7);
        test::setCounters(run,
                          QJsonObject{{QStringLiteral("error"), QStringLiteral("profiling needs root")}});
        RooflineChart chart;
        chart.setRuns({run});
        QVERIFY(chart.countersNote());
        QVERIFY(chart.countersNote()->text().contains(QStringLiteral("profiling needs root")));
    }

    void predictedPointFollowsSettings()
    {
        RooflineChart chart;
        chart.setGpu("t4");
        QVERIFY(!chart.predictedPoint());
        const ProblemSize size;
        chart.setPredicted(StageId::Naive, defaultParams(StageId::Naive), size);
        const auto naive = chart.predictedPoint();
        QVERIFY(naive);
        const double naiveAi = estimateTraffic(StageId::Naive, defaultParams(StageId::Naive), size).intensity;
        QCOMPARE(naive->x(), naiveAi);
        const GpuSpec *t4 = findGpu("t4");
        QVERIFY(qFuzzyCompare(naive->y(), roofline::roofAt(naiveAi, t4->fp32Tflops, t4->dramGBs)));

        chart.setPredicted(StageId::Coarsened, toParams(kTiles64), size);
        const auto tiled = chart.predictedPoint();
        QVERIFY(tiled);
        QCOMPARE(tiled->x(), estimateTraffic(StageId::Coarsened, toParams(kTiles64), size).intensity);
        QVERIFY(tiled->x() > naive->x());
        chart.clearPredicted();
        QVERIFY(!chart.predictedPoint());
    }

    void worklogStepsOnTheT4Roof()
    {
        RooflineChart chart;
        chart.setGpu("h200");
        chart.setShowWorklogT4(true);
        QVERIFY(roofNamed(chart, "T4 datasheet"));
        int expected = 0;
        for (const Preset &p : presets()) {
            if (!p.worklogT4Ms)
                continue;
            ++expected;
            const double tflops = roofline::tflopsFor(roofline::kWorklogFlops, *p.worklogT4Ms);
            const double ai = estimateTraffic(p.stage, p.params, ProblemSize{}).intensity;
            const bool found =
                std::any_of(chart.points().cbegin(), chart.points().cend(), [&](const auto &pt) {
                    return pt.kind == RooflineChart::PointKind::WorklogT4 && pt.intensity == ai &&
                           pt.tflops == tflops;
                });
            QVERIFY2(found, p.key.c_str());
        }
        QCOMPARE(chart.points().size(), expected);
        chart.setShowWorklogT4(false);
        QVERIFY(chart.points().isEmpty());
    }

    void defaultViewShowsTheUsefulRange()
    {
        // 0.1..2000 FLOP/B and 0.1 TFLOP/s up to 1.3 x the highest roof drawn, ending on the 1-2-5
        // value at or above it (an axis ending at "900" or "6000" read as odd).
        RooflineChart chart;
        QVERIFY(chart.setGpu(QStringLiteral("h200")));
        const double peak = findGpu("h200")->fp32Tflops; // 66.9: 1.3 x is 87
        QCOMPARE(chart.customPlot()->xAxis->range().lower, 0.1);
        QCOMPARE(chart.customPlot()->xAxis->range().upper, 2000.0);
        QCOMPARE(chart.customPlot()->yAxis->range().lower, 0.1);
        QVERIFY(chart.customPlot()->yAxis->range().upper >= 1.3 * peak);
        QVERIFY(qFuzzyCompare(chart.customPlot()->yAxis->range().upper, 100.0));
        // With the full ladder drawn, both ends are 1-2-5 values too.
        const test::FullLadder ladder = test::loadFullLadder();
        QVERIFY(!test::showFullLadder(chart, ladder).isEmpty());
        for (const QCPAxis *axis : {chart.customPlot()->xAxis, chart.customPlot()->yAxis}) {
            const double upper = axis->range().upper;
            const double mantissa = upper / std::pow(10.0, std::floor(std::log10(upper) + 1e-9));
            QVERIFY2(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
                         std::abs(mantissa - 5) < 1e-6,
                     qPrintable(QString::number(upper)));
        }
    }

    void controlsFollowTheSetters()
    {
        RooflineChart chart;
        QVERIFY(chart.setGpu(QStringLiteral("b200")));
        QCOMPARE(chart.gpuCombo()->currentData().toString(), QStringLiteral("b200"));
        chart.gpuCombo()->setCurrentIndex(chart.gpuCombo()->findData(QStringLiteral("t4")));
        emit chart.gpuCombo()->activated(chart.gpuCombo()->currentIndex());
        QCOMPARE(chart.gpu(), QStringLiteral("t4"));
        chart.worklogCheck()->setChecked(true);
        QVERIFY(chart.showWorklogT4());
        QVERIFY(std::any_of(chart.points().cbegin(), chart.points().cend(),
                            [](const auto &p) { return p.kind == RooflineChart::PointKind::WorklogT4; }));
    }

    void overlappingPointsShareOneLabel()
    {
        // Two runs at the same intensity and nearly the same throughput: their markers lie on each
        // other (about a pixel apart), one hides the other. One label names both, top (faster)
        // first; named apart, nothing said that the marker seen was both.
        RooflineChart chart;
        chart.setGpu(QStringLiteral("h200"));
        RunRecord a = okRun("a", "coalesced", kTiles64, 10.0);
        a.presetKey = QStringLiteral("worklog-3");
        RunRecord b = okRun("b", "double_buffered", kTiles64, 10.2);
        b.presetKey = QStringLiteral("worklog-4");
        chart.setRuns({a, b});
        chart.resize(620, 390);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QStringList texts;
        for (int i = 0; i < chart.customPlot()->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(chart.customPlot()->item(i));
                text && text->visible())
                texts << text->text();
        QVERIFY2(texts.contains(QStringLiteral("4, 3")), qPrintable(texts.join(QLatin1Char('|'))));
        const auto shared =
            std::find_if(chart.labelLayout().cbegin(), chart.labelLayout().cend(),
                         [](const RooflineChart::LabelLayout &l) { return l.anchors.size() == 2; });
        QVERIFY(shared != chart.labelLayout().cend());
    }

    void sceneFrameMapsAsThePlotDraws()
    {
        // The label scene works out pixels from the axis rect and the ranges: where it puts a mark
        // is where the plot draws it, or every text would be placed against marks elsewhere.
        RooflineChart chart;
        chart.setMeasuredCeilings(65.3, 4260, QStringLiteral("NVIDIA H200"));
        chart.setRuns(
            {okRun("a", "coalesced", kTiles64, 10.0), okRun("b", "naive", {{"BX", 16}, {"BY", 16}}, 0.9)});
        chart.resize(700, 450);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const roofline_scene::PlotFrame frame{plot->axisRect()->rect(), plot->xAxis->range().lower,
                                              plot->xAxis->range().upper, plot->yAxis->range().lower,
                                              plot->yAxis->range().upper};
        QVERIFY(!chart.points().isEmpty());
        for (const RooflineChart::ChartPoint &p : chart.points()) {
            const QPointF drawn(plot->xAxis->coordToPixel(p.intensity), plot->yAxis->coordToPixel(p.tflops));
            QVERIFY2(QLineF(frame.pixelOf(p.intensity, p.tflops), drawn).length() < 1e-6,
                     qPrintable(QStringLiteral("%1, %2").arg(p.intensity).arg(p.tflops)));
        }
    }

    void markerModelIsWhatThePlotDraws()
    {
        // The label scene keeps clear of the markers the model holds (roofline_marker_layers.h), not
        // of the plot's graphs: the two must say the same, marker for marker and in drawing order,
        // whatever the options, the selection or the panel's settings make of them.
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        QVERIFY(!test::showFullLadder(chart, ladder).isEmpty());
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        const auto drawnRects = [&] {
            QList<QRectF> rects;
            for (int i = 0; i < plot->graphCount(); ++i) {
                QCPGraph *graph = plot->graph(i);
                const QCPScatterStyle style = graph->scatterStyle();
                if (!graph->visible() || style.isNone() || graph->lineStyle() != QCPGraph::lsNone)
                    continue;
                const double r = style.size() / 2 + style.pen().widthF() / 2 + 0.5;
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                    const QPointF at(plot->xAxis->coordToPixel(it->key),
                                     plot->yAxis->coordToPixel(it->value));
                    rects << QRectF(at - QPointF(r, r), QSizeF(2 * r, 2 * r));
                }
            }
            for (const RooflineChart::Roof &roof : chart.roofs()) {
                const QPointF at = roof.ridge->position->pixelPosition();
                rects << QRectF(at - QPointF(3.5, 3.5), QSizeF(7, 7));
            }
            return rects;
        };
        const auto sameRects = [](const QList<QRectF> &a, const QList<QRectF> &b) {
            if (a.size() != b.size())
                return false;
            for (qsizetype i = 0; i < a.size(); ++i)
                if (QLineF(a[i].center(), b[i].center()).length() > 1e-6 ||
                    std::abs(a[i].width() - b[i].width()) > 1e-9)
                    return false;
            return true;
        };
        const auto check = [&](const char *what) {
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const QList<QRectF> model = chart.markerRects(), drawn = drawnRects();
            QVERIFY2(sameRects(model, drawn),
                     qPrintable(QStringLiteral("%1: %2 markers in the model, %3 drawn")
                                    .arg(QLatin1String(what))
                                    .arg(model.size())
                                    .arg(drawn.size())));
        };
        check("the ladder, one run selected");
        chart.setShowModelIntensity(true);
        check("every model disc");
        chart.setShowModelIntensity(false);
        chart.setSelectedRun(QString());
        check("nothing selected");
        chart.setShowWorklogT4(true);
        check("the worklog's steps");
        chart.clearPredicted();
        check("no panel settings");
    }

    // Every marker in the legend is drawn whole: its icon's edge rows are blank, where a marker
    // taller than the icon (the panel's settings' 15 px circle, the selection ring, in a legend of
    // 9 px icons) was cut flat at both.
    void legendMarkersAreWhole_data() { test::addLadderSizes(); }
    void legendMarkersAreWhole()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        QVERIFY(!test::showFullLadder(chart, ladder).isEmpty());
        // Settings no run of the ladder ran: their circle is drawn, and named in the legend.
        const Preset *current = findPreset("worklog-8");
        QVERIFY(current);
        chart.setPredicted(current->stage, current->params, ProblemSize{2048, 2048, 2048});
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        test::saveShot(&chart, QStringLiteral("roofline-legend-%1x%2").arg(size.width()).arg(size.height()));
        const QImage image = plot->toPixmap(plot->width(), plot->height(), 1.0).toImage();
        QStringList keys;
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            const auto *key = qobject_cast<KeyLegendItem *>(plot->legend->item(i));
            if (!key)
                continue;
            keys << key->text();
            const QRect icon = key->iconRect();
            QVERIFY(image.rect().contains(icon));
            int inked = 0; // the marker is there at all
            for (int y = icon.top(); y <= icon.bottom(); ++y)
                for (int x = icon.left(); x <= icon.right(); ++x) {
                    const bool ink = qGray(image.pixel(x, y)) < 200;
                    inked += ink;
                    QVERIFY2(!ink || (y != icon.top() && y != icon.bottom()),
                             qPrintable(QStringLiteral("\"%1\": its marker is cut at the icon's edge, row %2")
                                            .arg(key->text())
                                            .arg(y - icon.top())));
                }
            QVERIFY2(inked >= 10, qPrintable(key->text()));
        }
        QVERIFY2(
            std::any_of(keys.cbegin(), keys.cend(),
                        [](const QString &k) { return k.startsWith(QStringLiteral("panel's settings")); }),
            qPrintable(keys.join(QLatin1Char('|'))));
        QVERIFY2(keys.contains(QStringLiteral("selected run")), qPrintable(keys.join(QLatin1Char('|'))));
    }

    void legendStaysInTheWindowAtEveryWidth()
    {
        // The legend has its own row under the plot: shown at any width, hidden only on request.
        RooflineChart chart;
        chart.setGpu(QStringLiteral("h200"));
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QVERIFY(chart.legendShown());
        chart.resize(380, 400);
        QTest::qWait(50);
        QVERIFY(chart.legendShown());
        chart.setLegendVisible(false);
        QVERIFY(!chart.legendShown());
    }

    // The whole H200 ladder (23 runs, each with its counter-measured intensity) on its
    // measured and datasheet roofs, one run selected and the panel's current settings drawn, at the
    // sizes the Ladder workspace gives a chart. Every run's two markers are named without hovering
    // (a label of their own or one shared by points on the same spot), no label overlaps another,
    // a marker, a roof line, the selection or the current-settings circle; the measured markers wear
    // their stage's colour; the plot keeps half the height and the legend is legible.
    void readableWithTheFullLadder_data() { test::addLadderSizes(); }
    // Views update incrementally: a run that finishes adds its own points, a slider tick
    // moves the live point and a new selection moves the ring. Nothing is drawn again from all the
    // runs, the other plottables stay the same objects, and the chart shows what a chart given
    // everything at once shows.
    // The panel's settings are drawn as a hollow circle "not run" only while no drawn run ran them:
    // beside the run's own diamond it contradicted it (the panel on step 3 put a circle on the FP32
    // ridge at 4x the run's speed). A slider tick off and back on toggles it without a rebuild,
    // and a run finishing with those settings takes it away.
    void panelSettingsThatRanAreTheirRun()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        QList<RunRecord> runs = ladder.runs;
        const ProblemSize size{4096, 4096, 4096};
        const Preset *step3 = findPreset("worklog-3");
        QVERIFY(step3);
        RooflineChart chart;
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel);
        chart.setRuns(runs);
        chart.setPredicted(step3->stage, step3->params, size);
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const auto legendHasCircle = [&chart] {
            QCPLegend *legend = chart.customPlot()->legend;
            for (int i = 0; i < legend->itemCount(); ++i)
                if (legendItemText(legend->item(i)).startsWith(QStringLiteral("panel's settings")))
                    return true;
            return false;
        };
        QVERIFY(!chart.predictedPoint());
        QVERIFY(!legendHasCircle());

        const int rebuilds = chart.rebuildCount();
        ParamValues other = step3->params;
        other["BK"] = 16; // not in the ladder
        chart.setPredicted(step3->stage, other, size);
        QVERIFY(chart.predictedPoint());
        QVERIFY(legendHasCircle());
        chart.setPredicted(step3->stage, step3->params, size);
        QVERIFY(!chart.predictedPoint());
        QCOMPARE(chart.rebuildCount(), rebuilds);

        // A run of the other settings finishes: its circle gives way to it.
        chart.setPredicted(step3->stage, other, size);
        QVERIFY(chart.predictedPoint());
        RunRecord ran;
        for (const RunRecord &run : runs)
            if (run.presetKey == QLatin1String("worklog-3"))
                ran = run;
        QVERIFY(!ran.runId.isEmpty());
        ran.runId = QStringLiteral("bk16");
        ran.params[QStringLiteral("BK")] = 16;
        runs.append(ran);
        chart.runAdded(runs, runs.size() - 1);
        QVERIFY(!chart.predictedPoint());
        QVERIFY(!legendHasCircle());
    }

    void aFinishedRunAddsOnlyItsOwnPoints()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        QList<RunRecord> runs = ladder.runs;
        const Preset *current = findPreset("worklog-8");
        QVERIFY(current);
        const ProblemSize size{4096, 4096, 4096};
        const auto setUp = [&](RooflineChart &chart) {
            chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel,
                                      ladder.tf32Tflops, ladder.tf32Kernel);
            chart.setPredicted(current->stage, current->params, size);
            chart.setSelectedRun(QStringLiteral("12e7-4"));
        };
        RooflineChart chart;
        setUp(chart);
        chart.setRuns(runs);
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        const int rebuilds = chart.rebuildCount();
        QList<QCPAbstractPlottable *> plottables;
        for (int i = 0; i < chart.customPlot()->plottableCount(); ++i)
            plottables << chart.customPlot()->plottable(i);

        RunRecord finished; // the warp-tiled stage again, faster: a new marker of an existing stage
        for (const RunRecord &run : runs)
            if (run.runId == QLatin1String("12e7-15"))
                finished = run;
        QVERIFY(!finished.runId.isEmpty());
        finished.runId = QStringLiteral("new");
        finished.tflops *= 1.1;
        RunRecord queued = finished;
        queued.status = RunStatus::Queued;
        queued.tflops = 0;
        runs.append(queued);
        chart.runAdded(runs, runs.size() - 1);
        runs.last() = finished;
        chart.runChanged(runs, runs.size() - 1);
        chart.setSelectedRun(QStringLiteral("new"));
        const Preset *next = findPreset("fp32-warptiled");
        QVERIFY(next);
        chart.setPredicted(next->stage, next->params, size); // a slider tick

        QCOMPARE(chart.rebuildCount(), rebuilds);
        QList<QCPAbstractPlottable *> now;
        for (int i = 0; i < chart.customPlot()->plottableCount(); ++i)
            now << chart.customPlot()->plottable(i);
        QCOMPARE(now, plottables);
        RooflineChart fresh;
        setUp(fresh);
        fresh.setPredicted(next->stage, next->params, size);
        fresh.setSelectedRun(QStringLiteral("new"));
        fresh.setRuns(runs);
        fresh.resize(chart.size());
        fresh.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        for (RooflineChart *c : {&chart, &fresh}) // the labels are placed (and merged) after a replot
            for (int i = 0; i < 2; ++i)
                c->customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(drawnRuns(chart), drawnRuns(fresh));
        QVERIFY(chart.pixelOfRun(QStringLiteral("new")));
    }

    // A first run of a new kind (the first without counters among runs that had them, or the first
    // with counters) changes the key and the counters note, not the points: drawn in place, where a
    // full rebuild redrew a 10,000-run session's every point when a ladder's first run finished.
    void aRunOfANewKindChangesOnlyTheKey_data()
    {
        QTest::addColumn<bool>("sessionHasCounters");
        QTest::newRow("first run without counters") << true;
        QTest::newRow("first run with counters") << false;
    }
    void aRunOfANewKindChangesOnlyTheKey()
    {
        QFETCH(bool, sessionHasCounters);
        const auto withCounters = [](RunRecord run, bool counters) {
            if (counters)
                test::setCounters(run, QJsonObject{{QStringLiteral("dram_intensity"), 9.5}});
            return run;
        };
        QList<RunRecord> runs{withCounters(okRun("r1", "coalesced", kTiles64, 13.7), sessionHasCounters),
                              withCounters(okRun("r2", "coalesced", kTiles64, 14.1), sessionHasCounters)};
        RooflineChart chart;
        chart.setRuns(runs);
        chart.resize(900, 600);
        const int rebuilds = chart.rebuildCount();
        QCOMPARE(bool(chart.countersNote()), !sessionHasCounters);

        RunRecord queued = withCounters(okRun("r3", "coalesced", kTiles64, 13.9), !sessionHasCounters);
        queued.status = RunStatus::Queued;
        runs.append(queued);
        chart.runAdded(runs, runs.size() - 1);
        runs.last() = withCounters(okRun("r3", "coalesced", kTiles64, 13.9), !sessionHasCounters);
        chart.runChanged(runs, runs.size() - 1);

        QCOMPARE(chart.rebuildCount(), rebuilds);
        RooflineChart fresh;
        fresh.setRuns(runs);
        fresh.resize(chart.size());
        QCOMPARE(keyTexts(chart), keyTexts(fresh));
        QCOMPARE(bool(chart.countersNote()), bool(fresh.countersNote()));
        QCOMPARE(drawnRuns(chart), drawnRuns(fresh));
    }

    void readableWithTheFullLadder()
    {
        QFETCH(QSize, size);
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        const QString selected = test::showFullLadder(chart, ladder);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->replot(QCustomPlot::rpImmediateRefresh); // the labels placed after the first
        test::saveShot(&chart, QStringLiteral("roofline-%1x%2").arg(size.width()).arg(size.height()));

        const int plotHeight = plot->axisRect()->rect().height();
        QVERIFY2(plotHeight * 2 >= size.height(), qPrintable(QStringLiteral("plot %1 px").arg(plotHeight)));
        QCPLegend *legend = plot->legend;
        QVERIFY(legend->visible());
        QVERIFY2(legend->font().pointSizeF() >= QApplication::font().pointSizeF(),
                 qPrintable(QString::number(legend->font().pointSizeF())));
        QList<QRectF> legendRects{QRectF(plot->axisRect()->rect())};
        QStringList legendNames{QStringLiteral("the plot")};
        for (int i = 0; i < legend->itemCount(); ++i) {
            legendRects << QRectF(legend->item(i)->outerRect());
            legendNames << legendItemText(legend->item(i));
            QVERIFY2(plot->viewport().contains(legend->item(i)->outerRect()), qPrintable(legendNames.last()));
        }
        QString overlap = test::firstOverlap(legendRects, legendNames);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));

        // A measured roof's peak divided by its bandwidth, as the legend gives them, is the ridge
        // its label names ("4.3 TB/s" beside "ridge 15.32" did not divide).
        QStringList ridgesNamed; // as the ridge labels name them, shown or not
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                if (const auto m =
                        QRegularExpression(QStringLiteral("^ridge ([0-9.]+) FLOP/B$")).match(text->text());
                    m.hasMatch())
                    ridgesNamed << m.captured(1);
        int measuredRoofs = 0;
        for (const QString &entry : std::as_const(legendNames)) {
            const auto m =
                QRegularExpression(QStringLiteral("^(FP32|TF32) \\(.*\\n([0-9.]+) TFLOP/s, ([0-9.]+) TB/s"))
                    .match(entry);
            if (!m.hasMatch())
                continue;
            ++measuredRoofs;
            // Divided and rounded as the label rounds (three significant digits), it is the label.
            const double ridge = m.captured(2).toDouble() / m.captured(3).toDouble();
            const QString rounded = QString::number(ridge, 'f', ridge < 10 ? 2 : (ridge < 100 ? 1 : 0));
            QVERIFY2(ridgesNamed.contains(rounded),
                     qPrintable(QStringLiteral("%1 divides to %2; ridges named: %3")
                                    .arg(entry, rounded, ridgesNamed.join(QStringLiteral(", ")))));
        }
        QCOMPARE(measuredRoofs, 2); // FP32 and TF32

        // Every run point is named by a visible label on the plot.
        QList<QRectF> labels;
        QStringList labelNames;
        QSet<QString> named;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible()) {
                labels << labelRect(text).marginsRemoved(QMarginsF(text->padding())); // the text itself
                labelNames << text->text();
                named.unite(namesIn(text->text()));
            }
        int runPoints = 0;
        for (const RooflineChart::ChartPoint &p : chart.points()) {
            if (p.kind != RooflineChart::PointKind::RunPredicted &&
                p.kind != RooflineChart::PointKind::RunMeasured)
                continue;
            ++runPoints;
            const QString name = p.label;
            // At 480x300 (the parameter panel shown) a cluster may go unnamed; the tooltip names it.
            if (size == QSize(480, 300))
                continue;
            QVERIFY2(!name.isEmpty() && named.contains(name),
                     qPrintable(QStringLiteral("%1 (%2) has no label; shown: %3")
                                    .arg(p.runId, name, labelNames.join(QLatin1Char('|')))));
        }
        QCOMPARE(runPoints, 46); // 23 runs, each predicted and measured
        overlap = test::firstOverlap(labels, labelNames);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        // No label over a marker, the selection ring, the current-settings circle or a roof line.
        const QList<QRectF> markers = chart.markerRects();
        for (int i = 0; i < labels.size(); ++i) {
            for (const QRectF &m : markers)
                QVERIFY2(!m.intersects(labels[i].adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("label \"%1\" over a marker").arg(labelNames[i])));
            for (const QLineF &line : chart.roofSegments())
                QVERIFY2(!segmentCrossesRect(line, labels[i].adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("roof line through \"%1\"").arg(labelNames[i])));
        }
        // The measured-intensity markers wear their run's colour: the stage's, shaded by its preset
        // as in the runtime chart.
        int diamonds = 0;
        for (int i = 0; i < plot->graphCount(); ++i) {
            QCPGraph *graph = plot->graph(i);
            if (graph->scatterStyle().shape() != QCPScatterStyle::ssDiamond || graph->dataCount() == 0)
                continue;
            const QColor brush = graph->scatterStyle().brush().color();
            QVERIFY2(std::any_of(ladder.runs.cbegin(), ladder.runs.cend(),
                                 [&](const RunRecord &r) { return runColor(r) == brush; }),
                     qPrintable(brush.name()));
            diamonds += graph->dataCount();
        }
        QVERIFY2(diamonds >= 16, qPrintable(QString::number(diamonds)));
        if (const QString shot = test::shotPath(QStringLiteral("roofline-export.png"));
            !shot.isEmpty() && size == QSize(620, 390))
            QVERIFY(!chart.exportTo(shot));
    }

    // The SVG export keeps the roofs inside the axes: SVG has no clipping of its own here, so a roof
    // drawn from 0.001 to 100000 FLOP/B ran far past the plot in the file.
    void svgRoofsStayInsideTheAxes()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        test::showRunsUnderTheirCeilings(chart, ladder);
        chart.resize(620, 390);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("roofline.svg"));
        QVERIFY(!chart.exportTo(path));
        if (qEnvironmentVariableIsSet("GEMMSCOPE_SHOTS_DIR"))
            QFile::copy(path, qEnvironmentVariable("GEMMSCOPE_SHOTS_DIR") + QStringLiteral("/roofline.svg"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(file.readAll());
        // The print layout's axis rect, as exportTo laid it out.
        const QRectF axes = QRectF(chart.printAxisRect()).adjusted(-3, -3, 3, 3);
        // Every stroke in the roofs' colours (the measured roof's #202020) stays inside.
        // The roof's group (its stroke) holds its polyline: <g fill="none" stroke="#202020" ...>.
        const QRegularExpression path_(
            QStringLiteral("<g fill=\"none\" stroke=\"#202020\"[^>]*>\\s*<path[^>]*d=\"([^\"]*)\""));
        const QRegularExpression polyline(
            QStringLiteral("<g fill=\"none\" stroke=\"#202020\"[^>]*>\\s*<polyline[^>]*points=\"([^\"]*)\""));
        int checked = 0;
        for (const QRegularExpression &re : {path_, polyline})
            for (auto it = re.globalMatch(svg); it.hasNext();) {
                const QString points = it.next().captured(1);
                if (points.section(QLatin1Char(','), 0, 0).toDouble() > axes.right())
                    continue; // the roof's icon in the legend, right of the plot
                const QRegularExpression number(QStringLiteral("(-?[0-9.]+)[ ,](-?[0-9.]+)"));
                for (auto n = number.globalMatch(points); n.hasNext();) {
                    const auto m = n.next();
                    const QPointF p(m.captured(1).toDouble(), m.captured(2).toDouble());
                    QVERIFY2(axes.contains(p),
                             qPrintable(QStringLiteral("roof point %1,%2 outside %3,%4 %5x%6")
                                            .arg(p.x())
                                            .arg(p.y())
                                            .arg(axes.x())
                                            .arg(axes.y())
                                            .arg(axes.width())
                                            .arg(axes.height())));
                    ++checked;
                }
            }
        QVERIFY2(checked >= 3, qPrintable(svg.left(3000)));
    }

    void gpuSelectorFiltersRunsAndNamesThem()
    {
        // H200 runs on the H200 roof; choosing the T4 shows the published T4 rows on the T4 roof
        // and no H200 point, and the title says so.
        RunRecord h200 = okRun("h1", "coalesced", kTiles64, 13.7);
        h200.gpuName = QStringLiteral("NVIDIA H200");
        RunRecord published = okRun("w3", "coalesced", kTiles64, 0.7);
        published.origin = QStringLiteral("worklog");
        published.gpuName = QStringLiteral("NVIDIA T4 (published)");
        published.presetKey = QStringLiteral("worklog-3");
        RooflineChart chart;
        chart.setRuns({h200, published});
        chart.setMeasuredCeilings(65.3, 4221, QStringLiteral("NVIDIA H200, 2026-11-30 (recorded)"));
        QVERIFY(chart.setGpu("h200"));
        QCOMPARE(chart.points().size(), 1);
        QCOMPARE(chart.points().first().runId, QStringLiteral("h1"));
        QVERIFY(roofNamed(chart, "measured"));
        // The runs' own name for their GPU, as the runtime chart's title has it (the legend names
        // the datasheet, "NVIDIA H200 SXM").
        QVERIFY2(chart.fullTitle().startsWith(QStringLiteral("Roofline: %1 — ").arg(h200.gpuName)),
                 qPrintable(chart.fullTitle()));

        QVERIFY(chart.setGpu("t4"));
        QCOMPARE(chart.points().size(), 1);
        QCOMPARE(chart.points().first().runId, QStringLiteral("w3"));
        QCOMPARE(chart.points().first().kind, RooflineChart::PointKind::WorklogT4);
        QVERIFY(!roofNamed(chart, "measured")); // the H200's measured roof is not the T4's
        QVERIFY(roofNamed(chart, "T4 datasheet"));
        QVERIFY2(chart.fullTitle().contains(QStringLiteral("T4")) &&
                     chart.fullTitle().contains(QStringLiteral("published")),
                 qPrintable(chart.fullTitle()));
        QVERIFY(!chart.fullTitle().contains(QStringLiteral("H200")));

        QVERIFY(chart.setGpu("a100"));
        QVERIFY(chart.points().isEmpty());
        QVERIFY(chart.fullTitle().contains(QStringLiteral("no run measured on it")));
    }

    void logAxesTickAt125()
    {
        RooflineChart chart;
        chart.setGpu("h200");
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QVector<double> ticks;
        QVector<QString> labels;
        chart.customPlot()->xAxis->ticker()->generate(chart.customPlot()->xAxis->range(), QLocale::c(), 'g',
                                                      6, ticks, nullptr, &labels);
        QVERIFY2(ticks.contains(0.2) && ticks.contains(0.5) && ticks.contains(2) && ticks.contains(50),
                 qPrintable(labels.toList().join(QLatin1Char(' '))));
    }

    void labelsNeverOverlap()
    {
        // Many runs close together: every label that shows has a place of its own.
        QList<RunRecord> runs;
        int i = 0;
        for (const char *preset : {"worklog-2", "worklog-3", "worklog-4", "worklog-5a", "worklog-5b",
                                   "worklog-6", "worklog-7", "worklog-8"}) {
            RunRecord r = okRun(QStringLiteral("r%1").arg(i), "coalesced", kTiles64, 10 + 0.3 * i);
            r.presetKey = QString::fromLatin1(preset);
            r.params[QStringLiteral("BM")] = 64 << (i % 2);
            runs << r;
            ++i;
        }
        RooflineChart chart;
        chart.setGpu("h200");
        chart.setRuns(runs);
        chart.resize(520, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QList<QRectF> shown;
        QStringList shownTexts;
        for (int k = 0; k < chart.customPlot()->itemCount(); ++k)
            if (auto *text = qobject_cast<QCPItemText *>(chart.customPlot()->item(k));
                text && text->visible() && text->position->type() == QCPItemPosition::ptPlotCoords) {
                shown << labelRect(text);
                shownTexts << text->text();
            }
        QVERIFY(!shown.isEmpty());
        for (int a = 0; a < shown.size(); ++a)
            for (int b = a + 1; b < shown.size(); ++b)
                QVERIFY2(
                    !shown[a].adjusted(1, 1, -1, -1).intersects(shown[b].adjusted(1, 1, -1, -1)),
                    qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(shownTexts[a], shownTexts[b])));
    }

    // The frame on screen shows the labels where placement put them, without waiting for some
    // later replot: a replot asked for from inside afterReplot is ignored by QCustomPlot, so the
    // chart must queue it. The settled frame equals a fresh one.
    void placedLabelsReachTheScreen()
    {
        QList<RunRecord> runs;
        for (int i = 0; i < 4; ++i) {
            RunRecord r = okRun(QStringLiteral("r%1").arg(i), "coalesced", kTiles64, 10 + 2.0 * i);
            r.presetKey = QStringLiteral("worklog-%1").arg(i + 2);
            runs << r;
        }
        RooflineChart chart;
        chart.setGpu("h200");
        chart.resize(520, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setRuns(runs); // a rebuild of a shown chart: new labels, one queued replot
        QTest::qWait(200);
        const QImage settled = chart.customPlot()->grab().toImage();
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage fresh = chart.customPlot()->grab().toImage();
        QVERIFY2(settled == fresh, "the frame on screen kept labels the placement had moved");
    }

    // The labels are placed inside the replot that draws them (after the layout, before the
    // drawing): a finished run costs one replot. Placed after it, every change of place queued a
    // second one, and with the placement each was 10-14 ms of the UI thread.
    void oneReplotDrawsThePlacedLabels()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                                  ladder.tf32Kernel);
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        int replots = 0;
        connect(chart.customPlot(), &QCustomPlot::afterReplot, &chart, [&replots] { ++replots; });
        chart.setRuns(ladder.runs); // new labels: placed for the first time
        QTest::qWait(200);
        QCOMPARE(replots, 1);
        const QImage drawn = chart.customPlot()->grab().toImage();
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(drawn == chart.customPlot()->grab().toImage(),
                 "the first replot drew labels not yet placed");
    }

    void axisTitleStaysOverItsAxis()
    {
        // QCustomPlot centres the axis title on the axis and lets a wider one run off the widget: the
        // roofline beside its legend read "nmetic intensity (FLOP/byte of DRAM, L2 ..." in the H200
        // window at 1600x1000. Too wide, it breaks before its parenthesis.
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        test::showFullLadder(chart, ladder);
        chart.show();
        for (const int width : {560, 1400}) {
            chart.resize(width, 450);
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            QCustomPlot *plot = chart.customPlot();
            for (int i = 0; i < 2; ++i) // the first lays the axes out for the new width
                plot->replot(QCustomPlot::rpImmediateRefresh);
            const QString label = plot->xAxis->label();
            QVERIFY2(label.startsWith(QStringLiteral("arithmetic intensity")), qPrintable(label));
            const QFontMetrics metrics(plot->xAxis->labelFont());
            for (const QString &line : label.split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= plot->axisRect()->width(),
                         qPrintable(QStringLiteral("%1 px: \"%2\" over an axis of %3 px")
                                        .arg(width)
                                        .arg(line)
                                        .arg(plot->axisRect()->width())));
            QCOMPARE(label.contains(QLatin1Char('\n')), width < 1000);
        }
    }

    void clickEmitsRunIdAndExports()
    {
        RooflineChart chart;
        chart.setGpu("h200");
        chart.setRuns(
            {okRun("r1", "coalesced", kTiles64, 13.7), okRun("r2", "naive", {{"BX", 16}, {"BY", 16}}, 1.2)});
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QSignalSpy spy(&chart, &RooflineChart::runClicked);
        const auto pixel = chart.pixelOfRun(QStringLiteral("r2"));
        QVERIFY(pixel);
        QTest::mouseClick(chart.customPlot(), Qt::LeftButton, {}, pixel->toPoint());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.first().at(0).toString(), QStringLiteral("r2"));
        QVERIFY(chart.tooltipAt(*pixel).contains(QStringLiteral("GFLOP/s")));

        QTemporaryDir dir;
        for (const QString &suffix : {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg")}) {
            const QString path = dir.filePath(QStringLiteral("roofline.") + suffix);
            const auto error = chart.exportTo(path);
            QVERIFY2(!error, qPrintable(error.value_or(QString())));
            QVERIFY(QFileInfo(path).size() > 500);
        }
    }
};

QTEST_MAIN(TstRooflineChart)
#include "tst_roofline_chart.moc"
