// The window's workspaces with the whole H200 ladder loaded: switching by shortcut,
// one selection across them, the panel where it serves, every view readable at the three common
// screen sizes, the session's description as a plain-text notice, and the Help menu.
#include "access_check_view.h"
#include "coalescing_view.h"
#include "help_dialog.h"
#include "main_window.h"
#include "mapping_model.h"
#include "parameter_panel.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "run_selection.h"
#include "runtime_chart.h"
#include "runtime_series.h"
#include "session.h"
#include "support/shown_extent.h"
#include "sweep_view.h"
#include "tile_map_view.h"

#include <QAction>
#include <QDataStream>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

const QString kFullLadder = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json");

QString recordedRunOf(const Session &session, const QString &preset)
{
    for (const RunRecord &run : session.runs())
        if (run.presetKey == preset && run.isOk())
            return run.runId;
    return {};
}

} // namespace

class TestWorkspaces : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("GemmScopeTests");
        QCoreApplication::setApplicationName("tst_workspaces");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(kFullLadder), qPrintable(kFullLadder));
    }

    MainWindow::Options options() const
    {
        return {
            .startRunner = false, .restoreSettings = false, .autosavePath = m_dir.filePath("autosave.json")};
    }

    // A new window's diagrams show the panel's configuration before anything is changed.
    void kernelViewsShowThePanelsFirstConfiguration()
    {
        MainWindow window(options());
        const RunConfig config = window.parameterPanel()->config();
        auto *tileMap = window.findChild<TileMapView *>("tileMapView");
        QVERIFY(tileMap);
        const KernelShapeResult expected = kernelShape(config.stage, config.params);
        QVERIFY(expected.shape);
        QCOMPARE(tileMap->shape().bm, expected.shape->bm);
        QCOMPARE(tileMap->shape().threads(), expected.shape->threads());
        QVERIFY(tileMap->shape().threads() > 1);
        QVERIFY(window.findChild<CoalescingView *>()->caption().contains(
            QString::fromStdString(stageInfo(config.stage).title)));
    }

    void eachWorkspaceHasAShortcut()
    {
        MainWindow window(options());
        int number = 1;
        for (Workspace workspace : kWorkspaces) {
            QAction *a = window.action(QStringLiteral("actionWorkspace") + Workspaces::title(workspace));
            QVERIFY2(a, qPrintable(Workspaces::title(workspace)));
            QCOMPARE(a->shortcut(), QKeySequence(QStringLiteral("Ctrl+%1").arg(number++)));
            a->trigger();
            QCOMPARE(window.workspaces()->current(), workspace);
            QVERIFY(a->isChecked());
        }
        QVERIFY(window.showView(QStringLiteral("ladder")));
        QCOMPARE(window.workspaces()->current(), Workspace::Ladder);
        QVERIFY(!window.showView(QStringLiteral("no such view")));
    }

    // An arrangement saved before the Editor (format version 2: four workspaces' panel choices) is
    // still read: its workspace comes back, and the Editor starts without the panel.
    void anArrangementFromBeforeTheEditorIsRead()
    {
        MainWindow window(options());
        QByteArray state;
        QDataStream out(&state, QIODevice::WriteOnly);
        out << quint32(0x67735731) << qint32(2) << qint32(2); // "gsW1", version 2, Counters
        for (bool shown : {false, true, true, true})
            out << shown;
        for (int i = 0; i < 4; ++i)
            out << QByteArray();
        out << qint32(-1); // nothing maximised
        QVERIFY(window.workspaces()->restoreState(state));
        QCOMPARE(window.workspaces()->current(), Workspace::Counters);
        QVERIFY(window.workspaces()->panelShown());
        window.workspaces()->setCurrent(Workspace::Editor);
        QVERIFY(!window.workspaces()->panelShown());
        // And what it saves now is read back, the Editor's choice included.
        window.workspaces()->setPanelShown(true);
        const QByteArray now = window.workspaces()->saveState();
        MainWindow second(options());
        QVERIFY(second.workspaces()->restoreState(now));
        QCOMPARE(second.workspaces()->current(), Workspace::Editor);
        QVERIFY(second.workspaces()->panelShown());
    }

    // The workspaces are tabs on a row of their own over the pages, apart from the tool bar's
    // commands (in one row the two read as one group); a tab and Ctrl+1 … Ctrl+5 switch alike, and
    // at 1280x800 every tab and every command is whole (no tool bar overflow arrow).
    void workspacesAreTabsApartFromTheCommands()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        window.activateWindow(); // the shortcuts are the window's
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto *toolbar = window.findChild<QToolBar *>(QStringLiteral("runToolBar"));
        auto *tabs = window.findChild<QTabBar *>(QStringLiteral("workspaceTabs"));
        QVERIFY(toolbar && tabs && tabs->isVisible());
        for (const QAction *a : toolbar->actions())
            QVERIFY2(!a->objectName().startsWith(QLatin1String("actionWorkspace")),
                     qPrintable(a->objectName()));
        for (const char *command : {"actionRun", "actionProfile", "actionShowPanel"})
            QVERIFY2(toolbar->actions().contains(window.action(QString::fromLatin1(command))), command);
        // A row of its own: under the tool bar, not beside it.
        const QRect bar(toolbar->mapTo(&window, QPoint(0, 0)), toolbar->size());
        const QRect row(tabs->mapTo(&window, QPoint(0, 0)), tabs->size());
        QVERIFY2(row.top() >= bar.bottom(), "the workspace tabs share the tool bar's row");
        QCOMPARE(tabs->count(), int(kWorkspaces.size()));
        for (int i = 0; i < tabs->count(); ++i) {
            QCOMPARE(tabs->tabText(i), Workspaces::title(kWorkspaces[std::size_t(i)]));
            QVERIFY2(tabs->tabToolTip(i).contains(QStringLiteral("Ctrl+%1").arg(i + 1)),
                     qPrintable(tabs->tabToolTip(i)));
            QVERIFY(tabs->rect().contains(tabs->tabRect(i))); // whole
        }
        const auto *overflow = toolbar->findChild<QToolButton *>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY2(!overflow || !overflow->isVisible(), "the tool bar's commands do not fit at 1280x800");
        // The shortcut moves the tab; the tab switches the workspace and checks its action.
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.workspaces()->current(), Workspace::Counters);
        QCOMPARE(tabs->currentIndex(), 2);
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(3).center());
        QCOMPARE(window.workspaces()->current(), Workspace::Sweep);
        QVERIFY(window.action(QStringLiteral("actionWorkspaceSweep"))->isChecked());
        window.workspaces()->setCurrent(Workspace::Kernel);
        QCOMPARE(tabs->currentIndex(), 1);
    }

    // The selected run and the configured stage follow from one workspace to the next.
    void oneSelectionAcrossWorkspaces()
    {
        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString step3 = recordedRunOf(*window.session(), QStringLiteral("worklog-3"));
        QVERIFY(!step3.isEmpty());
        window.resultsView()->setCurrentIndex(window.resultsView()->model()->index(0, 0));
        window.selection()->select(step3);
        window.workspaces()->setCurrent(Workspace::Counters);
        auto *runList = window.findChild<QTableView *>("counterRunList");
        QVERIFY(runList && runList->isVisible());
        QCOMPARE(runList->currentIndex().data(ResultsModel::RunIdRole).toString(), step3);
        auto *counters = window.findChild<AccessCheckView *>("accessCheckView");
        // The run named by the code the charts and tables use (not its internal id).
        QVERIFY2(
            counters->headline().startsWith(QStringLiteral("Stage 3: Coalesced cooperative loads, BM=64")),
            qPrintable(counters->headline()));
        // Choosing in the Counters workspace's list selects in the Ladder's table too.
        const QModelIndex other = runList->model()->index(2, 0);
        runList->setCurrentIndex(other);
        const QString otherId = other.data(ResultsModel::RunIdRole).toString();
        QCOMPARE(window.selection()->runId(), otherId);
        QCOMPARE(window.resultsView()->currentIndex().data(ResultsModel::RunIdRole).toString(), otherId);
        // The configuration is the panel's in every workspace.
        QVERIFY(window.parameterPanel()->applyPreset("worklog-5b"));
        window.workspaces()->setCurrent(Workspace::Kernel);
        QVERIFY(window.parameterPanel()->isVisible());
        QCOMPARE(window.parameterPanel()->config().stage, StageId::DoubleBuffered);
    }

    // One word for the stage a run measured: the tables' column of the charts' short names ("3",
    // "+tuned") is "Stage", not "Code"; the runtime chart's legend groups stages, not "steps"; the
    // Counters headline names the run "Stage 3: …" (oneSelectionAcrossWorkspaces).
    void oneWordForTheStageARunMeasured()
    {
        MainWindow window(options());
        const QAbstractItemModel *model = window.resultsView()->model();
        QStringList titles;
        for (int column = 0; column < model->columnCount(); ++column)
            titles << model->headerData(column, Qt::Horizontal).toString();
        QCOMPARE(titles.value(0), QStringLiteral("Stage"));
        QCOMPARE(titles.count(QStringLiteral("Stage")), 1);
        QVERIFY2(!titles.contains(QStringLiteral("Code")) && !titles.contains(QStringLiteral("Step")),
                 qPrintable(titles.join(QStringLiteral(", "))));
        QVERIFY2(!ladderGroupName(LadderGroup::WorklogSteps).contains(QStringLiteral("step")),
                 qPrintable(ladderGroupName(LadderGroup::WorklogSteps)));
    }

    // Inside the Counters workspace the first tab is named by what it shows, not "Counters" again
    // (issue 38), and --tab (showView) reaches it by that name.
    void countersTabsNameWhatTheyShow()
    {
        MainWindow window(options());
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("countersTabs"));
        QVERIFY(tabs && tabs->count() == 3);
        QCOMPARE(tabs->tabText(0), QStringLiteral("Measured vs model"));
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY2(tabs->tabText(i).compare(QStringLiteral("Counters"), Qt::CaseInsensitive) != 0,
                     qPrintable(tabs->tabText(i)));
        tabs->setCurrentIndex(2);
        QVERIFY(window.showView(QStringLiteral("Measured vs model")));
        QCOMPARE(tabs->currentIndex(), 0);
        QCOMPARE(window.workspaces()->current(), Workspace::Counters);
    }

    // The Counters page compares something on its first visit: a run with counters and a model.
    void countersOpenOnARunWithAModel()
    {
        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        QVERIFY(window.selection()->runId().isEmpty());
        window.workspaces()->setCurrent(Workspace::Counters);
        const RunRecord *run = window.session()->find(window.selection()->runId());
        QVERIFY(run);
        QCOMPARE(run->presetKey, QStringLiteral("worklog-3"));
        auto *counters = window.findChild<AccessCheckView *>("accessCheckView");
        QVERIFY2(!counters->headline().startsWith(QStringLiteral("Select a run")),
                 qPrintable(counters->headline()));
        QVERIFY(!counters->rows().isEmpty());
    }

    // A workspace's page is shown once, laid out at its final width with what it will show: the
    // Counters page's run is chosen while the page is hidden, and the panel of the workspace left
    // behind gives its width back before the page shows (shown first at the narrower width, then
    // at the wider one, the page laid its tables out twice).
    void aPageIsShownAtItsFinalWidthWithItsRun()
    {
        MainWindow window(options());
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.workspaces()->setCurrent(Workspace::Kernel);
        window.workspaces()->setPanelShown(true);
        QApplication::processEvents();
        QWidget *page = window.workspaces()->page(Workspace::Counters);
        bool pageHiddenWhenChosen = false;
        connect(window.selection(), &RunSelection::selectionChanged, this,
                [&] { pageHiddenWhenChosen = !page->isVisible(); });
        QList<int> shownWidths;
        struct ShowWatch : QObject {
            QList<int> *widths;
            bool eventFilter(QObject *watched, QEvent *event) override
            {
                if (event->type() == QEvent::Show)
                    *widths << static_cast<QWidget *>(watched)->width();
                return false;
            }
        } watch;
        watch.widths = &shownWidths;
        page->installEventFilter(&watch);
        // The access table inside the page's tabs: shown at its width, not first at a stale one (a
        // tab widget places its pages only once shown: PresizedTabWidget).
        auto *accessText = page->findChild<AccessCheckView *>()->findChild<QLabel *>();
        QVERIFY(accessText);
        QList<int> accessWidths;
        struct SizeWatch : QObject {
            QList<int> *widths;
            bool eventFilter(QObject *watched, QEvent *event) override
            {
                auto *w = static_cast<QWidget *>(watched);
                if (event->type() == QEvent::Show || (event->type() == QEvent::Resize && w->isVisible()))
                    *widths << w->width();
                return false;
            }
        } accessWatch;
        accessWatch.widths = &accessWidths;
        accessText->installEventFilter(&accessWatch);
        window.workspaces()->setCurrent(Workspace::Counters);
        QVERIFY(!window.selection()->runId().isEmpty());
        QVERIFY(pageHiddenWhenChosen);
        QApplication::processEvents(); // the layouts the switch queued
        QCOMPARE(shownWidths.size(), 1);
        QVERIFY(!window.parameterPanel()->isVisible());
        QCOMPARE(page->width(), shownWidths.first());
        // At most once more before it: as wide as the page is without the scroll bar that its
        // settled layout then needs.
        const int scrollBarWidth = accessText->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        QVERIFY2(!accessWidths.isEmpty() && accessWidths.size() <= 2 &&
                     accessWidths.last() == accessText->width(),
                 qPrintable(QDebug::toString(accessWidths)));
        for (int width : std::as_const(accessWidths))
            QVERIFY2(width == accessText->width() || width == accessText->width() + scrollBarWidth,
                     qPrintable(QDebug::toString(accessWidths)));
        // The page whole, with the range to scroll to its end (PageScrollArea): its text came
        // while it was hidden and settled after it showed, and a QScrollArea kept it 20 px short.
        QWidget *countersPage = page->findChild<QWidget *>(QStringLiteral("countersPage"));
        auto *scroll = qobject_cast<QScrollArea *>(countersPage->parentWidget()->parentWidget());
        QVERIFY(scroll);
        const int needed = countersPage->heightForWidth(scroll->viewport()->width());
        QCOMPARE(countersPage->height(), std::max(needed, scroll->viewport()->height()));
        QCOMPARE(scroll->verticalScrollBar()->maximum(), std::max(0, needed - scroll->viewport()->height()));
    }

    // The keyboard follows a switch: on the old page's table before it, on the new page after
    // (the old page is hidden before the stacked widget would move the focus itself).
    void theKeyboardFollowsTheSwitch()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.resultsView()->setFocus();
        QVERIFY(window.resultsView()->hasFocus());
        window.workspaces()->setCurrent(Workspace::Counters);
        QWidget *focus = QApplication::focusWidget();
        QVERIFY(focus);
        QVERIFY2(window.workspaces()->page(Workspace::Counters)->isAncestorOf(focus),
                 focus->metaObject()->className());
    }

    void countersTabUsesItsHeight_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    // The access table is 4 to 9 rows: at 1920x1080 it left more than half the Counters tab blank
    // under it. The run's time and traffic against cuBLAS come under it now, so that no more than a
    // third of the tab stands empty below what it shows; where the tab is shorter than its contents,
    // they scroll down, never sideways.
    void countersTabUsesItsHeight()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.resize(size);
        window.workspaces()->applyFirstStartSizes(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Counters); // selects a run with counters
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("countersTabs"));
        QVERIFY(tabs && tabs->isVisible());
        QCOMPARE(tabs->currentIndex(), 0);
        auto *scroll = qobject_cast<QScrollArea *>(tabs->currentWidget());
        QVERIFY(scroll && scroll->widget());
        QApplication::processEvents();
        QWidget *viewport = scroll->viewport();
        // The labels' heights settle over a few turns of the event loop (layout requests up the tree).
        const auto blank = [&] { return viewport->height() - test::lowestShown(scroll->widget(), viewport); };
        QTRY_VERIFY2(blank() * 3 <= viewport->height(),
                     qPrintable(QStringLiteral("%1 px blank under the counters, of %2")
                                    .arg(blank())
                                    .arg(viewport->height())));
        QVERIFY2(
            scroll->widget()->width() <= viewport->width(),
            qPrintable(
                QStringLiteral("%1 px wide in %2").arg(scroll->widget()->width()).arg(viewport->width())));
    }

    // The same when the window is on Counters before the session arrives (gemmscope --workspace
    // counters FILE: the file is read off the UI thread, after the workspace is shown).
    void countersChooseARunWhenASessionOpensUnderThem()
    {
        MainWindow window(options());
        window.workspaces()->setCurrent(Workspace::Counters);
        window.selection()->select(QString());
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        const RunRecord *run = window.session()->find(window.selection()->runId());
        QVERIFY(run);
        QCOMPARE(run->presetKey, QStringLiteral("worklog-3"));
    }

    // The panel sits beside the workspaces it serves; Alt+0 shows or hides it in each.
    void panelWhereItServes()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *toggle = window.action(QStringLiteral("actionShowPanel"));
        QVERIFY(toggle);
        QCOMPARE(toggle->shortcut(), QKeySequence(QStringLiteral("Alt+0")));
        QVERIFY(!window.parameterPanel()->isVisible()); // Ladder: the charts take the width
        QVERIFY(!toggle->isChecked());
        // Named after what it toggles, so that pressed reads as "shown".
        QVERIFY(toggle->isCheckable());
        QCOMPARE(toggle->text().remove(QLatin1Char('&')), QStringLiteral("Parameter Panel"));
        toggle->trigger();
        QVERIFY(window.parameterPanel()->isVisible());
        window.workspaces()->setCurrent(Workspace::Kernel);
        QVERIFY(window.parameterPanel()->isVisible());
        QVERIFY(toggle->isChecked());
        window.workspaces()->setCurrent(Workspace::Counters);
        QVERIFY(!window.parameterPanel()->isVisible());
        // Each workspace keeps its own choice across a restart.
        const QByteArray state = window.workspaces()->saveState();
        MainWindow second(options());
        QVERIFY(second.workspaces()->restoreState(state));
        QCOMPARE(second.workspaces()->current(), Workspace::Counters);
        second.workspaces()->setCurrent(Workspace::Ladder);
        QVERIFY(second.workspaces()->panelShown());
        QVERIFY(!second.workspaces()->restoreState(QByteArray("not a state")));
    }

    void maximiseHidesThePanelAndTheOtherPanes()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Kernel);
        QVERIFY(window.parameterPanel()->isVisible());
        window.action(QStringLiteral("actionMaximiseView"))->trigger();
        QVERIFY(window.maximisedView());
        QVERIFY(!window.parameterPanel()->isVisible());
        // A maximised pane is as the user left it after a restart.
        const QByteArray state = window.workspaces()->saveState();
        MainWindow second(options());
        second.resize(1280, 800);
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        QVERIFY(second.workspaces()->restoreState(state));
        QCOMPARE(second.workspaces()->current(), Workspace::Kernel);
        QCOMPARE(second.workspaces()->maximised(), second.workspaces()->page(Workspace::Kernel));
        QVERIFY(!second.parameterPanel()->isVisible());
        window.action(QStringLiteral("actionMaximiseView"))->trigger();
        QVERIFY(!window.maximisedView());
        QVERIFY(window.parameterPanel()->isVisible());
        QVERIFY(second.workspaces()->restoreState(window.workspaces()->saveState()));
        QVERIFY(!second.workspaces()->maximised());
        QVERIFY(second.parameterPanel()->isVisible());
    }

    void fullLadderReadable_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    // With all 23 presets and the published T4 rows loaded: every chart keeps at least half its
    // height for the plot, and no number, parameter or stage name in the results table is cut.
    void fullLadderReadable()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QApplication::processEvents();
        for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
            if (!plot->isVisible())
                continue;
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const int plotHeight = plot->axisRect()->rect().height();
            QVERIFY2(plotHeight * 2 >= plot->height(), qPrintable(QStringLiteral("%1: plot %2 of %3 px")
                                                                      .arg(plot->objectName())
                                                                      .arg(plotHeight)
                                                                      .arg(plot->height())));
        }
        QTableView *table = window.resultsView();
        QVERIFY(table->isVisible());
        for (int column : {int(ResultsModel::MedianColumn), int(ResultsModel::TflopsColumn),
                           int(ResultsModel::PercentOfCublasColumn), int(ResultsModel::RelErrorColumn),
                           int(ResultsModel::RegistersColumn), int(ResultsModel::SmemColumn),
                           int(ResultsModel::OccupancyColumn), int(ResultsModel::SizeColumn),
                           int(ResultsModel::ParametersColumn), int(ResultsModel::StageColumn),
                           int(ResultsModel::SpreadColumn)}) {
            // A column of what is often the same for a whole session gives way to the numbers at
            // narrow widths, counted on the header's columns button (tst_results_tables); so does the
            // p20–p80 range (the chart's whiskers, the median's tooltip), for the stage names, which
            // the runtime chart shows as codes at 1280x800.
            if ((column == ResultsModel::RelErrorColumn || column == ResultsModel::SizeColumn ||
                 column == ResultsModel::SpreadColumn) &&
                table->isColumnHidden(column)) {
                auto *button = table->horizontalHeader()->findChild<QToolButton *>("columnsButton");
                QVERIFY(button && button->isVisible() &&
                        button->text().contains(QStringLiteral(" hidden ▾")));
                continue;
            }
            const int needed = std::max(static_cast<QAbstractItemView *>(table)->sizeHintForColumn(column),
                                        table->horizontalHeader()->sectionSizeHint(column));
            QVERIFY2(table->horizontalHeader()->sectionSize(column) >= needed,
                     qPrintable(QStringLiteral("column %1: %2 px for %3")
                                    .arg(column)
                                    .arg(table->horizontalHeader()->sectionSize(column))
                                    .arg(needed)));
        }
    }

    // A session's description is shown when it opens, as written (it comes from a file).
    void sessionDescriptionIsAPlainTextNotice()
    {
        QFile file(kFullLadder);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject session = QJsonDocument::fromJson(file.readAll()).object();
        const QString hostile =
            QStringLiteral("Ladder <b>bold</b> <img src=\"/nonexistent/x.png\"> &amp; more");
        session[QStringLiteral("description")] = hostile;
        const QString path = m_dir.filePath("described.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(session).toJson());
        out.close();
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openSession(path, &error), qPrintable(error));
        QCOMPARE(window.noticeText(), hostile);
        auto *notice = window.findChild<QWidget *>("sessionNotice");
        QVERIFY(notice && notice->isVisible());
        for (auto *label : notice->findChildren<QLabel *>())
            QVERIFY(label->textFormat() == Qt::PlainText || label->text().isEmpty());
    }

    // A long description starts folded to its first sentence, whole behind "Show all".
    void longDescriptionStartsFolded()
    {
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.loadDefaultSession();
        const QString full = window.session()->data().description;
        QVERIFY(full.size() > 160);
        QCOMPARE(window.noticeText(), full);
        auto *notice = window.findChild<QWidget *>("sessionNotice");
        auto *label = notice->findChild<QLabel *>("noticeText");
        auto *more = notice->findChild<QToolButton *>("noticeMore");
        QVERIFY(label && more && more->isVisible());
        QVERIFY(!label->text().isEmpty() && label->text().size() < 200);
        const QString folded = label->text().chopped(2);
        QVERIFY(full.startsWith(folded));
        // Folded between words (or after a sentence), never inside a word or a number.
        QVERIFY2(folded.endsWith(QLatin1Char('.')) || full.at(folded.size()) == QLatin1Char(' '),
                 qPrintable(folded));
        more->click();
        QCOMPARE(label->text(), full);
    }

    // The autosave's trouble is said in the window, and closing then asks before runs are lost.
    void autosaveProblemIsShown()
    {
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.autosaveWarningText().isEmpty());
        window.showAutosaveProblem(
            QStringLiteral("The autosave could not be written: No space left on device."));
        QVERIFY(window.autosaveWarningText().contains(QStringLiteral("No space left on device")));
        QVERIFY(window.autosaveWarningText().contains(QStringLiteral("Save As")));
        window.showAutosaveProblem(QString());
        QVERIFY(window.autosaveWarningText().isEmpty());
    }

    // Without a GPU the Sweep workspace opens on the recorded H200 sweeps; Ctrl+E there writes the
    // heatmap's print layout, and the headless render writes both sweeps.
    void sweepWorkspaceExportsTheHeatmap()
    {
        MainWindow window(options());
        window.loadDefaultSession();
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Sweep);
        auto *grid = window.findChild<SweepView *>("sweepView");
        QVERIFY(grid && grid->shownSweep());
        QCOMPARE(window.exportTarget(), static_cast<QWidget *>(grid));
        QVERIFY2(window.exportDialogTitle().contains(QStringLiteral("sweep")),
                 qPrintable(window.exportDialogTitle()));
        QString error;
        const QString svg = m_dir.filePath("heatmap.svg");
        QVERIFY2(window.exportTo(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("measured on"));
        const QStringList written = window.exportViews(m_dir.filePath("all"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char *name : {"sweep.png", "sizes.svg", "runtime.pdf", "counters.png"})
            QVERIFY2(std::any_of(written.cbegin(), written.cend(),
                                 [name](const QString &path) { return path.endsWith(QLatin1String(name)); }),
                     name);
    }

    // A stage without an access model sends the Kernel workspace from Coalescing to the tile map,
    // which says why (Qt 6 would move to the next enabled tab, the source); and a tab changing out
    // of sight never becomes what Ctrl+E writes.
    void unmodelledStageFallsBackToTheTileMap()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showView(QStringLiteral("Coalescing")));
        auto *tabs = window.findChild<QTabWidget *>("mappingTabs");
        window.parameterPanel()->setStage(StageId::CublasFp32);
        QCOMPARE(tabs->currentWidget(), window.findChild<QWidget *>("mappingView"));
        QVERIFY(window.showView(QStringLiteral("Coalescing")) == false); // off for cuBLAS
        QVERIFY(window.parameterPanel()->applyPreset("worklog-3"));
        QVERIFY(window.showView(QStringLiteral("Bank conflicts")));
        window.workspaces()->setCurrent(Workspace::Sweep);
        QWidget *sweepTarget = window.exportTarget();
        window.parameterPanel()->setStage(StageId::CublasFp32); // the Kernel tab changes, unseen
        QCOMPARE(window.exportTarget(), sweepTarget);
        QCOMPARE(window.workspaces()->current(), Workspace::Sweep);
    }

    void runOffSaysWhyOnce()
    {
        MainWindow window(options());
        const QString tip = window.action(QStringLiteral("actionRun"))->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("Running is off")), qPrintable(tip));
        QCOMPARE(tip.count(QStringLiteral("off:")), 1);
        auto *label = window.findChild<QLabel *>("runnerStatusLabel");
        QVERIFY(label);
        QCOMPARE(label->text().count(QStringLiteral("off:")), 1); // the status bar says it once too
    }

    void helpMenuListsTheShortcuts()
    {
        MainWindow window(options());
        QVERIFY(window.action(QStringLiteral("actionReadingGuide")));
        QVERIFY(window.action(QStringLiteral("actionGlossary")));
        QAction *shortcuts = window.action(QStringLiteral("actionShortcuts"));
        QVERIFY(shortcuts);
        const QString html = shortcutsHtml(window.actions());
        for (const char *expected : {"Run Ladder", "Ctrl+Shift+R", "Ladder", "Ctrl+1", "Sweep", "Ctrl+4",
                                     "Parameter Panel", "Alt+0", "Export"})
            QVERIFY2(html.contains(QLatin1String(expected)), expected);
        QVERIFY(readingGuideHtml().contains(QStringLiteral("Counters")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestWorkspaces)
#include "tst_workspaces.moc"
