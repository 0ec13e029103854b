// The catalog and the analytic models at their edges: every input is defined — zero,
// missing or absurd tile parameters and 64-bit sizes never divide by zero or overflow — the
// catalog refuses what cannot run with a sentence, and its architecture floor is CUDA 13's.
#include "access_model.h"
#include "mapping_model.h"
#include "stage_catalog.h"
#include "traffic_model.h"

#include <QtTest>
#include <climits>

using namespace gemmscope;

Q_DECLARE_METATYPE(gemmscope::ParamValues)
Q_DECLARE_METATYPE(gemmscope::StageId)

class TestCatalogBounds : public QObject {
    Q_OBJECT

private slots:
    // Defect 1: a session's run with BX = 0, TILE = 0 or missing, BK = 0 reached launchGeometry and
    // estimateTraffic from the roofline and died of SIGFPE. Both are now defined for any input,
    // and violations() names what is wrong.
    void zeroOrMissingTilesAreRefusedNotDividedBy_data()
    {
        QTest::addColumn<StageId>("stage");
        QTest::addColumn<ParamValues>("params");
        QTest::addColumn<QString>("named"); // the parameter the refusal names
        QTest::newRow("BX = 0") << StageId::Naive << ParamValues{{"BX", 0}, {"BY", 16}} << "BX";
        QTest::newRow("BY missing") << StageId::Naive << ParamValues{{"BX", 16}} << "BY";
        QTest::newRow("TILE = 0") << StageId::SmemTiled << ParamValues{{"TILE", 0}, {"PAD", 0}} << "TILE";
        QTest::newRow("TILE missing") << StageId::SmemTiled << ParamValues{{"PAD", 0}} << "TILE";
        QTest::newRow("BK = 0") << StageId::Coalesced
                                << ParamValues{{"BM", 64}, {"BN", 64}, {"BK", 0}, {"TM", 4}, {"TN", 4}}
                                << "BK";
        QTest::newRow("TM = 0") << StageId::Final
                                << ParamValues{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 0}, {"TN", 4}}
                                << "TM";
        QTest::newRow("BM = INT_MIN")
            << StageId::DoubleBuffered
            << ParamValues{{"BM", INT_MIN}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}} << "BM";
        QTest::newRow("BN = INT_MAX")
            << StageId::Strided
            << ParamValues{{"BM", 64}, {"BN", INT_MAX}, {"BK", INT_MAX}, {"TM", 4}, {"TN", 4}} << "BN";
        QTest::newRow("everything missing") << StageId::Coarsened << ParamValues{} << "BM";
    }
    void zeroOrMissingTilesAreRefusedNotDividedBy()
    {
        QFETCH(StageId, stage);
        QFETCH(ParamValues, params);
        QFETCH(QString, named);
        const ProblemSize size{512, 512, 512};
        const auto reasons = violations(stage, params, size);
        QVERIFY(!reasons.empty());
        QVERIFY2(QString::fromStdString(reasons.front()).contains(named), reasons.front().c_str());
        // The models still answer (nothing to compute is 0), without a division by zero.
        const LaunchGeometry g = launchGeometry(stage, params, size);
        QVERIFY(g.gridX >= 0 && g.gridY >= 0);
        const TrafficEstimate t = estimateTraffic(stage, params, size);
        QVERIFY(std::isfinite(t.intensity));
        QVERIFY(!kernelShape(stage, params).shape);
    }

    // Defect 8: 2^32 x 2^32 x 2^32 passed (the products wrapped) and became a 0-size GEMM.
    void hugeSizesAreRefusedWithASentence_data()
    {
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        QTest::addColumn<QString>("says");
        const qlonglong p32 = 1LL << 32;
        QTest::newRow("2^32 cubed") << p32 << p32 << p32 << "below 2^31";
        QTest::newRow("2^31 in M") << (1LL << 31) << 1LL << 1LL << "below 2^31";
        QTest::newRow("LLONG_MAX") << qlonglong(LLONG_MAX) << qlonglong(LLONG_MAX) << qlonglong(LLONG_MAX)
                                   << "below 2^31";
        QTest::newRow("A of 2^32 elements") << 65536LL << 16LL << 65536LL << "fewer than 2^31 elements";
        QTest::newRow("C of 2^31 elements") << 65536LL << 32768LL << 1LL << "fewer than 2^31 elements";
        QTest::newRow("negative") << -1LL << 5LL << 5LL << "at least 1";
        QTest::newRow("LLONG_MIN") << qlonglong(LLONG_MIN) << 1LL << 1LL << "at least 1";
    }
    void hugeSizesAreRefusedWithASentence()
    {
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        QFETCH(QString, says);
        const ProblemSize size{m, n, k};
        for (const StageInfo &stage : stages()) {
            const auto reasons = violations(stage.id, defaultParams(stage.id), size);
            QVERIFY2(!reasons.empty(), stage.key.c_str());
            QVERIFY2(QString::fromStdString(reasons.front()).contains(says), reasons.front().c_str());
            const LaunchGeometry g = launchGeometry(stage.id, defaultParams(stage.id), size);
            QVERIFY(g.gridX >= 0 && g.gridY >= 0);
            QVERIFY(std::isfinite(estimateTraffic(stage.id, defaultParams(stage.id), size).flops));
        }
    }

    void largestValidSizeStillPasses()
    {
        // 46340^2 < 2^31: the largest square problem the 32-bit indexing allows.
        QVERIFY(violations(StageId::CublasFp32, {}, ProblemSize{46340, 46340, 46340}).empty());
        QVERIFY(!violations(StageId::CublasFp32, {}, ProblemSize{46341, 46341, 46341}).empty());
    }

    // Defect 7: NVRTC 13 refuses anything below sm_75, so no stage may claim less.
    void minimumArchitectureIsCuda13s()
    {
        QCOMPARE(kCuda13MinArch, 75);
        for (const StageInfo &stage : stages())
            QVERIFY2(stage.minArch >= 75, stage.key.c_str());
        QCOMPARE(findStage("cublas_tf32")->minArch, 80); // TF32 tensor cores: Ampere
    }

    void blockOfAbsurdShapeSaturates()
    {
        LaunchGeometry g;
        g.blockX = INT_MAX;
        g.blockY = INT_MAX;
        QCOMPARE(g.threadsPerBlock(), INT_MAX);
        g.blockY = INT_MIN;
        QCOMPARE(g.threadsPerBlock(), INT_MIN);
    }
};

QTEST_GUILESS_MAIN(TestCatalogBounds)
#include "tst_catalog_bounds.moc"
