// Problem-size sweeps in the kernel model: the sizes offered (square, the worklog's aspect ratio),
// the plan of (series, size) cells with refused sizes carrying the catalog's sentence, and the
// wave-quantization arithmetic against answers worked by hand.
#include "stage_catalog.h"
#include "sweep_plan.h"
#include "wave_quantization.h"

#include <QtTest>

using namespace gemmscope;

class TestSizeSweep : public QObject {
    Q_OBJECT
private slots:
    void squareSizesArePowersAndMidpoints()
    {
        const std::vector<ProblemSize> s = sizeSweepSizes(SizeShape::Square, 256, 4096, true);
        std::vector<long long> m;
        for (const ProblemSize &z : s) {
            QCOMPARE(z.n, z.m);
            QCOMPARE(z.k, z.m);
            m.push_back(z.m);
        }
        QCOMPARE(m, (std::vector<long long>{256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096}));
        QCOMPARE(sizeSweepSizes(SizeShape::Square, 256, 16384, false).size(), std::size_t(7));
    }

    void worklogAspectIsScaled()
    {
        const std::vector<ProblemSize> s = sizeSweepSizes(SizeShape::WorklogAspect, 256, 8192, false);
        QCOMPARE(s.front().m, 256LL);
        QCOMPARE(s.front().n, 128LL);
        QCOMPARE(s.front().k, 192LL);
        QCOMPARE(s.back().m, 8192LL); // the worklog's own 8192 x 4096 x 6144
        QCOMPARE(s.back().n, 4096LL);
        QCOMPARE(s.back().k, 6144LL);
    }

    void planHasACellPerSeriesAndSize()
    {
        SweepSpec spec;
        spec.kind = SweepKind::Sizes;
        const Preset *p = findPreset("worklog-8");
        QVERIFY(p);
        spec.series = {{p->stage, p->params, p->key}, {StageId::CublasFp32, {}, "cublas_fp32"}};
        // 70000^2 elements is past the 2^31 a matrix may have: the catalog refuses it for every stage.
        spec.sizes = {{512, 512, 512}, {1024, 512, 768}, {70000, 70000, 70000}};
        const SweepPlan plan = planSweep(spec);
        QVERIFY2(plan.ok(), plan.error.c_str());
        QCOMPARE(plan.cells.size(), std::size_t(6));
        QCOMPARE(plan.points.size(), std::size_t(6));
        QCOMPARE(plan.validPointCount(), std::size_t(4));
        for (const SweepCell &c : plan.cells) {
            const SweepPoint &point = plan.points[std::size_t(c.points.front())];
            QCOMPARE(point.stage, spec.series[std::size_t(c.yIndex)].stage);
            QCOMPARE(point.size.m, spec.sizes[std::size_t(c.xIndex)].m);
            QCOMPARE(point.params, spec.series[std::size_t(c.yIndex)].params);
            const std::vector<std::string> why = violations(point.stage, point.params, point.size);
            QCOMPARE(c.valid(), why.empty());
            if (!why.empty())
                QCOMPARE(c.invalidReason, why.front()); // the catalog's own sentence
        }
        QVERIFY(!plan.cells[2].valid());
        QVERIFY(!plan.cells[5].valid());
        // Each point its own key: stage and size differ, so a resumed sweep matches them exactly.
        QVERIFY(sweepPointKey(plan.points[0].stage, plan.points[0].params, plan.points[0].size) !=
                sweepPointKey(plan.points[1].stage, plan.points[1].params, plan.points[1].size));
    }

    void emptySizeSweepIsRefused()
    {
        SweepSpec spec;
        spec.kind = SweepKind::Sizes;
        spec.sizes = {{512, 512, 512}};
        QVERIFY(!planSweep(spec).ok());
    }

    // 1063 blocks on 132 SMs, one block each: 8 full waves of 132 and a last wave of 7 blocks.
    void eightWavesAndALittle()
    {
        const auto w = waveQuantization(1063, 132, 1);
        QVERIFY(w);
        QCOMPARE(w->blocksPerWave, 132LL);
        QCOMPARE(w->fullWaves, 8LL);
        QCOMPARE(w->lastWaveBlocks, 7LL);
        QCOMPARE(w->lastWaveSms, 7);
        QVERIFY(qAbs(w->waves - 8.0530303) < 1e-6);
        QVERIFY(qAbs(w->waveEfficiency() - 8.0530303 / 9) < 1e-6); // 89 % of 9 waves' SM time works
        QVERIFY(w->tailIsSmall());
        QCOMPARE(w->sentence(), std::string("8.05 waves: the last wave runs 7 of 132 SMs (7 of 132 blocks)"));
    }

    // Two resident blocks per SM: waves of 264. 540 blocks = 2 waves + 12 blocks on 12 SMs.
    void twoBlocksPerSm()
    {
        const auto w = waveQuantization(540, 132, 2);
        QVERIFY(w);
        QCOMPARE(w->blocksPerWave, 264LL);
        QCOMPARE(w->fullWaves, 2LL);
        QCOMPARE(w->lastWaveBlocks, 12LL);
        QCOMPARE(w->lastWaveSms, 12);
        QVERIFY(w->tailIsSmall()); // 2.045 of 3 waves: 32 % of the SM time idles
        // 264 blocks: exactly one wave, nothing to mark.
        const auto even = waveQuantization(264, 132, 2);
        QCOMPARE(even->lastWaveBlocks, 0LL);
        QVERIFY(!even->tailIsSmall());
        QCOMPARE(even->sentence(), std::string("1.00 waves of 264 blocks: the waves come out even"));
    }

    void notMarked_data()
    {
        QTest::addColumn<long long>("blocks");
        QTest::addColumn<int>("blocksPerSm");
        QTest::newRow("under one wave: 66 of 132 SMs") << 66LL << 1;
        QTest::newRow("last wave half full: 1.5 waves") << 198LL << 1;
        QTest::newRow("124 waves: a thin tail costs under 1 %") << 16384LL << 1;
    }
    void notMarked()
    {
        QFETCH(long long, blocks);
        QFETCH(int, blocksPerSm);
        const auto w = waveQuantization(blocks, 132, blocksPerSm);
        QVERIFY(w);
        QVERIFY(!w->tailIsSmall());
    }

    void unknownCountsGiveNothing()
    {
        QVERIFY(!waveQuantization(100, 132, 0)); // blocks per SM unknown
        QVERIFY(!waveQuantization(100, 0, 1));   // SMs unknown
        QVERIFY(!waveQuantization(0, 132, 1));
    }

    // The blocks of a launch are the catalog's grid: ceil(M/BM) x ceil(N/BN) for the tiled stages.
    void launchBlocksAreTheTiles()
    {
        const Preset *p = findPreset("worklog-8");
        QVERIFY(p);
        const int bm = paramValue(p->params, "BM"), bn = paramValue(p->params, "BN");
        QVERIFY(bm > 0 && bn > 0);
        const ProblemSize size{4100, 3000, 512};
        QCOMPARE(launchBlocks(p->stage, p->params, size), ((4100 + bm - 1) / bm) * ((3000LL + bn - 1) / bn));
        QCOMPARE(launchBlocks(StageId::CublasFp32, {}, size), 0LL);              // no tile model for cuBLAS
        QCOMPARE(launchBlocks(p->stage, p->params, {70000, 70000, 70000}), 0LL); // refused
    }
};

QTEST_APPLESS_MAIN(TestSizeSweep)
#include "tst_size_sweep.moc"
