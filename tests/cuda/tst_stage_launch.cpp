// How the runner launches a stage, checked without a GPU: a persistent stage's grid (its tiles in
// x, then at most what the GPU holds at once), who rounds a TF32 stage's inputs (a pre-pass, or the
// kernel itself), and the kernel's argument list (tensor maps, then the rounding flag).
#include "launch_config.h"
#include "stage_launch.h"
#include "tf32_rounding.h"

#include <QTest>

using namespace gemmscope;
using namespace gemmscope::runner;

class TestStageLaunch : public QObject {
    Q_OBJECT

private slots:
    void persistentGridFitsTheGpu_data()
    {
        QTest::addColumn<unsigned>("tiles");
        QTest::addColumn<int>("sms");
        QTest::addColumn<int>("blocksPerSm");
        QTest::addColumn<unsigned>("grid");
        QTest::newRow("H100/H200, 8192x4096 in 256x128 tiles") << 1024u << 132 << 1 << 132u;
        QTest::newRow("fewer tiles than SMs") << 100u << 132 << 1 << 100u;
        QTest::newRow("two resident blocks per SM") << 1024u << 132 << 2 << 264u;
        QTest::newRow("one tile") << 1u << 132 << 1 << 1u;
        QTest::newRow("occupancy unknown: one block per SM") << 1024u << 114 << 0 << 114u;
    }
    void persistentGridFitsTheGpu()
    {
        QFETCH(unsigned, tiles);
        QFETCH(int, sms);
        QFETCH(int, blocksPerSm);
        QTEST(persistentGrid(tiles, sms, blocksPerSm), "grid");
    }

    // Clusters: as many whole clusters as the GPU holds (the occupancy API's count), never more
    // than the tiles need, always a whole number of clusters.
    void persistentClusterGridIsWholeClusters_data()
    {
        QTest::addColumn<unsigned>("tiles");
        QTest::addColumn<unsigned>("clusterX");
        QTest::addColumn<int>("maxClusters");
        QTest::addColumn<unsigned>("grid");
        QTest::newRow("H100, 1024 tiles in pairs") << 1024u << 2u << 66 << 132u;
        QTest::newRow("GPCs hold fewer pairs than SMs / 2") << 1024u << 2u << 60 << 120u;
        QTest::newRow("odd tiles: the last pair half idle") << 7u << 2u << 66 << 8u;
        QTest::newRow("one tile: still a whole pair") << 1u << 2u << 66 << 2u;
        QTest::newRow("occupancy says none: one cluster") << 1024u << 2u << 0 << 2u;
        QTest::newRow("no clusters") << 100u << 1u << 132 << 100u;
    }
    void persistentClusterGridIsWholeClusters()
    {
        QFETCH(unsigned, tiles);
        QFETCH(unsigned, clusterX);
        QFETCH(int, maxClusters);
        QTEST(persistentClusterGrid(tiles, clusterX, maxClusters), "grid");
    }

    // The persistent stage numbers its tiles along x alone, so a tall problem is no grid-y limit.
    void persistentStageGridIsItsTiles()
    {
        const StageInfo &persistent = *findStage("wgmma_persistent_tf32");
        const ParamValues params = defaultParams(persistent.id); // 256 x 128 tiles
        const LaunchDims dims = launchDims(persistent, params, ProblemSize{8192, 4096, 6144});
        QCOMPARE(dims.grid.x, 32u * 32u);
        QCOMPARE(dims.grid.y, 1u);
        QCOMPARE(dims.block.x, 384u);
        const LaunchDims tall = launchDims(persistent, params, ProblemSize{20'000'000, 64, 1});
        QCOMPARE(tall.grid.x, 78125u); // 20e6 / 256 rows of tiles, one column
        QCOMPARE(dims.clusterX, 1u);
        // In clusters of two the grid is rounded up to whole pairs: the odd tile's partner idles.
        ParamValues pairs = params;
        pairs["CLUSTER"] = 2;
        QCOMPARE(launchDims(persistent, pairs, ProblemSize{8192, 4096, 6144}).clusterX, 2u);
        QCOMPARE(launchDims(persistent, pairs, ProblemSize{20'000'000, 64, 1}).grid.x, 78126u);
        // A stage that is not persistent keeps its two-dimensional grid.
        const StageInfo &tma = *findStage("wgmma_tma_tf32");
        const LaunchDims tiled = launchDims(tma, defaultParams(tma.id), ProblemSize{8192, 4096, 6144});
        QCOMPARE(tiled.grid.x, 4096u / 128u);
        QCOMPARE(tiled.grid.y, 8192u / 256u);
    }

    // Rounded to nearest TF32 as cuBLAS does: by a pre-pass into copies (A, and B by its
    // transpose) for the stages that read the tensor core's truncation otherwise, by its own kernel
    // for the persistent stage, which then needs no pre-pass.
    void roundingIsThePrePassOrTheKernel()
    {
        const Tf32Inputs inKernel = roundedTf32Inputs(*findStage("wgmma_persistent_tf32"));
        QVERIFY(inKernel.roundedInKernel);
        QVERIFY(!inKernel.needsPrePass());
        QVERIFY(!inKernel.roundedA && !inKernel.roundedB && !inKernel.bRoundedInTranspose);
        const Tf32Inputs prePass = roundedTf32Inputs(*findStage("wgmma_tma_tf32"));
        QVERIFY(prePass.needsPrePass() && prePass.roundedA && prePass.bRoundedInTranspose);
        QVERIFY(!prePass.roundedInKernel);
        QVERIFY(!Tf32Inputs{}.needsPrePass()); // a run that asks for truncated inputs
    }

    // (A, B, C, M, N, K), the two tensor maps, then the rounding flag as an int: the kernel reads as
    // many as it has parameters.
    void kernelArgumentsEndWithTheRoundingFlag()
    {
        const float *a = nullptr, *b = nullptr;
        float *c = nullptr;
        const ProblemSize size{1000, 777, 333};
        OperandMaps maps;
        for (bool round : {true, false}) {
            StageKernelArgs args(a, b, c, size, &maps, round);
            void **list = args.args();
            QCOMPARE(*static_cast<int *>(list[3]), 1000);
            QCOMPARE(*static_cast<int *>(list[4]), 777);
            QCOMPARE(*static_cast<int *>(list[5]), 333);
            QCOMPARE(list[6], static_cast<void *>(&maps.a));
            QCOMPARE(list[7], static_cast<void *>(&maps.b));
            QCOMPARE(*static_cast<int *>(list[8]), round ? 1 : 0);
        }
        StageKernelArgs plain(a, b, c, size);
        QVERIFY(plain.args()[6] == nullptr && plain.args()[7] == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestStageLaunch)
#include "tst_stage_launch.moc"
