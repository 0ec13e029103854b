// Sweep planning (kernels/sweep_plan.h): the grid a stage and two axes make, the points each cell
// holds (fixed or best over the rest), and that every invalid point carries the catalog's own
// sentence so that it never reaches a runner.
#include "sweep_plan.h"

#include <QtTest>
#include <set>

using namespace gemmscope;

class TestSweepPlan : public QObject {
    Q_OBJECT
private slots:
    void fixedRestMakesOnePointPerCell();
    void invalidPointsCarryTheCatalogSentence();
    void bestOverRestTriesEveryCombination();
    void axisValuesAreCheckedAgainstTheCatalog_data();
    void axisValuesAreCheckedAgainstTheCatalog();
    void tooManyPointsIsRefused();
    void pointKeyIdentifiesAConfiguration();
};

void TestSweepPlan::fixedRestMakesOnePointPerCell()
{
    SweepSpec spec;
    spec.stage = StageId::Final;
    spec.x = {"BM", {}};
    spec.y = {"BN", {}};
    spec.fixed = {{"BK", 16}, {"TM", 12}, {"TN", 4}};
    const SweepPlan plan = planSweep(spec);
    QVERIFY2(plan.ok(), plan.error.c_str());
    const std::vector<int> blockTiles = legalValues(findStage("final")->params[0]);
    QCOMPARE(plan.xValues, blockTiles);
    QCOMPARE(plan.yValues, blockTiles);
    QCOMPARE(plan.cells.size(), blockTiles.size() * blockTiles.size());
    QCOMPARE(plan.points.size(), plan.cells.size());
    for (const SweepCell &cell : plan.cells) {
        QCOMPARE(cell.points.size(), std::size_t(1));
        const SweepPoint &p = plan.points[std::size_t(cell.points.front())];
        QCOMPARE(p.params.at("BM"), cell.x);
        QCOMPARE(p.params.at("BN"), cell.y);
        QCOMPARE(p.params.at("BK"), 16);
        QCOMPARE(p.params.at("TM"), 12);
        QCOMPARE(p.params.at("TN"), 4);
        QCOMPARE(plan.cellAt(cell.xIndex, cell.yIndex), &cell);
    }
    // Some of the grid runs, some does not (BM = 64 is not a multiple of TM = 12).
    QVERIFY(plan.validPointCount() > 0);
    QVERIFY(plan.validPointCount() < plan.points.size());
    QCOMPARE(plan.cellAt(-1, 0), nullptr);
    QCOMPARE(plan.cellAt(int(blockTiles.size()), 0), nullptr);
}

void TestSweepPlan::invalidPointsCarryTheCatalogSentence()
{
    SweepSpec spec;
    spec.stage = StageId::Final;
    spec.x = {"BM", {64, 100 - 4, 128}}; // 96 is legal
    spec.y = {"TM", {4, 12}};
    spec.fixed = {{"BN", 64}, {"BK", 8}, {"TN", 4}};
    const SweepPlan plan = planSweep(spec);
    QVERIFY2(plan.ok(), plan.error.c_str());
    int invalid = 0;
    for (const SweepPoint &p : plan.points) {
        // Exactly what the catalog says about this configuration, nothing of the planner's own.
        QCOMPARE(p.invalid, violations(spec.stage, p.params, spec.size));
        const SweepCell &cell = plan.cells[std::size_t(p.cell)];
        if (!p.valid()) {
            ++invalid;
            QCOMPARE(cell.invalidReason, p.invalid.front());
        } else {
            QVERIFY(cell.invalidReason.empty());
        }
    }
    QVERIFY(invalid > 0); // BM = 64 with TM = 12 is refused: 64 is not a multiple of 12
    const SweepCell *refused = plan.cellAt(0, 1);
    QVERIFY(refused && !refused->valid());
    QVERIFY2(refused->invalidReason.find("TM (12)") != std::string::npos, refused->invalidReason.c_str());
}

