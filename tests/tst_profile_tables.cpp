// The profile's item models (app/core/profile_tables.h) under QAbstractItemModelTester: rows of
// lines and instructions, numbers sorting as numbers, tooltips escaped as plain text.
#include "profile_tables.h"
#include "support/profile_fixtures.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace gemmscope;

class TestProfileTables : public QObject {
    Q_OBJECT

private slots:
    void hotspotModel()
    {
        const protocol::ProfileEvent p = test::coalescedShapedProfile();
        ProfileHotspotModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(hotspotRowsOfLines(foldOntoLines(p)));
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(model.data(model.index(0, ProfileHotspotModel::Where)).toString(),
                 QStringLiteral("coalesced.cuh:35"));
        QCOMPARE(model.data(model.index(0, ProfileHotspotModel::Instructions)).toInt(), 16);
        QCOMPARE(model.data(model.index(0, ProfileHotspotModel::Detail)).toString(),
                 QStringLiteral("acc[i][j] += aFrag[i] * bFrag[j];")); // the embedded source's line
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(ProfileHotspotModel::SortRole);
        proxy.sort(ProfileHotspotModel::Samples, Qt::AscendingOrder);
        for (int r = 1; r < proxy.rowCount(); ++r)
            QVERIFY(
                proxy.index(r - 1, ProfileHotspotModel::Samples)
                    .data(ProfileHotspotModel::SortRole)
                    .toDouble() <=
                proxy.index(r, ProfileHotspotModel::Samples).data(ProfileHotspotModel::SortRole).toDouble());
        model.setRows(hotspotRowsOfInstructions(instructionHeat(p), mainFunction(p)));
        QCOMPARE(model.rowCount(), p.instructions.size());
        QCOMPARE(model.data(model.index(0, ProfileHotspotModel::Where)).toString(), QStringLiteral("0x0400"));
    }

    void memoryModelEscapesAndSorts()
    {
        protocol::ProfileEvent p = test::handMadeProfile();
        p.instructions[0].sass = QStringLiteral("<img src=x> LDS");
        QList<MemoryRow> rows;
        for (const MemoryInstruction &m : memoryInstructions(p))
            rows.append({m, std::nullopt});
        MemoryInstructionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(rows);
        QCOMPARE(model.rowCount(), 5);
        const QString tip = model.data(model.index(0, 0), Qt::ToolTipRole).toString();
        QVERIFY(tip.contains(QLatin1String("&lt;img src=x&gt;")));
        QVERIFY(!tip.contains(QLatin1String("<img")));
        // Sectors and wavefronts share a column; the cell names which it counts.
        QCOMPARE(model.data(model.index(0, MemoryInstructionsModel::PerRequest)).toString(),
                 QStringLiteral("4.0 wavef. (1.0)"));
        QCOMPARE(model.data(model.index(0, MemoryInstructionsModel::Verdict)).toString(),
                 QStringLiteral("4-way conflict"));
        QCOMPARE(model.data(model.index(1, MemoryInstructionsModel::Verdict)).toString(),
                 QStringLiteral("coalesced"));
        QCOMPARE(model.data(model.index(2, MemoryInstructionsModel::Verdict)).toString(),
                 QStringLiteral("4x sectors: uncoalesced"));
        QCOMPARE(model.data(model.index(3, MemoryInstructionsModel::Verdict)).toString(),
                 QStringLiteral("never executed"));
        // The verdict sorts by what the excess costs: (16 - 4) sectors x 10 executions.
        QCOMPARE(
            model.data(model.index(2, MemoryInstructionsModel::Verdict), MemoryInstructionsModel::SortRole)
                .toDouble(),
            120.0);
    }
};

QTEST_GUILESS_MAIN(TestProfileTables)
#include "tst_profile_tables.moc"
