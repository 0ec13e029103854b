// The Counters workspace's per-instruction memory table, offscreen: the empty state, the rows of a
// profile worst first with a verdict each, sorting, the model's column where a stage has a model
// (and not where it has none), error sentences and hostile values.
#include "memory_instruction_view.h"
#include "support/kernel_shapes.h"
#include "support/profile_fixtures.h"
#include "support/view_shots.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace gemmscope;

class TestMemoryInstructionView : public QObject {
    Q_OBJECT

private slots:
    void emptyState()
    {
        MemoryInstructionView view;
        QVERIFY(view.headline().startsWith(QLatin1String("No profile of this preset at this size yet")));
        view.setNoProfileText(
            QStringLiteral("Profile this preset (Ctrl+Shift+P) to fill this table."));
        QCOMPARE(view.headline(),
                 QStringLiteral("Profile this preset (Ctrl+Shift+P) to fill this table."));
        QVERIFY(view.table()->isHidden());
        QCOMPARE(view.rowCount(), 0);
        QVERIFY(!test::renderShot(&view, QSize(640, 400), QStringLiteral("memory_table_empty")).isEmpty());
    }

    void rowsWorstFirstWithModel()
    {
        MemoryInstructionView view;
        const protocol::ProfileEvent p = test::coalescedShapedProfile();
        const ModelFigures model =
            modelFigures(test::shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4"), {4096, 4096, 4096});
        QSignalSpy selected(&view, &MemoryInstructionView::instructionSelected);
        view.setProfile(&p, model);
        // 2 LDG, 2 STS, 4 LDS, 1 LDS.128, 1 STG.
        QCOMPARE(view.rowCount(), 10);
        QVERIFY(view.headline().contains(QLatin1String("8 at their ideal, 2 above it")));
        // Worst first, by the wavefronts (sectors) over the ideal in the launch: the LDS.128 at 2x
        // (4 x 4,194,304 over), then the C store at 4x (12 x 262,144 over).
        QCOMPARE(view.rowAt(0)->measured.opcode(), QStringLiteral("LDS.128"));
        QCOMPARE(view.rowAt(0)->measured.excess(), 4.0 * 4194304);
        QCOMPARE(view.rowAt(1)->measured.opcode(), QStringLiteral("STG.E"));
        QCOMPARE(view.rowAt(1)->measured.verdict, MemoryVerdict::Excess);
        QVERIFY(view.detailText().contains(
            QLatin1String("2x the ideal wavefronts (8.0 per request, ideal 4.0): 2-way bank conflict")));
        QVERIFY(
            view.detailText().contains(QLatin1String("16,777,216 wavefronts over the ideal in the launch.")));
        // The model says 16 sectors per C store for step 3 (tst_access_model): shown beside it.
        QVERIFY(view.rowAt(1)->model);
        QCOMPARE(view.rowAt(1)->model->perRequest, 16.0);
        QVERIFY(!view.table()->isColumnHidden(MemoryInstructionsModel::Model));
        QVERIFY(!selected.isEmpty());
        QCOMPARE(selected.last().at(0).value<MemorySpace>(), MemorySpace::Shared); // the LDS.128, selected

        // Sorting by executions, then by line.
        view.table()->sortByColumn(MemoryInstructionsModel::Executions, Qt::DescendingOrder);
        for (int r = 1; r < view.rowCount(); ++r)
            QVERIFY(view.rowAt(r - 1)->measured.executions >= view.rowAt(r)->measured.executions);
        view.table()->sortByColumn(MemoryInstructionsModel::Line, Qt::AscendingOrder);
        QCOMPARE(view.rowAt(0)->measured.instruction->file, QStringLiteral("coalesced.cuh"));
        view.selectRow(view.rowCount() - 1);
        QVERIFY(view.detailText().contains(QLatin1String("cooperative_load.cuh")));
        view.table()->sortByColumn(MemoryInstructionsModel::Verdict, Qt::DescendingOrder);
        QVERIFY(!test::renderShot(&view, QSize(700, 420), QStringLiteral("memory_table")).isEmpty());
    }

    // Step 2 on the H200: the B loads at 16 sectors per request lead the table, beside the model's
    // same figure.
    void recordedStep2()
    {
        MemoryInstructionView view;
        const protocol::ProfileEvent p = test::loadProfileFixture(QStringLiteral("profile-worklog-2.json"));
        view.setProfile(&p, modelFigures(test::shapeOf("coarsened", "BM=64 BN=64 BK=8 TM=4 TN=4"), p.size));
        QVERIFY(view.rowCount() > 20);
        const MemoryRow *worst = view.rowAt(0);
        QCOMPARE(worst->measured.verdict, MemoryVerdict::Excess);
        QCOMPARE(worst->measured.operand, std::optional<Operand>(Operand::B)); // 12 x 8,388,608 sectors over
        QVERIFY(worst->measured.opcode().startsWith(QLatin1String("LDG")));
        QVERIFY(worst->model);
        QCOMPARE(*worst->measured.perRequest, worst->model->perRequest);
        QVERIFY(!test::renderShot(&view, QSize(700, 460), QStringLiteral("memory_table_worklog2")).isEmpty());
        // The Counters pane's half of a 1280x800 window.
        QVERIFY(!test::renderShot(&view, QSize(560, 600), QStringLiteral("memory_table_worklog2_pane"))
                     .isEmpty());
    }

    void measuredStandsAloneWithoutModel()
    {
        MemoryInstructionView view;
        const protocol::ProfileEvent p = test::loadProfileFixture(QStringLiteral("probe_sgemm_h200.json"));
        view.setProfile(&p);
        QCOMPARE(view.rowCount(), 69);
        QVERIFY(view.table()->isColumnHidden(MemoryInstructionsModel::Model));
        QVERIFY(view.headline().contains(QLatin1String("no access model")));
        QVERIFY(view.headline().contains(QLatin1String("69 at their ideal, 0 above it")));
    }

    void errorsAndHostileValues()
    {
        MemoryInstructionView view;
        protocol::ProfileEvent p = test::handMadeProfile();
        p.stage = QStringLiteral("<h1>stage</h1>");
        p.instructionsError = QStringLiteral("CUPTI SASS metrics: <b>not supported</b>.");
        p.instructions[2].metrics.insert(QStringLiteral("sectors_mem_global"),
                                         std::numeric_limits<double>::infinity());
        p.instructions[0].metrics.insert(QStringLiteral("inst_executed"), 1e300);
        view.setProfile(&p);
        QVERIFY(view.headline().contains(QLatin1String("<h1>stage</h1>")));
        QVERIFY(view.headline().contains(QLatin1String("<b>not supported</b>")));
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("memoryHeadline"))->textFormat(), Qt::PlainText);
        for (int r = 0; r < view.rowCount(); ++r)
            view.selectRow(r);
        // Only the error: no rows, the sentence stands.
        protocol::ProfileEvent failed;
        failed.instructionsError = QStringLiteral("Per-instruction metrics need GemmScope's own kernels.");
        view.setProfile(&failed);
        QCOMPARE(view.rowCount(), 0);
        QVERIFY(view.headline().contains(failed.instructionsError));
        QVERIFY(view.table()->isHidden());
    }
};

QTEST_MAIN(TestMemoryInstructionView)
#include "tst_memory_instruction_view.moc"
