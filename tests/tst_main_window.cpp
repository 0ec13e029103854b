// The main window offscreen: it builds with every view, the actions carry their shortcuts, Run
// follows validity and runner status, selection is shared, exports and render-session write files.
#include "access_check_view.h"
#include "app_resources.h"
#include "bank_conflict_view.h"
#include "chart_interaction.h"
#include "chart_layout.h"
#include "coalescing_view.h"
#include "compile_panel.h"
#include "help_dialog.h"
#include "machine_code_view.h"
#include "main_window.h"
#include "parameter_panel.h"
#include "plain_text.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "run_selection.h"
#include "run_view.h"
#include "runtime_chart.h"
#include "session.h"
#include "session_render.h"
#include "stage_source_view.h"
#include "support/stand_in_runner.h"

#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace gemmscope;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Keep the user's settings and autosave out of the tests.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("GemmScopeTests");
        QCoreApplication::setApplicationName("tst_main_window");
        QVERIFY(m_dir.isValid());
    }

    MainWindow::Options options() const
    {
        return {
            .startRunner = false, .restoreSettings = false, .autosavePath = m_dir.filePath("autosave.json")};
    }

    // Each workspace shows its own views at a readable size; the Ladder is the first.
    void buildsWithEveryWorkspacesViewsVisible()
    {
        MainWindow window(options());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.workspaces()->current(), Workspace::Ladder);
        const QList<QPair<Workspace, QStringList>> expected{
            {Workspace::Ladder, {"runtimeChart", "rooflineView", "resultsTable"}},
            {Workspace::Kernel, {"mappingView", "mappingTabs", "parameterPanel"}},
            {Workspace::Counters, {"countersPage", "counterRunList"}},
            {Workspace::Sweep, {"sweepModes"}}};
        for (const auto &[workspace, names] : expected) {
            window.workspaces()->setCurrent(workspace);
            QApplication::processEvents();
            for (const QString &name : names) {
                auto *view = window.findChild<QWidget *>(name);
                QVERIFY2(view, qPrintable(name));
                QVERIFY2(view->isVisible(), qPrintable(name));
                QVERIFY2(view->width() > 100 && view->height() > 100, qPrintable(name));
            }
        }
        QVERIFY(window.findChild<QSplitter *>("chartSplitter"));
        QVERIFY(window.runnerStatus().contains("Running is off"));
        // What is left without a runner, in words that hold beside a Compile greyed for another
        // reason (the Editor with no kernel open): not "still works".
        auto *status = window.findChild<QLabel *>(QStringLiteral("runnerStatusLabel"));
        QVERIFY(status);
        QVERIFY2(status->text().endsWith(QStringLiteral("Compiling (Ctrl+B) needs no GPU.")),
                 qPrintable(status->text()));
    }

    // The Sweep workspace shows one stage picker and one budget, the sweep form's: the parameter
    // panel's beside them read as a choice between two. Alt+0 still shows the panel there.
    void sweepWorkspaceShowsOneStageAndOneBudget()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Sweep);
        QApplication::processEvents();
        const auto shown = [&window](const QStringList &names) {
            int count = 0;
            for (const QString &name : names)
                for (const QWidget *w : window.findChildren<QWidget *>(name))
                    count += w->isVisible() ? 1 : 0;
            return count;
        };
        QCOMPARE(shown({"stageCombo", "sweepStage"}), 1);
        QCOMPARE(shown({"spin_budget", "sweepBudget"}), 1);
        QVERIFY(window.findChild<QWidget *>("sweepStage")->isVisible());
        QVERIFY(!window.workspaces()->panelShown());
        window.workspaces()->setPanelShown(true); // Alt+0
        QVERIFY(window.findChild<QWidget *>("parameterPanel")->isVisible());
        window.workspaces()->setCurrent(Workspace::Kernel);
        QVERIFY(window.workspaces()->panelShown()); // the Kernel workspace keeps its own
    }

    // At 1920x1080 the Counters workspace gives its room to the counters, whose sentences wrap
    // where narrow (half of it stood blank beside a run list as wide as they); the run list keeps
    // what its columns need when the window grows.
    void countersTakeTheRoomOfAWideWindow()
    {
        MainWindow window(options());
        window.resize(1920, 1080);
        window.workspaces()->applyFirstStartSizes(window.size());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Counters);
        QApplication::processEvents();
        auto *splitter = window.findChild<QSplitter *>(QStringLiteral("countersSplitter"));
        QVERIFY(splitter);
        const QList<int> sizes = splitter->sizes();
        QVERIFY2(sizes[1] >= 3 * sizes[0] / 2,
                 qPrintable(QStringLiteral("%1 | %2").arg(sizes[0]).arg(sizes[1])));
        window.resize(2400, 1080);
        QApplication::processEvents();
        QCOMPARE(splitter->sizes()[0], sizes[0]);
    }

    void shortcutsExist_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QKeySequence>("shortcut");
        QTest::newRow("run") << "actionRun" << QKeySequence("Ctrl+R");
        QTest::newRow("ladder") << "actionRunLadder" << QKeySequence("Ctrl+Shift+R");
        QTest::newRow("cancel") << "actionCancel" << QKeySequence(Qt::Key_Escape);
        QTest::newRow("profile") << "actionProfile" << QKeySequence("Ctrl+P");
        QTest::newRow("open") << "actionOpen" << QKeySequence("Ctrl+O");
        QTest::newRow("save") << "actionSave" << QKeySequence("Ctrl+S");
        QTest::newRow("save as") << "actionSaveAs" << QKeySequence("Ctrl+Shift+S");
        QTest::newRow("export") << "actionExport" << QKeySequence("Ctrl+E");
        QTest::newRow("quit") << "actionQuit" << QKeySequence("Ctrl+Q");
    }

    void shortcutsExist()
    {
        QFETCH(QString, action);
        QFETCH(QKeySequence, shortcut);
        MainWindow window(options());
        QAction *a = window.action(action);
        QVERIFY(a);
        QVERIFY(a->shortcuts().contains(shortcut));
    }

    void runFollowsValidityAndRunner()
    {
        MainWindow window(options());
        QAction *run = window.action("actionRun");
        QVERIFY(!run->isEnabled()); // no runner: running is off, and the status says why
        window.showRunnerStatus(true, "Test GPU (sm_90, 1 SMs)");
        QVERIFY(run->isEnabled());
        window.parameterPanel()->applyPreset("worklog-3");
        auto *spin = window.parameterPanel()->findChild<QSpinBox *>("spin_BM");
        spin->setValue(100);
        QVERIFY(!window.parameterPanel()->isValid());
        QVERIFY(!run->isEnabled());
        spin->setValue(64);
        QVERIFY(run->isEnabled());
        window.showRunnerStatus(false, "No CUDA driver is installed on this machine.");
        QVERIFY(!run->isEnabled());
        QVERIFY(window.runnerStatus().contains("No CUDA driver"));
        QCOMPARE(window.findChild<QLabel *>("runnerStatusLabel")->toolTip(),
                 plainTextAsHtml(window.runnerStatus()));
    }

    // Profile (Ctrl+P) is in the Run menu, on the toolbar and in the Help's shortcut list;
    // it is off without a runner with a GPU or for a refused configuration, and says why.
    void profileFollowsValidityAndRunner()
    {
        MainWindow window(options());
        QAction *profile = window.action("actionProfile");
        QVERIFY(profile);
        QVERIFY(!profile->isEnabled());
        QVERIFY2(
            profile->statusTip().startsWith("Profiling is off: this window was started without a runner"),
            qPrintable(profile->statusTip()));
        QCOMPARE(profile->toolTip(), plainTextAsHtml(profile->statusTip()));
        window.showRunnerStatus(false, "No CUDA driver is installed on this machine.");
        QCOMPARE(profile->statusTip(),
                 QStringLiteral("Profiling is off: No CUDA driver is installed on this machine."));
        window.showRunnerStatus(true, "Test GPU (sm_90, 1 SMs)");
        QVERIFY(profile->isEnabled());
        QVERIFY(profile->statusTip().contains("cuBLAS at the same size"));
        window.parameterPanel()->applyPreset("worklog-3");
        auto *spin = window.parameterPanel()->findChild<QSpinBox *>("spin_BM");
        spin->setValue(100);
        QVERIFY(!profile->isEnabled());
        QVERIFY2(profile->statusTip().startsWith("Profile is off: "), qPrintable(profile->statusTip()));
        spin->setValue(64);
        QVERIFY(profile->isEnabled());
        // Where the user finds it.
        QMenu *runMenu = nullptr;
        for (QMenu *menu : window.findChildren<QMenu *>())
            if (menu->title() == QStringLiteral("&Run"))
                runMenu = menu;
        QVERIFY(runMenu && runMenu->actions().contains(profile));
        auto *toolbar = window.findChild<QToolBar *>("runToolBar");
        QVERIFY(toolbar && toolbar->actions().contains(profile));
        QVERIFY(shortcutsHtml(window.actions()).contains(QStringLiteral("Profile")));
    }

    // Profiling end to end on the stand-in runner: Profile stores the configuration's profile and
    // cuBLAS's at that size, adds no run, and says so in the status bar; a damaged profile in a
    // session file is left out with a notice.
    void profileActionStoresProfilesNotRuns()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        const QByteArray previous = qgetenv("GEMMSCOPE_RUNNER");
        qputenv("GEMMSCOPE_RUNNER", test::standInRunnerPath().toLocal8Bit());
        MainWindow::Options o = options();
        o.startRunner = true;
        MainWindow window(o);
        QAction *profile = window.action("actionProfile");
        QTRY_VERIFY_WITH_TIMEOUT(profile->isEnabled(), 10000); // the runner is located when it starts
        qputenv("GEMMSCOPE_RUNNER", previous);
        window.parameterPanel()->applyPreset("worklog-3");
        window.parameterPanel()->setProblemSize(ProblemSize{512, 512, 512});
        const int runs = int(window.session()->runs().size());
        profile->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->profiles().size(), 2, 15000);
        QCOMPARE(int(window.session()->runs().size()), runs);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().startsWith("Profiled cublas_fp32"),
                                 5000);
        QVERIFY(window.session()->profileForConfig(window.parameterPanel()->config(), "Fake GPU"));
    }

    void damagedProfileInASessionFileIsNoticed()
    {
        const QString file = m_dir.filePath("damaged-profile.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"format":"gemmscope-session","version":1,"runs":[],"description":"Runs.",)"
                R"("profiles":[{"origin":"measured","event":{"event":"profile","stage":"final"}}]})");
        f.close();
        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(file, &error), qPrintable(error));
        QVERIFY(window.session()->profiles().isEmpty());
        QVERIFY2(window.noticeText().startsWith("damaged-profile.json: Profile 1 of the file was left out"),
                 qPrintable(window.noticeText()));
        QVERIFY(window.noticeText().endsWith("Runs."));
    }

    // A session measured at one size sets the next run's size to it, and says so; a session of
    // several sizes leaves the panel as it was.
    void theNextRunFollowsTheOpenedSessionsSize()
    {
        MainWindow window(options());
        QCOMPARE(window.parameterPanel()->config().size.m, 8192); // the embedded session's size
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        const ProblemSize size = window.parameterPanel()->config().size;
        QCOMPARE(QList<long long>({size.m, size.n, size.k}), QList<long long>({4096, 4096, 4096}));
        // Said beside the runner's state, which stays on screen (a status bar message hid it).
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto *note = window.statusBar()->findChild<QLabel *>(QStringLiteral("statusNoteLabel"));
        const auto *runner = window.statusBar()->findChild<QLabel *>(QStringLiteral("runnerStatusLabel"));
        QVERIFY(note && runner);
        QTRY_VERIFY2(note->text().contains(QStringLiteral("4096³")), qPrintable(note->text()));
        QVERIFY(note->isVisible() && runner->isVisible() && !runner->text().isEmpty());
        QVERIFY(window.statusBar()->currentMessage().isEmpty());

        window.parameterPanel()->setProblemSize(ProblemSize{512, 512, 512});
        RunRecord other = window.session()->runs().constFirst();
        other.runId = QStringLiteral("other-size");
        other.m = 2048;
        window.session()->addOrUpdate(other);
        QVERIFY(!window.session()->commonMeasuredSize());
        const QString mixed = m_dir.filePath("two-sizes.json"); // never over the test data it opened
        QVERIFY2(window.session()->saveAs(mixed, &error), qPrintable(error));
        QVERIFY2(window.openSession(mixed, &error), qPrintable(error));
        QCOMPARE(window.parameterPanel()->config().size.m, 512);
    }

    // The mapping pane's Source tab follows the panel's stage and stays open for cuBLAS (which
    // closes the access tabs) so that it can say why there is no source.
    void sourceTabFollowsTheStage()
    {
        MainWindow window(options());
        auto *tabs = window.findChild<QTabWidget *>("mappingTabs");
        auto *source = window.findChild<StageSourceView *>("stageSourceView");
        QVERIFY(tabs && source);
        const int sourceTab = tabs->indexOf(source);
        QCOMPARE(tabs->tabText(sourceTab), QString("Source"));
        tabs->setCurrentIndex(sourceTab);
        window.parameterPanel()->setStage(StageId::Strided);
        QCOMPARE(source->stage(), StageId::Strided);
        QVERIFY(source->shownText().contains("strided"));
        window.parameterPanel()->setStage(StageId::CublasTf32);
        QCOMPARE(source->stage(), StageId::CublasTf32);
        QVERIFY(!source->message().isEmpty());
        QCOMPARE(tabs->currentWidget(), source);
        QVERIFY(tabs->isTabEnabled(sourceTab));
        int coalescingTab = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == QStringLiteral("Coalescing"))
                coalescingTab = i;
        QVERIFY(coalescingTab >= 0);
        QVERIFY(tabs->widget(coalescingTab)->isAncestorOf(window.findChild<QWidget *>("coalescingView")));
        QVERIFY(!tabs->isTabEnabled(coalescingTab));
        window.parameterPanel()->setStage(StageId::Coalesced);
        QVERIFY(tabs->isTabEnabled(coalescingTab)); // a modelled stage opens the access tabs again
    }

    void defaultSessionFillsTableAndSelectionIsShared()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        QVERIFY(window.resultsModel()->rowCount() > 0);
        QTableView *table = window.resultsView();
        const QString id = window.session()->runs().last().runId;
        window.selection()->select(id);
        QCOMPARE(table->currentIndex().data(ResultsModel::RunIdRole).toString(), id);
        const QString first = table->model()->index(0, 0).data(ResultsModel::RunIdRole).toString();
        table->setCurrentIndex(table->model()->index(0, 0));
        QCOMPARE(window.selection()->runId(), first);
    }

    // Selecting a recorded H200 run shows its counters against the model in the Counters tab:
    // step 3's tiles divide the worklog's size, so the global rows are compared (and agree), while
    // the release build's merged shared reads are named instead of compared.
    void countersTabFollowsTheSelectedRun()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        auto *check = window.findChild<AccessCheckView *>("accessCheckView");
        auto *tabs = window.findChild<QTabWidget *>("mappingTabs");
        QVERIFY(check && tabs);
        QVERIFY(window.workspaces()->page(Workspace::Counters)->isAncestorOf(check));
        QVERIFY(check->headline().startsWith(QStringLiteral("Select a run")));

        QString recordedStep3;
        for (const RunRecord &run : window.session()->runs())
            if (run.presetKey == QStringLiteral("worklog-3") && run.origin == QStringLiteral("recorded"))
                recordedStep3 = run.runId;
        QVERIFY(!recordedStep3.isEmpty());
        window.selection()->select(recordedStep3);
        QVERIFY(window.showView(QStringLiteral("Counters")));
        QCOMPARE(window.workspaces()->current(), Workspace::Counters);
        // Named by the charts' code, with the GPU that tells it from the published T4 step 3.
        QVERIFY2(
            check->headline().startsWith(QStringLiteral("Stage 3: Coalesced cooperative loads, BM=64")) &&
                check->headline().contains(QStringLiteral("NVIDIA H200")),
            qPrintable(check->headline()));
        QCOMPARE(check->rows().size(), 8); // four ratios and the launch's four instruction counts
        QCOMPARE(check->rows()[0].verdict, AccessCheckView::Verdict::Agrees); // 4 sectors per load
        QCOMPARE(check->rows()[1].verdict, AccessCheckView::Verdict::Agrees); // 16 per store
        // The recorded release binary issued a quarter of the source's 4-byte reads (LDS.128).
        QCOMPARE(check->rows()[2].verdict, AccessCheckView::Verdict::NotCompared);
        QVERIFY2(check->rows()[2].note.contains(QStringLiteral("25.0 %")), qPrintable(check->rows()[2].note));
        for (int count : {4, 5, 7}) // global requests and shared stores: exactly the model's
            QCOMPARE(check->rows()[count].verdict, AccessCheckView::Verdict::Agrees);

        // A published T4 run has no counters: the tab says so instead of comparing.
        for (const RunRecord &run : window.session()->runs())
            if (run.origin == QStringLiteral("worklog")) {
                window.selection()->select(run.runId);
                break;
            }
        QVERIFY(check->rows().isEmpty());
        // ...and what would make the comparison possible, not "turn counters on and run it again".
        QVERIFY(check->headline().contains(QStringLiteral("published in the worklog")));
        QVERIFY(check->headline().contains(QStringLiteral("on this GPU")));
    }

    // "Shared reads as written" asks the runner for the scalar-shared build, for GemmScope's
    // kernels only (cuBLAS has no such build).
    void scalarReadsOptionReachesTheRequest()
    {
        MainWindow window(options());
        auto *box = window.parameterPanel()->findChild<QCheckBox *>("scalarReadsCheck");
        QVERIFY(box);
        QVERIFY(!box->isChecked());
        box->setChecked(true);
        RunRequest request;
        request.config = window.parameterPanel()->config();
        QVERIFY(request.config.timing.scalarSharedReads);
        QCOMPARE(request.toProtocolJson().value("build").toString(), QStringLiteral("scalar_shared"));
        window.parameterPanel()->setStage(StageId::CublasFp32);
        request.config = window.parameterPanel()->config();
        QVERIFY(!request.toProtocolJson().contains("build"));
    }

    void exportsResultsByExtension()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        QString error;
        const QString csv = m_dir.filePath("results.csv");
        QVERIFY2(window.exportTo(csv, &error), qPrintable(error));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().count('\n'), window.session()->runs().size() + 1);
        const QString json = m_dir.filePath("results.json");
        QVERIFY2(window.exportTo(json, &error), qPrintable(error));
        QVERIFY(QFileInfo(json).size() > 100);
        QVERIFY(!window.exportTo(m_dir.filePath("results.xyz"), &error));
        QVERIFY(error.contains(".xyz"));
    }

    void renderSessionWritesEveryFormat()
    {
        initResources();
        QFile resource(Session::defaultSessionPath());
        QVERIFY(resource.open(QIODevice::ReadOnly));
        const QString sessionFile = m_dir.filePath("published.json");
        QFile copy(sessionFile);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(resource.readAll());
        copy.close();
        const QString out = m_dir.filePath("render");
        QString error;
        const QStringList written = renderSession(sessionFile, out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char *name :
             {"runtime", "roofline", "mapping", "speedup", "coalescing", "bank", "counters"})
            for (const char *suffix : {"png", "svg", "pdf"}) {
                const QString path = QDir(out).filePath(QStringLiteral("%1.%2").arg(name, suffix));
                QVERIFY2(written.contains(path), qPrintable(path));
                QVERIFY2(QFileInfo(path).size() > 500, qPrintable(path));
            }
        QImage png(QDir(out).filePath("runtime.png"));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 200);

        QVERIFY(renderSession(m_dir.filePath("missing.json"), out, &error).isEmpty());
        QVERIFY(error.contains("missing.json"));
    }

    // At the window sizes people have, every view has at least its minimum size, the mapping
    // pane holds a whole warp, no tab hides behind scroll arrows, and no chart title is elided.
    void layoutFitsTheCommonSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void layoutFitsTheCommonSizes()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        window.loadDefaultSession();
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), size); // the window's minimum fits the screen
        for (Workspace workspace : kWorkspaces) {
            window.workspaces()->setCurrent(workspace);
            QApplication::processEvents();
            for (const char *name : {"runtimeChart", "rooflineView", "mappingTabs", "resultsTable",
                                     "parameterPanel", "accessCheckView", "sweepModes"}) {
                auto *view = window.findChild<QWidget *>(name);
                QVERIFY2(view, name);
                if (!view->isVisible())
                    continue; // another workspace's
                QVERIFY2(view->width() >= view->minimumSizeHint().width() ||
                             view->width() >= view->minimumWidth(),
                         name);
                QVERIFY2(view->width() >= view->minimumWidth() && view->height() >= view->minimumHeight(),
                         name);
            }
            auto *panel = window.parameterPanel();
            QVERIFY(!panel->isVisible() || panel->width() >= panel->minimumSizeHint().width()); // nothing cut
            for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
                if (!plot->isVisible() || (plot->objectName() != QLatin1String("runtimePlot") &&
                                           plot->objectName() != QLatin1String("rooflinePlot")))
                    continue;
                plot->replot(QCustomPlot::rpImmediateRefresh);
                const QString full = plot->objectName() == QLatin1String("runtimePlot")
                                         ? window.findChild<RuntimeChart *>()->fullTitle()
                                         : window.findChild<RooflineChart *>()->fullTitle();
                QCOMPARE(shownTitle(plot), full);
                QVERIFY(plot->legend->visible());
            }
        }
        QVERIFY(window.showView(QStringLiteral("Kernel")));
        QApplication::processEvents();
        auto *tabs = window.findChild<QTabWidget *>("mappingTabs");
        QVERIFY(tabs->width() >= 520); // 32 lanes of the access diagrams
        QVERIFY(tabs->tabBar()->sizeHint().width() <= tabs->tabBar()->width());
        // The coalescing diagram shows 32 lanes without a horizontal scroll bar.
        tabs->setCurrentIndex(1);
        QApplication::processEvents();
        auto *coalescing = window.findChild<CoalescingView *>("coalescingView");
        QVERIFY(coalescing->isVisible());
        QVERIFY(coalescing->width() >= coalescing->minimumSizeHint().width());
        const auto *scroll = qobject_cast<QScrollArea *>(tabs->currentWidget());
        QVERIFY(!scroll || !scroll->horizontalScrollBar()->isVisible());
    }

    // Each view exports from its print layout: the SVG's text has the view's full title (and for
    // charts their legend entries), whatever the on-screen size.
    void everyViewExportsItsPrintLayout()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.parameterPanel()->applyPreset("worklog-2"));
        QApplication::processEvents();
        const auto svgText = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        QString error;
        const QString out = m_dir.filePath("views");
        const QStringList written = window.exportViews(out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        auto *runtime = window.findChild<RuntimeChart *>();
        auto *roofline = window.findChild<RooflineChart *>();
        const QString runtimeSvg = svgText(QDir(out).filePath("runtime.svg"));
        QVERIFY2(runtimeSvg.contains(runtime->fullTitle().toHtmlEscaped()), qPrintable(runtime->fullTitle()));
        QVERIFY(runtimeSvg.contains(QStringLiteral("cuBLAS FP32: "))); // the baseline's legend entry
        QVERIFY(!runtimeSvg.contains(QStringLiteral("hover")));
        QVERIFY(runtimeSvg.contains(QStringLiteral("__restrict__ and #pragma unroll"))); // true text
        const QString rooflineSvg = svgText(QDir(out).filePath("roofline.svg"));
        QVERIFY(rooflineSvg.contains(roofline->fullTitle().toHtmlEscaped()));
        // The ridge is named where it is ("ridge 15.46 FLOP/B"), no longer by a legend entry.
        QVERIFY(QRegularExpression(QStringLiteral("ridge [0-9.]+ FLOP/B")).match(rooflineSvg).hasMatch());
        QVERIFY(svgText(QDir(out).filePath("speedup.svg")).contains(QStringLiteral("Speedup over naive")));
        QVERIFY(svgText(QDir(out).filePath("coalescing.svg")).contains(QStringLiteral("Coalescing")));
        QVERIFY(
            svgText(QDir(out).filePath("coalescing.svg")).contains(QStringLiteral("Orange: bytes a lane")));
        QVERIFY(svgText(QDir(out).filePath("bank.svg")).contains(QStringLiteral("Bank conflicts")));
        QVERIFY(svgText(QDir(out).filePath("mapping.svg")).contains(QStringLiteral("Tile map")));
        QVERIFY(svgText(QDir(out).filePath("mapping.svg")).contains(QStringLiteral("warp colour")));
        QVERIFY(svgText(QDir(out).filePath("counters.svg")).contains(QStringLiteral("Counters")));
    }

    // Ctrl+E writes the view the user last clicked, a mapping tab included, and the dialog says which.
    void exportFollowsTheClickedView()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *tabs = window.findChild<QTabWidget *>("mappingTabs");
        QVERIFY(window.showView(QStringLiteral("Coalescing")));
        QCOMPARE(tabs->currentIndex(), 1);
        QApplication::processEvents();
        auto *coalescing = window.findChild<CoalescingView *>("coalescingView");
        QTest::mouseClick(coalescing, Qt::LeftButton, {}, QPoint(10, coalescing->height() - 10));
        QCOMPARE(window.exportTarget(), static_cast<QWidget *>(coalescing));
        QVERIFY(window.exportDialogTitle().contains(QStringLiteral("coalescing")));
        QString error;
        const QString path = m_dir.filePath("focused.svg");
        QVERIFY2(window.exportTo(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        QVERIFY(svg.contains("Coalescing"));
        QVERIFY(!svg.contains("Median time")); // the runtime chart's title and axis
        // Choosing a tab is choosing its view.
        tabs->setCurrentIndex(2);
        QCOMPARE(window.exportTarget(), static_cast<QWidget *>(window.findChild<BankConflictView *>()));
    }

    // One interface feeds every view: a view registered with the window receives the
    // session's runs and the selected run, and Export writes it through its own exportTo, without a
    // line of the window knowing it. The window's own views are all registered.
    void registeredViewIsFedAndExportedThroughTheInterface()
    {
        class ProbeView : public QWidget, public RunView {
        public:
            void setRuns(const QList<RunRecord> &runs) override { runCount = int(runs.size()), ++runsCalls; }
            void setSelectedRun(const QString &runId, const RunRecord *run) override
            {
                selectedId = runId;
                selectedRecord = run ? run->runId : QString();
            }
            std::optional<QString> exportTo(const QString &path) override
            {
                exportedTo = path;
                QFile file(path);
                if (!file.open(QIODevice::WriteOnly))
                    return QStringLiteral("cannot write");
                file.write("<svg>probe</svg>");
                return std::nullopt;
            }
            QString viewName() const override { return QStringLiteral("the probe view"); }
            int runCount = -1, runsCalls = 0;
            QString selectedId, selectedRecord, exportedTo;
        };

        MainWindow window(options());
        for (const char *name :
             {"runtimeChart", "rooflineView", "tileMapView", "coalescingView", "bankConflictView",
              "accessCheckView", "stageSourceView", "machineCodeView"}) {
            QWidget *widget = window.findChild<QWidget *>(name);
            QVERIFY2(widget, name);
            const bool registered = std::any_of(window.views().begin(), window.views().end(),
                                                [widget](RunView *v) { return v->viewWidget() == widget; });
            QVERIFY2(registered, name);
        }
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *probe = new ProbeView;
        probe->setParent(window.centralWidget());
        probe->setGeometry(0, 0, 40, 40);
        probe->show();
        window.addView(probe);

        window.loadDefaultSession(); // runs added: every view gets them
        QVERIFY(probe->runsCalls > 0);
        QCOMPARE(probe->runCount, int(window.session()->runs().size()));
        const QString id = window.session()->runs().first().runId;
        window.selection()->select(id);
        QCOMPARE(probe->selectedId, id);
        QCOMPARE(probe->selectedRecord, id);
        window.selection()->select(QString());
        QCOMPARE(probe->selectedId, QString());
        QCOMPARE(probe->selectedRecord, QString());

        QTest::mouseClick(probe, Qt::LeftButton, {}, QPoint(5, 5)); // the view last clicked
        QCOMPARE(window.exportTarget(), static_cast<QWidget *>(probe));
        QCOMPARE(window.exportDialogTitle(), QStringLiteral("Export the probe view"));
        QString error;
        const QString path = m_dir.filePath("probe.svg");
        QVERIFY2(window.exportTo(path, &error), qPrintable(error));
        QCOMPARE(probe->exportedTo, path);
        QVERIFY(QFileInfo(path).size() > 0);
    }

    // The guide's 32x32 kernel reads its tiles without conflicts either way; the bank view says so and
    // shows the column read the padding is for, unpadded (32-way) and padded (1-way).
    void guidePresetExplainsThePadding()
    {
        MainWindow window(options());
        QVERIFY(window.parameterPanel()->applyPreset("guide-32"));
        auto *bank = window.findChild<BankConflictView *>();
        QList<int> degrees;
        for (int i = 0; i < bank->count(); ++i) {
            bank->setCurrentIndex(i);
            degrees << bank->currentAccess()->conflictDegree;
        }
        QVERIFY(degrees.contains(32));
        QCOMPARE(degrees.last(), 1);
        // Either of the two guide reads shows both, one above the other (and so does the export).
        QVERIFY(bank->showingPair());
        QTemporaryDir dir;
        QVERIFY(!bank->exportTo(dir.filePath("guide.svg")));
        QFile svg(dir.filePath("guide.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("32-way conflict"));
        QVERIFY(text.contains("Conflict-free"));
        bank->setCurrentIndex(0);
        QVERIFY(!bank->showingPair());
        QVERIFY(window.findChild<CoalescingView *>()->note().isEmpty());
        QVERIFY(window.parameterPanel()->applyPreset("worklog-0"));
        QVERIFY(window.findChild<CoalescingView *>()->note().contains(QStringLiteral("reuse")));
        QCOMPARE(bank->count(), 0);
        QVERIFY(bank->degreeText().contains(QStringLiteral("no shared-memory access")));
    }

    // Stepping through the coalescing view highlights the instruction's line in the Source tab, in
    // the included file that holds it.
    void sourceHighlightsTheCoalescingInstruction()
    {
        MainWindow window(options());
        QVERIFY(window.parameterPanel()->applyPreset("worklog-3"));
        auto *source = window.findChild<StageSourceView *>("stageSourceView");
        QCOMPARE(source->currentFile(), QStringLiteral("coalesced.cuh"));
        auto *coalescing = window.findChild<CoalescingView *>();
        coalescing->step(); // load A, pass 2
        coalescing->step(); // load B, pass 1
        QCOMPARE(coalescing->currentAccess()->operand, Operand::B);
        QCOMPARE(source->highlightedFile(), QStringLiteral("cooperative_load.cuh"));
        QVERIFY(source->shownText()
                    .split(QLatin1Char('\n'))
                    .value(source->highlightedLine() - 1)
                    .contains(QStringLiteral("loadOrZero(B")));
    }

    void maximiseShowsOneViewAndRestores()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *roofline = window.findChild<RooflineChart *>();
        QTest::mouseClick(roofline->customPlot(), Qt::LeftButton, {}, QPoint(5, 5));
        window.action("actionMaximiseView")->trigger();
        QCOMPARE(window.maximisedView(), static_cast<QWidget *>(roofline));
        QVERIFY(roofline->isVisible());
        QVERIFY(!window.findChild<RuntimeChart *>()->isVisible());
        QVERIFY(!window.findChild<QTableView *>("resultsTable")->isVisible());
        window.action("actionMaximiseView")->trigger();
        QVERIFY(!window.maximisedView());
        QVERIFY(window.findChild<RuntimeChart *>()->isVisible());
        QVERIFY(window.findChild<QTableView *>("resultsTable")->isVisible());
    }

    // A chart's context menu ends with the window's two entries, named for that chart: export it,
    // maximise it (or restore the arrangement once maximised). A window that is gone adds nothing.
    void contextMenuExportsAndMaximisesTheView()
    {
        const auto entries = [](ChartInteraction *interaction) {
            QMenu menu;
            interaction->populateMenu(menu, QPointF(5, 5));
            QStringList texts;
            for (QAction *a : menu.actions())
                texts << a->text();
            return texts;
        };
        auto window = std::make_unique<MainWindow>(options());
        window->resize(1280, 800);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        auto *roofline = window->findChild<RooflineChart *>();
        QStringList texts = entries(roofline->interaction());
        QVERIFY2(texts.contains(QStringLiteral("Export the roofline…")), qPrintable(texts.join('|')));
        QVERIFY(texts.contains(QStringLiteral("Maximise this view")));
        QCOMPARE(texts.count(QStringLiteral("Maximise this view")), 1);

        QMenu menu;
        roofline->interaction()->populateMenu(menu, QPointF(5, 5));
        for (QAction *a : menu.actions())
            if (a->text() == QStringLiteral("Maximise this view"))
                a->trigger();
        QCOMPARE(window->maximisedView(), static_cast<QWidget *>(roofline));
        QCOMPARE(window->exportTarget(), static_cast<QWidget *>(roofline));
        QVERIFY(entries(roofline->interaction()).contains(QStringLiteral("Restore the arrangement")));

        // The entries of a closed window are not offered by a chart of another window.
        window.reset();
        MainWindow other(options());
        const QStringList otherTexts = entries(other.findChild<RooflineChart *>()->interaction());
        QCOMPARE(otherTexts.count(QStringLiteral("Maximise this view")), 1);
    }

    // The arrangement is kept from one run of GemmScope to the next (window_settings.cpp): the
    // workspace shown and its panel, the Kernel and Sweep tabs, the results table's column order.
    void arrangementIsKeptBetweenRuns()
    {
        QSettings().clear(); // the test settings of an earlier run
        MainWindow::Options keep = options();
        keep.restoreSettings = true;
        {
            MainWindow window(keep);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.showView(QStringLiteral("Source")));
            window.workspaces()->setPanelShown(false);
            window.findChild<QTabWidget *>("sweepModes")->setCurrentIndex(1);
            QHeaderView *header = window.resultsView()->horizontalHeader();
            header->moveSection(header->visualIndex(ResultsModel::MedianColumn), 0);
            QCOMPARE(header->visualIndex(ResultsModel::MedianColumn), 0);
            window.findChild<RooflineChart *>()->setLevelShown(MemoryLevel::L2, false);
            QVERIFY(window.close()); // saves the arrangement
        }
        MainWindow again(keep);
        QCOMPARE(again.workspaces()->current(), Workspace::Kernel);
        QVERIFY(!again.workspaces()->panelShown());
        auto *kernelTabs = again.findChild<QTabWidget *>("mappingTabs");
        QCOMPARE(kernelTabs->tabText(kernelTabs->currentIndex()), QStringLiteral("Source"));
        QCOMPARE(again.findChild<QTabWidget *>("sweepModes")->currentIndex(), 1);
        QCOMPARE(again.resultsView()->horizontalHeader()->visualIndex(ResultsModel::MedianColumn), 0);
        QVERIFY(
            !again.findChild<RooflineChart *>()->levelShown(MemoryLevel::L2)); // the hierarchical roofline's
        QVERIFY(again.findChild<RooflineChart *>()->levelShown(MemoryLevel::L1Shared));
        // Without saved settings the window starts as on a first start.
        QSettings().clear();
        MainWindow fresh(keep);
        QCOMPARE(fresh.workspaces()->current(), Workspace::Ladder);
        QCOMPARE(fresh.findChild<QTabWidget *>("mappingTabs")->currentIndex(), 0);
        QVERIFY(fresh.findChild<RooflineChart *>()->levelShown(MemoryLevel::L2));
    }

    // Ctrl+B compiles without a GPU (the runner's compile-only mode) and reports registers and
    // occupancy; a library stage says why it cannot.
    void compileWorksWithoutAGpu()
    {
        MainWindow window(options());
        QAction *compile = window.action("actionCompile");
        QVERIFY(compile);
        QCOMPARE(compile->shortcut(), QKeySequence("Ctrl+B"));
        window.parameterPanel()->setStage(StageId::CublasFp32);
        QVERIFY(!compile->isEnabled());
        QVERIFY(compile->toolTip().contains(QStringLiteral("library")));
        QVERIFY(compile->statusTip() == compile->toolTip());
        QVERIFY(window.parameterPanel()->applyPreset("worklog-3"));
        QVERIFY(compile->isEnabled());
        // Run is off here; its tooltip says why.
        QVERIFY(!window.action("actionRun")->isEnabled());
        QVERIFY(window.action("actionRun")->toolTip().contains(QStringLiteral("off")));
        if (qEnvironmentVariableIsEmpty("GEMMSCOPE_RUNNER"))
            QSKIP("Built without the CUDA Toolkit: there is no runner to compile with.");
        QSignalSpy done(&window, &MainWindow::compileFinished);
        compile->trigger();
        QVERIFY(done.wait(60000));
        const QString summary = done.first().first().toString();
        QVERIFY2(summary.contains(QStringLiteral("registers")) &&
                     summary.contains(QStringLiteral("occupancy")),
                 qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("sm_90")));
        // The Compile tab keeps that report: the real compile's rows, its limiter, ptxas's log.
        auto *panel = window.findChild<CompilePanel *>(QStringLiteral("compilePanel"));
        QVERIFY(panel);
        QVERIFY2(panel->message().startsWith(QStringLiteral("Compiled Coalesced cooperative loads")),
                 qPrintable(panel->message()));
        QStringList quantities;
        for (const auto &[quantity, value] : panel->rows())
            quantities << quantity;
        QVERIFY2(quantities.filter(QStringLiteral("egisters")).size() == 1 &&
                     quantities.filter(QStringLiteral("ccupancy")).size() == 1,
                 qPrintable(quantities.join(QStringLiteral(", "))));
        QVERIFY(!panel->limiter().isEmpty());
        QVERIFY2(panel->log().contains(QStringLiteral("registers")), qPrintable(panel->log()));
    }

    // The SASS tab compiles the configuration with -lineinfo when it is shown (no GPU needed) and
    // shows the machine code with the hot loop's mix: the tuned preset's 128x256 tile at 8x16 per
    // thread and BK 16 does 16 x 8 x 16 = 2048 FFMAs per k-tile.
    void sassTabShowsTheMachineCode()
    {
        if (qEnvironmentVariableIsEmpty("GEMMSCOPE_RUNNER"))
            QSKIP("Built without the CUDA Toolkit: there is no runner to disassemble with.");
        MainWindow window(options());
        QVERIFY(window.parameterPanel()->applyPreset("fp32-tuned"));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mappingTabs"));
        auto *view = window.findChild<MachineCodeView *>(QStringLiteral("machineCodeView"));
        QVERIFY(tabs && view);
        QVERIFY(window.showView(QStringLiteral("SASS"))); // the Kernel workspace's SASS tab, shown
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(view));
        QTRY_VERIFY_WITH_TIMEOUT(view->code() != nullptr, 120000);
        QCOMPARE(view->mixCount(QStringLiteral("FFMA"), true), 2048);
        QVERIFY(view->summaryText().contains(QStringLiteral("FFMA per shared load")));
        // A library stage has nothing to disassemble, and says so when asked.
        window.parameterPanel()->setStage(StageId::CublasFp32);
        emit view->refreshRequested();
        QTRY_VERIFY2_WITH_TIMEOUT(view->message().contains(QStringLiteral("library")),
                                  qPrintable(view->message()), 20000);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
