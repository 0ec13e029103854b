// End to end on a GPU: pick a stage, press Run, and see the measured result arrive in the table;
// then the same with the launch experiments and the scalar build, checked in the Counters tab.
// Saves screenshots of the main window to $GEMMSCOPE_SCREENSHOT_DIR when set.
#include "access_check_view.h"
#include "main_window.h"
#include "parameter_panel.h"
#include "results_model.h"
#include "run_selection.h"
#include "runner_client.h"
#include "session.h"
#include "support/gpu_window.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

class TestMainWindowGpu : public QObject {
    Q_OBJECT

    // The window with a started runner, or a skip with the reason there is none.
    std::unique_ptr<MainWindow> startWindow(const QTemporaryDir &dir)
    {
        return test::startGpuWindow(dir.filePath("autosave.json"));
    }

    // Presses Run and waits for the run to end; returns it.
    RunRecord runAndWait(MainWindow &window)
    {
        QAction *run = window.action("actionRun");
        if (!run->isEnabled())
            return {};
        run->trigger();
        const auto finished = [&] {
            const auto &runs = window.session()->runs();
            return !runs.isEmpty() &&
                   (runs.last().status == RunStatus::Ok || runs.last().status == RunStatus::Failed);
        };
        if (!QTest::qWaitFor(finished, 180000))
            return {};
        return window.session()->runs().last();
    }

    void screenshot(MainWindow &window, const QString &name) { QVERIFY(test::saveWindowShot(window, name)); }

private slots:
    void initTestCase()
    {
        const QString runner = qEnvironmentVariable("GEMMSCOPE_RUNNER");
        if (runner.isEmpty() || !QFileInfo(runner).isExecutable())
            QSKIP("gemmscope-runner is not built here (GEMMSCOPE_RUNNER is not set)");
        QStandardPaths::setTestModeEnabled(true);
    }

    void runArrivesInTable()
    {
        QTemporaryDir dir;
        const auto window = startWindow(dir);
        if (!window->runnerAvailable())
            QSKIP(qPrintable(QStringLiteral("No GPU: %1").arg(window->runnerStatus())));

        ParameterPanel *panel = window->parameterPanel();
        QVERIFY(panel->applyPreset("worklog-3"));
        panel->setProblemSize({1024, 1024, 1024});
        QVERIFY(window->action("actionRun")->isEnabled());
        const RunRecord r = runAndWait(*window);
        QVERIFY2(r.status == RunStatus::Ok, qPrintable(r.errorKind + ": " + r.errorMessage));
        QCOMPARE(r.stageKey(), QStringLiteral("coalesced"));
        QVERIFY(r.medianMs > 0);
        QVERIFY(r.relError && *r.relError <= r.tolerance);
        QVERIFY(!r.gpuName.isEmpty());
        const int row = window->resultsModel()->rowOf(r.runId);
        QVERIFY(row >= 0);
        QCOMPARE(window->resultsModel()->index(row, ResultsModel::StatusColumn).data().toString(),
                 QStringLiteral("ok"));
        QVERIFY(
            window->resultsModel()->index(row, ResultsModel::MedianColumn).data().toString().contains("ms"));
        screenshot(*window, QStringLiteral("main_window_gpu.png"));
    }

    // Step 3 in the scalar-shared build at one block per SM, where the hardware counters count
    // what the model describes (docs/gpu-verification.md): the run records its launch, and the
    // Counters tab finds every modelled quantity in agreement.
    void countersTabAgreesForAControlledRun()
    {
        QTemporaryDir dir;
        const auto window = startWindow(dir);
        if (!window->runnerAvailable())
            QSKIP(qPrintable(QStringLiteral("No GPU: %1").arg(window->runnerStatus())));

        ParameterPanel *panel = window->parameterPanel();
        QVERIFY(panel->applyPreset("worklog-3"));
        panel->setProblemSize({1536, 1536, 1536});
        panel->findChild<QCheckBox *>("countersCheck")->setChecked(true);
        panel->findChild<QCheckBox *>("scalarReadsCheck")->setChecked(true);
        auto *blocks = panel->findChild<QComboBox *>("blocksPerSmCombo");
        blocks->setCurrentIndex(blocks->findData(1));
        const RunRecord r = runAndWait(*window);
        QVERIFY2(r.status == RunStatus::Ok, qPrintable(r.errorKind + ": " + r.errorMessage));
        QVERIFY(r.scalarSharedReads);
        QCOMPARE(r.maxBlocksPerSm, 1);
        QCOMPARE(r.occupancyLimiter, std::optional(OccupancyLimiter::Requested));

        window->selection()->select(r.runId);
        auto *check = window->findChild<AccessCheckView *>("accessCheckView");
        QVERIFY(check);
        if (check->rows().isEmpty() && check->headline().contains(QStringLiteral("could not read")))
            QSKIP(qPrintable(check->headline())); // counters need a permission this machine may lack
        QCOMPARE(check->rows().size(), 8);        // four ratios and the launch's four instruction counts
        for (const AccessCheckView::Row &row : check->rows())
            QVERIFY2(row.verdict == AccessCheckView::Verdict::Agrees,
                     qPrintable(QStringLiteral("%1: model %2, measured %3")
                                    .arg(row.quantity)
                                    .arg(row.model)
                                    .arg(row.measured.value_or(-1))));
        auto *tabs = window->findChild<QTabWidget *>("mappingTabs");
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == QStringLiteral("Counters"))
                tabs->setCurrentIndex(i);
        screenshot(*window, QStringLiteral("main_window_counters_gpu.png"));
    }
};

QTEST_MAIN(TestMainWindowGpu)
#include "tst_main_window_gpu.moc"
