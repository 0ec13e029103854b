// What the roofline's points say, without QCustomPlot: a run's tooltip (its intensities, its
// throughput, and how much of each roof it is judged against it reached: an FP32 run the FP32 roof,
// a TF32 run the tensor cores' roofs), the live point at the bound of the roof its stage is capped by,
// and the worklog's published steps on the T4 roof.
#include "chart_text.h"
#include "jargon_text.h"
#include "roofline_math.h"
#include "roofline_tips.h"

#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::roofline_scene;

namespace {

RunRecord finishedRun(const QString &id, const QString &stage, double ms)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.m = 8192;
    r.n = 4096;
    r.k = 6144;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = ms;
    return r;
}

RunTip tipAt(double predicted, std::optional<double> measured, double tflops, bool tensor = false)
{
    RunTip tip;
    tip.predicted = predicted;
    tip.formula = QStringLiteral("the model's formula");
    tip.measured = measured;
    tip.tflops = tflops;
    tip.tensor = tensor;
    return tip;
}

TipRoofs h200Roofs()
{
    TipRoofs roofs;
    roofs.fp32 = {QStringLiteral("measured"), 60, 4000};
    roofs.datasheetTf32 = TipRoof{QStringLiteral("H200 datasheet TF32"), 494, 4800};
    roofs.measuredTf32 = TipRoof{QStringLiteral("wgmma TF32, measured"), 400, 4000};
    roofs.measuredFmaTflops = 60;
    roofs.l2GBs = 12000;
    roofs.sharedGBs = 30000;
    return roofs;
}

QString percentLine(double tflops, double intensity, const QString &label, double peak, double bw)
{
    return QStringLiteral("%1% of the %2 roof")
        .arg(roofline::percentOfRoof(tflops, intensity, peak, bw), 0, 'f', 1)
        .arg(label);
}

} // namespace

class TestRooflineTips : public QObject {
    Q_OBJECT
private slots:
    void fp32RunIsJudgedAgainstTheFp32Roof()
    {
        const RunRecord run = finishedRun(QStringLiteral("r1"), QStringLiteral("coalesced"), 20);
        const QString tip = runTooltip(run, tipAt(8, 10, 20), h200Roofs());
        const QStringList lines = tip.split(QLatin1Char('\n'));
        QCOMPARE(lines.first(), runTitle(run));
        QVERIFY2(lines.contains(QStringLiteral("AI predicted: 8 FLOP/B  (the model's formula)")),
                 qPrintable(tip));
        QVERIFY2(lines.contains(QStringLiteral("AI measured: 10 FLOP/B (DRAM counters)")), qPrintable(tip));
        QVERIFY2(lines.contains(QStringLiteral("achieved %1 (%2)").arg(formatGflops(20), formatMs(20))),
                 qPrintable(tip));
        // At its measured intensity: 20 of min(60, 10 x 4 TB/s = 40) TFLOP/s.
        QVERIFY2(tip.contains(percentLine(20, 10, QStringLiteral("measured"), 60, 4000)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("50.0% of the measured roof")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("TF32")), qPrintable(tip));
        // Without counters it says so, and is judged at the model's intensity.
        const QString modelled = runTooltip(run, tipAt(8, std::nullopt, 20), h200Roofs());
        QVERIFY2(modelled.contains(QStringLiteral("AI measured: hardware counters not available")),
                 qPrintable(modelled));
        QVERIFY2(modelled.contains(percentLine(20, 8, QStringLiteral("measured"), 60, 4000)),
                 qPrintable(modelled));
    }

    // The H100's naive kernel measured 16.8 FLOP/B of DRAM traffic, the tiled stage after it 8.0: a
    // measured intensity far above the model's says why (L2 caught the reuse), where it happens only.
    void measuredAboveTheModelIsExplained()
    {
        const RunRecord naive = finishedRun(QStringLiteral("r0"), QStringLiteral("naive"), 25);
        const QString above = runTooltip(naive, tipAt(0.25, 16.8, 5.4), h200Roofs());
        QVERIFY2(above.split(QLatin1Char('\n')).contains(jargon::measuredIntensityCountsDram()),
                 qPrintable(above));
        QVERIFY(jargon::measuredIntensityCountsDram().contains(QStringLiteral("L2")));
        for (const std::optional<double> measured : {std::optional<double>(0.3), std::optional<double>()}) {
            const QString near = runTooltip(naive, tipAt(0.25, measured, 5.4), h200Roofs());
            QVERIFY2(!near.contains(jargon::measuredIntensityCountsDram()), qPrintable(near));
        }
    }

