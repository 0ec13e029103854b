// The Compile tab: a compile's report stays in a view (registers, spills, shared memory static +
// dynamic, occupancy, its one limiter, the ptxas log), and its limiter is the results table's for
// the same kernel: for the TMA stage both once disagreed ("shared memory" in the status bar,
// "14 % (registers)" in the table).
#include "compile_panel.h"
#include "results_model.h"
#include "session.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gemmscope;

class TestCompilePanel : public QObject {
    Q_OBJECT
private slots:
    void theReportStaysAndNamesTheTablesLimiter()
    {
        Session session;
        session.setAutosavePath({});
        QString error;
        QVERIFY2(session.open(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"),
                              &error),
                 qPrintable(error));
        ResultsModel model(&session);
        const int row = [&] {
            for (int r = 0; r < model.rowCount(); ++r)
                if (model.runAt(r).presetKey == QLatin1String("tf32-wgmma-tma"))
                    return r;
            return -1;
        }();
        QVERIFY(row >= 0);
        // The compile of that kernel, as the runner answers Ctrl+B: the recorded run's report with
        // the dynamic shared memory and block size a compile job's answer carries.
        const RunRecord &run = model.runAt(row);
        QVERIFY(run.event.result() && run.event.result()->compiled);
        protocol::CompiledInfo compiled = *run.event.result()->compiled;
        QCOMPARE(compiled.registers, 168);
        compiled.dynamicSmemBytes = 197696;
        compiled.threadsPerBlock = 288;
        compiled.arch = QStringLiteral("sm_90a");

        CompilePanel panel;
        QVERIFY(panel.rows().isEmpty());
        QVERIFY(panel.message().contains(QStringLiteral("Ctrl+B")));
        panel.showCompiled(QStringLiteral("Tensor cores: Hopper wgmma fed by TMA for sm_90a"), compiled);
        const QString cell = model.index(row, ResultsModel::OccupancyColumn).data().toString();
        QCOMPARE(cell, QStringLiteral("14 % (limited by shared mem)"));
        QCOMPARE(panel.limiter(), QStringLiteral("shared memory"));
        QHash<QString, QString> shown;
        for (const auto &[quantity, value] : panel.rows())
            shown.insert(quantity, value);
        QCOMPARE(shown.value(QStringLiteral("Registers per thread")), QStringLiteral("168"));
        QCOMPARE(shown.value(QStringLiteral("Spills")), QStringLiteral("none"));
        QVERIFY2(shown.value(QStringLiteral("Shared memory per block"))
                     .contains(QStringLiteral("197696 B dynamic")),
                 qPrintable(shown.value(QStringLiteral("Shared memory per block"))));
        QVERIFY2(shown.value(QStringLiteral("Occupancy")).startsWith(QStringLiteral("14 %")),
                 qPrintable(shown.value(QStringLiteral("Occupancy"))));
        QCOMPARE(shown.value(QStringLiteral("Limited by")), QStringLiteral("shared memory"));
        QVERIFY(panel.log().contains(QStringLiteral("Used 168 registers")));

        // A failure replaces the report with its sentence, never a stale report beside it.
        panel.showMessage(QStringLiteral("Coalesced cooperative loads did not compile: <b>x</b>"));
        QVERIFY(panel.rows().isEmpty());
        QVERIFY(panel.log().isEmpty());
        QVERIFY(panel.message().contains(QStringLiteral("<b>x</b>"))); // shown as written
    }
};

QTEST_MAIN(TestCompilePanel)
#include "tst_compile_panel.moc"