void TestSweepPlan::bestOverRestTriesEveryCombination()
{
    SweepSpec spec;
    spec.stage = StageId::Final;
    spec.x = {"BM", {64, 128}};
    spec.y = {"BN", {64, 128}};
    spec.rest = SweepRest::BestOverRest;
    const SweepPlan plan = planSweep(spec);
    QVERIFY2(plan.ok(), plan.error.c_str());
    const auto &params = findStage("final")->params;
    const std::size_t perCell =
        legalValues(params[2]).size() * legalValues(params[3]).size() * legalValues(params[4]).size();
    QCOMPARE(plan.points.size(), perCell * 4);
    for (const SweepCell &cell : plan.cells) {
        QCOMPARE(cell.points.size(), perCell);
        std::set<std::string> distinct;
        int valid = 0;
        for (int i : cell.points) {
            distinct.insert(formatParams(plan.points[std::size_t(i)].params));
            valid += plan.points[std::size_t(i)].valid() ? 1 : 0;
        }
        QCOMPARE(distinct.size(), perCell); // no combination twice
        QCOMPARE(cell.validPoints, valid);
        QVERIFY(cell.valid());
    }
}

void TestSweepPlan::axisValuesAreCheckedAgainstTheCatalog_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("x");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("y");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not a choice") << "final"
                                  << "BM" << 100 << "BN"
                                  << "BM cannot be 100";
    QTest::newRow("unknown axis") << "final"
                                  << "XX" << 64 << "BN"
                                  << "no parameter \"XX\"";
    QTest::newRow("same axis twice") << "final"
                                     << "BM" << 64 << "BM"
                                     << "two different parameters";
    QTest::newRow("library stage") << "cublas_fp32"
                                   << "BM" << 64 << "BN"
                                   << "at least two parameters";
    QTest::newRow("unknown stage") << "nope"
                                   << "BM" << 64 << "BN"
                                   << "no stage";
}

void TestSweepPlan::axisValuesAreCheckedAgainstTheCatalog()
{
    QFETCH(QString, stage);
    QFETCH(QString, x);
    QFETCH(int, value);
    QFETCH(QString, y);
    QFETCH(QString, expected);
    SweepSpec spec;
    spec.stage = StageId(stage.toStdString());
    spec.x = {x.toStdString(), {value}};
    spec.y = {y.toStdString(), {}};
    const SweepPlan plan = planSweep(spec);
    QVERIFY(!plan.ok());
    QVERIFY(plan.points.empty());
    QVERIFY2(QString::fromStdString(plan.error).contains(expected), plan.error.c_str());
}

void TestSweepPlan::tooManyPointsIsRefused()
{
    SweepSpec spec;
    spec.stage = StageId::Final;
    spec.x = {"BM", {}};
    spec.y = {"BN", {}};
    spec.rest = SweepRest::BestOverRest;
    spec.maxPoints = 1000;
    const SweepPlan plan = planSweep(spec);
    QVERIFY(!plan.ok());
    QVERIFY(plan.points.empty());
    QVERIFY2(plan.error.find("more than the 1000") != std::string::npos, plan.error.c_str());
}

void TestSweepPlan::pointKeyIdentifiesAConfiguration()
{
    const ParamValues a{{"BM", 64}, {"BN", 128}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    ParamValues b = a;
    b["BN"] = 64;
    const ProblemSize size{4096, 4096, 4096};
    QCOMPARE(sweepPointKey(StageId::Final, a, size),
             std::string("final|BM=64 BN=128 BK=8 TM=4 TN=4|4096x4096x4096"));
    QVERIFY(sweepPointKey(StageId::Final, a, size) != sweepPointKey(StageId::Final, b, size));
    QVERIFY(sweepPointKey(StageId::Final, a, size) != sweepPointKey(StageId::Final, a, {4096, 4096, 2048}));
}

QTEST_APPLESS_MAIN(TestSweepPlan)
#include "tst_sweep_plan.moc"