    void tf32RunIsJudgedAgainstTheTensorRoofs()
    {
        const RunRecord run = finishedRun(QStringLiteral("r2"), QStringLiteral("wgmma_tf32"), 1);
        const QString tip = runTooltip(run, tipAt(300, 320, 300, true), h200Roofs());
        QVERIFY2(tip.contains(percentLine(300, 320, QStringLiteral("wgmma TF32, measured"), 400, 4000)),
                 qPrintable(tip));
        QVERIFY2(tip.contains(percentLine(300, 320, QStringLiteral("H200 datasheet TF32"), 494, 4800)),
                 qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("of the measured roof")), qPrintable(tip));
        // The measured roof first, then the datasheet's.
        QVERIFY(tip.indexOf(QStringLiteral("wgmma TF32, measured")) <
                tip.indexOf(QStringLiteral("H200 datasheet TF32")));
        TipRoofs none = h200Roofs();
        none.datasheetTf32.reset();
        none.measuredTf32.reset();
        const QString bare = runTooltip(run, tipAt(300, 320, 300, true), none);
        QVERIFY2(
            bare.endsWith(QStringLiteral("no TF32 roof for this GPU: measure its ceilings (sm_80 or newer)")),
            qPrintable(bare));
    }

    void levelsAreJudgedAgainstTheirOwnRoofs()
    {
        const RunRecord run = finishedRun(QStringLiteral("r3"), QStringLiteral("coalesced"), 20);
        RunTip tip = tipAt(8, 10, 20);
        tip.l2 = 2;
        const QString text = runTooltip(run, tip, h200Roofs());
        QVERIFY2(text.contains(QStringLiteral("AI measured at L2: 2 FLOP/B (counters)")), qPrintable(text));
        // 20 of min(60, 2 x 12 TB/s = 24) TFLOP/s at its L2 intensity.
        QVERIFY2(text.contains(QStringLiteral("83.3% of the L2, measured roof at its L2 intensity")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("L1/shared")), qPrintable(text));
    }

    void publishedRowSaysItWasNotMeasuredHere()
    {
        RunRecord run = finishedRun(QStringLiteral("w3"), QStringLiteral("coalesced"), 100);
        run.origin = QStringLiteral("worklog");
        RunTip tip = tipAt(8, std::nullopt, 4);
        tip.published = true;
        QCOMPARE(runTooltip(run, tip, h200Roofs()).section(QLatin1Char('\n'), 0, 0),
                 runTitle(run) + QStringLiteral(" — published in the worklog, not measured here"));
    }

    void livePointSitsAtItsRoofsBound()
    {
        const LiveSettings naive{stageIdOf(QStringLiteral("naive")), {}, ProblemSize{}};
        const std::optional<ChartPoint> fp32 = livePoint(naive, h200Roofs());
        QVERIFY(fp32);
        QCOMPARE(fp32->kind, PointKind::Live);
        QVERIFY(fp32->intensity > 0);
        QCOMPARE(fp32->tflops, roofline::roofAt(fp32->intensity, 60, 4000));
        QVERIFY(fp32->label.isEmpty());
        QVERIFY2(fp32->tooltip.contains(QStringLiteral("current settings (not run)")),
                 qPrintable(fp32->tooltip));
        QVERIFY2(fp32->tooltip.contains(QStringLiteral("attainable under the measured roof: ") +
                                        formatGflops(fp32->tflops)),
                 qPrintable(fp32->tooltip));
        // A TF32 stage: under the tensor cores' datasheet roof, else the measured one.
        const LiveSettings tensor{stageIdOf(QStringLiteral("wgmma_tf32")), {}, ProblemSize{}};
        QVERIFY(liveUsesTensorCores(tensor) && !liveUsesTensorCores(naive));
        const std::optional<ChartPoint> datasheet = livePoint(tensor, h200Roofs());
        QVERIFY(datasheet);
        QCOMPARE(datasheet->tflops, roofline::roofAt(datasheet->intensity, 494, 4800));
        TipRoofs measuredOnly = h200Roofs();
        measuredOnly.datasheetTf32.reset();
        QCOMPARE(livePoint(tensor, measuredOnly)->tflops, roofline::roofAt(datasheet->intensity, 400, 4000));
        // No roof at all: at 1 TFLOP/s, no bound named.
        const std::optional<ChartPoint> bare = livePoint(naive, TipRoofs{});
        QCOMPARE(bare->tflops, 1.0);
        QVERIFY(!bare->tooltip.contains(QStringLiteral("attainable")));
    }

    void liveConfigurationIsKeyedLikeARun()
    {
        const LiveSettings live{
            stageIdOf(QStringLiteral("coalesced")), {{"BM", 64}, {"BN", 32}}, ProblemSize{1024, 2048, 512}};
        const RunRecord run = liveConfiguration(live);
        QCOMPARE(run.stage, live.stage);
        QCOMPARE(run.m, 1024LL);
        QCOMPARE(run.n, 2048LL);
        QCOMPARE(run.k, 512LL);
        QCOMPARE(run.params.value(QStringLiteral("BM")), 64);
        QCOMPARE(run.params.value(QStringLiteral("BN")), 32);
    }

    void worklogStepsAreThePresetsWithPublishedTimes()
    {
        int published = 0;
        for (const Preset &preset : presets())
            published += preset.worklogT4Ms ? 1 : 0;
        QVERIFY(published > 0);
        const GpuSpec *t4 = findGpu("t4");
        QVERIFY(t4);
        const QList<ChartPoint> points = worklogPoints(t4);
        QCOMPARE(points.size(), published);
        for (const ChartPoint &p : points) {
            QCOMPARE(p.kind, PointKind::WorklogT4);
            QVERIFY(p.intensity > 0 && p.tflops > 0);
            QVERIFY(!p.label.isEmpty());
            QVERIFY2(p.tooltip.contains(QStringLiteral("(published in the worklog, T4)")),
                     qPrintable(p.tooltip));
            QVERIFY2(p.tooltip.contains(QStringLiteral("of the T4 datasheet roof")), qPrintable(p.tooltip));
        }
        for (const ChartPoint &p : worklogPoints(nullptr))
            QVERIFY(!p.tooltip.contains(QStringLiteral("roof")));
    }
};

QTEST_MAIN(TestRooflineTips)
#include "tst_roofline_tips.moc"
