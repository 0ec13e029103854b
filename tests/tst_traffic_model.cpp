// The analytic traffic model must reproduce the worklog's own arithmetic-intensity formulas:
// naive 0.25 FLOP/B, tiled T/4, block tile BM*BN / (2 (BM + BN)) (16.0 at 64x64).
#include "traffic_model.h"

#include <QtTest>

using namespace gemmscope;

class TstTrafficModel : public QObject {
    Q_OBJECT

private slots:
    void worklogIntensities_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("intensity");
        // Hand-computed from the worklog's formulas (worklog size: every tile divides K = 6144,
        // and BM*BN/(2(BM+BN)) does not depend on the ragged last block column... see below).
        QTest::newRow("step 0: naive") << "worklog-0" << 0.25;
        QTest::newRow("step 1: T=16") << "worklog-1" << 16.0 / 4;
        QTest::newRow("guide: T=32") << "guide-32-padded" << 32.0 / 4;
        QTest::newRow("step 2: 64x64") << "worklog-2" << 64.0 * 64 / (2 * (64 + 64));
        QTest::newRow("step 4: 64x64") << "worklog-4" << 16.0;
        QTest::newRow("step 5a: 128x128") << "worklog-5a" << 128.0 * 128 / (2 * (128 + 128));
    }
    void worklogIntensities()
    {
        QFETCH(QString, preset);
        QFETCH(double, intensity);
        const Preset *p = findPreset(preset.toStdString());
        QVERIFY(p);
        // 8192 x 4096 x 6144: 64 and 128 divide M and N, so the formula is exact.
        const auto t = estimateTraffic(p->stage, p->params, ProblemSize{});
        QCOMPARE(t.intensity, intensity);
        QCOMPARE(t.flops, 2.0 * 8192 * 4096 * 6144);
        QVERIFY(QString::fromStdString(t.formula).contains("FLOP/B"));
    }

    void raggedBlockTilesCostTheirPadding()
    {
        // At 192x192, N = 4096 is not a multiple of 192: the last block column still loads a full
        // 192-wide B tile, so the kernel's intensity is below the formula's 48. Compute by hand:
        // blocks = ceil(8192/192) * ceil(4096/192) = 43 * 22; steps = 6144/16 = 384;
        // bytes = blocks * steps * 4 * (192 + 192) * 16.
        const Preset *p = findPreset("worklog-8");
        const auto t = estimateTraffic(p->stage, p->params, ProblemSize{});
        const double bytes = 43.0 * 22 * 384 * 4 * 384 * 16;
        QCOMPARE(t.loadBytes, bytes);
        QVERIFY(t.intensity < 192.0 * 192 / (2 * 384));
        // On a size that the tile divides, the formula is exact again.
        const auto exact = estimateTraffic(p->stage, p->params, ProblemSize{192 * 8, 192 * 4, 16 * 10});
        QCOMPARE(exact.intensity, 48.0);
    }

    void compulsoryTrafficAndCublas()
    {
        const ProblemSize s{8192, 4096, 6144};
        const auto t = estimateTraffic(StageId::CublasFp32, {}, s);
        // The worklog: inputs ~302 MB, output ~134 MB, ~945 FLOP/B.
        QCOMPARE(t.compulsoryBytes, 4.0 * (8192.0 * 6144 + 6144.0 * 4096 + 8192.0 * 4096));
        QVERIFY(qAbs(t.compulsoryIntensity - 945.0) < 1.0);
        QCOMPARE(t.intensity, t.compulsoryIntensity);
        QVERIFY(QString::fromStdString(t.formula).contains("unknown"));
        QCOMPARE(t.storeBytes, 4.0 * 8192 * 4096);
    }

    void geometryCarriedThrough()
    {
        const Preset *p = findPreset("worklog-5b");
        const auto t = estimateTraffic(p->stage, p->params, ProblemSize{});
        QCOMPARE(t.threadsPerBlock, 256);
        QCOMPARE(t.smemBytesPerBlock, 49152);
    }
};

QTEST_APPLESS_MAIN(TstTrafficModel)
#include "tst_traffic_model.moc"
