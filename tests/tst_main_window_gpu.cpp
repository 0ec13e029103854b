// End to end on a GPU: pick a stage, press Run, and see the measured result arrive in the table.
// Saves a screenshot of the main window to $GEMMSCOPE_SCREENSHOT_DIR when set.
#include "main_window.h"
#include "parameter_panel.h"
#include "results_model.h"
#include "runner_client.h"
#include "session.h"

#include <QAction>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

class TestMainWindowGpu : public QObject {
    Q_OBJECT
private slots:
    void runArrivesInTable()
    {
        const QString runner = qEnvironmentVariable("GEMMSCOPE_RUNNER");
        if (runner.isEmpty() || !QFileInfo(runner).isExecutable())
            QSKIP("gemmscope-runner is not built here (GEMMSCOPE_RUNNER is not set)");
        QStandardPaths::setTestModeEnabled(true);
        QTemporaryDir dir;
        MainWindow window(
            {.startRunner = true, .restoreSettings = false, .autosavePath = dir.filePath("autosave.json")});
        window.resize(1600, 1000);
        window.show();
        // The client lives in a worker thread: wait until the window itself has taken in the
        // runner's status (a queued signal), not just until the client emitted it.
        const QString starting = window.runnerStatus();
        QTRY_VERIFY_WITH_TIMEOUT(window.runnerAvailable() || window.runnerStatus() != starting, 60000);
        if (!window.runnerAvailable())
            QSKIP(qPrintable(QStringLiteral("No GPU: %1").arg(window.runnerStatus())));

        ParameterPanel *panel = window.parameterPanel();
        QVERIFY(panel->applyPreset("worklog-3"));
        panel->setProblemSize({1024, 1024, 1024});
        QAction *run = window.action("actionRun");
        QVERIFY(run->isEnabled());
        run->trigger();
        const auto finished = [&] {
            const auto &runs = window.session()->runs();
            return !runs.isEmpty() &&
                   (runs.last().status == RunStatus::Ok || runs.last().status == RunStatus::Failed);
        };
        QTRY_VERIFY_WITH_TIMEOUT(finished(), 120000);
        const RunRecord &r = window.session()->runs().last();
        QVERIFY2(r.status == RunStatus::Ok, qPrintable(r.errorKind + ": " + r.errorMessage));
        QCOMPARE(r.stage, QStringLiteral("coalesced"));
        QVERIFY(r.medianMs > 0);
        QVERIFY(r.relError && *r.relError <= r.tolerance);
        QVERIFY(!r.gpuName.isEmpty());
        const int row = window.resultsModel()->rowOf(r.runId);
        QVERIFY(row >= 0);
        QCOMPARE(window.resultsModel()->index(row, ResultsModel::StatusColumn).data().toString(),
                 QStringLiteral("ok"));
        QVERIFY(
            window.resultsModel()->index(row, ResultsModel::MedianColumn).data().toString().contains("ms"));

        const QString shots = qEnvironmentVariable("GEMMSCOPE_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QTest::qWait(200);
            QVERIFY(window.grab().save(QDir(shots).filePath("main_window_gpu.png")));
        }
    }
};

QTEST_MAIN(TestMainWindowGpu)
#include "tst_main_window_gpu.moc"
