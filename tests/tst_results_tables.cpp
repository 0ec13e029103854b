// The Ladder's results table and the Counters run list with the whole 23-stage H200 ladder loaded:
// at 1280x800, 1440x900 and 1920x1080 every number a
// reader needs is whole and on screen without scrolling sideways, hidden columns are counted in
// the header, each row carries the charts' code, the sort arrow shows only when a header sorts,
// and the user's choice of columns survives a restart.
#include "jargon_text.h"
#include "main_window.h"
#include "results_model.h"
#include "results_tables.h"
#include "run_list_delegate.h"
#include "runtime_chart.h"
#include "runtime_series.h"
#include "session.h"
#include "workspaces.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

using namespace gemmscope;
using RM = ResultsModel;

namespace {

const QString kFullLadder = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json");

// The width a column needs for its whole contents and title (what Qt's fit would give it).
int neededWidth(QTableView *table, int column)
{
    return std::max(static_cast<QAbstractItemView *>(table)->sizeHintForColumn(column),
                    table->horizontalHeader()->sectionSizeHint(column));
}

// Whole (not elided) and inside the viewport without scrolling sideways.
QString columnProblem(QTableView *table, int column)
{
    QHeaderView *header = table->horizontalHeader();
    const QString name = table->model()->headerData(column, Qt::Horizontal).toString();
    if (table->isColumnHidden(column))
        return QStringLiteral("%1 hidden").arg(name);
    if (header->sectionSize(column) < neededWidth(table, column))
        return QStringLiteral("%1 cut: %2 px for %3")
            .arg(name)
            .arg(header->sectionSize(column))
            .arg(neededWidth(table, column));
    const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
    if (header->sectionViewportPosition(column) < 0 || right > table->viewport()->width())
        return QStringLiteral("%1 off the viewport: ends at %2 of %3 px")
            .arg(name)
            .arg(right)
            .arg(table->viewport()->width());
    return {};
}

QStringList runIdsInRowOrder(QTableView *table)
{
    QStringList ids;
    for (int row = 0; row < table->model()->rowCount(); ++row)
        ids << table->model()->index(row, 0).data(RM::RunIdRole).toString();
    return ids;
}

void clickHeader(QTableView *table, int column)
{
    QHeaderView *header = table->horizontalHeader();
    // On its title, in the header's lower row (the row above holds the columns button).
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() - header->fontMetrics().height() / 2 - 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

// The least a column takes: its widest cell or its bold title, with a few pixels of margin.
static int columnWidthAtLeast(const QTableView *table, int column)
{
    QFont bold = table->horizontalHeader()->font();
    bold.setBold(true);
    int widest =
        QFontMetrics(bold).horizontalAdvance(table->model()->headerData(column, Qt::Horizontal).toString());
    for (int row = 0; row < table->model()->rowCount(); ++row)
        widest = std::max(widest, table->fontMetrics().horizontalAdvance(
                                      table->model()->index(row, column).data().toString()));
    return widest + 16; // the cell's and the header's margins, a little less than Qt's
}

class TestResultsTables : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("GemmScopeTests");
        QCoreApplication::setApplicationName("tst_results_tables");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(kFullLadder), qPrintable(kFullLadder));
        QSettings().clear();
    }

    // The numbers a reader compares rows by are whole and on screen at each common screen size;
    // a column left out for want of width is counted on the header's columns button, and every
    // column that is shown is whole (only the stage name and the parameters give way, at their end).
    void ladderNumbersWholeWithoutScrolling_data() { sizes_data(); }
    void ladderNumbersWholeWithoutScrolling()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        openFullLadder(window, size);
        QTableView *table = window.resultsView();
        QVERIFY(table->isVisible());
        for (const int column :
             {RM::CodeColumn, RM::MedianColumn, RM::TflopsColumn, RM::PercentOfCublasColumn,
              RM::RegistersColumn, RM::SmemColumn, RM::OccupancyColumn}) {
            const QString problem = columnProblem(table, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        int hidden = 0;
        for (int column = 0; column < RM::ColumnCount; ++column) {
            if (table->isColumnHidden(column)) {
                ++hidden;
                continue;
            }
            if (column == RM::StageColumn || column == RM::ParametersColumn) {
                // Cut at its end only, and never to nothing.
                QCOMPARE(table->textElideMode(), Qt::ElideRight);
                QVERIFY(table->horizontalHeader()->sectionSize(column) >= 80);
                continue;
            }
            const QString problem = columnProblem(table, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        auto *button = table->horizontalHeader()->findChild<QToolButton *>("columnsButton");
        QVERIFY(button && button->isVisible());
        QCOMPARE(button->text(), hidden == 0
                                     ? QStringLiteral("⋮")
                                     : (hidden == 1 ? QStringLiteral("1 column hidden ▾")
                                                    : QStringLiteral("%1 columns hidden ▾").arg(hidden)));
        // The button sits over no column's title and takes no column's width: it is on the
        // header's own row above the titles (over the last title it hid its name), a whole line of
        // titles under it, and the last title is whole in its column.
        QHeaderView *header = table->horizontalHeader();
        int last = -1;
        for (int visual = header->count() - 1; visual >= 0 && last < 0; --visual)
            if (!header->isSectionHidden(header->logicalIndex(visual)))
                last = header->logicalIndex(visual);
        QFont bold = header->font();
        bold.setBold(true);
        const int titleLine = QFontMetrics(bold).height();
        QVERIFY2(button->geometry().bottom() + titleLine < header->height(),
                 qPrintable(QStringLiteral("button down to y %1 in a header %2 px high, titles %3 px")
                                .arg(button->geometry().bottom())
                                .arg(header->height())
                                .arg(titleLine)));
        QVERIFY(button->geometry().right() < header->width());
        const int title =
            QFontMetrics(bold).horizontalAdvance(table->model()->headerData(last, Qt::Horizontal).toString());
        QVERIFY2(header->sectionSize(last) >= title,
                 qPrintable(
                     QStringLiteral("%1 px for a title of %2 px").arg(header->sectionSize(last)).arg(title)));
        // And what is left of the table's width is narrower than any hidden column.
        const int columnsEnd = header->sectionViewportPosition(last) + header->sectionSize(last);
        const int blank = table->viewport()->width() - columnsEnd;
        for (int column = 0; column < RM::ColumnCount; ++column)
            if (table->isColumnHidden(column) && column != RM::PercentOfCublasTf32Column)
                QVERIFY2(blank < columnWidthAtLeast(table, column),
                         qPrintable(
                             QStringLiteral("%1 px blank while column %2 is hidden").arg(blank).arg(column)));
        // Room at 1920 for the rest of what differs between rows.
        if (size.width() >= 1920)
            QVERIFY(!table->isColumnHidden(RM::RelErrorColumn));
    }

    // Runs that arrive one by one (a ladder run from the window: queued, then finished with its
    // conditions) leave every needed column whole, as the session opened from a file does. Seen on
    // the H200: after a live ladder the Trust column read "stea...".
    void arrivingRunsLeaveTheNumbersWhole_data() { sizes_data(); }
    void arrivingRunsLeaveTheNumbersWhole()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Ladder);
        Session recorded;
        QString error;
        QVERIFY2(recorded.open(kFullLadder, &error), qPrintable(error));
        for (const RunRecord &finished : recorded.runs()) {
            RunRecord queued;
            queued.runId = finished.runId;
            queued.stage = finished.stage;
            queued.params = finished.params;
            queued.m = finished.m;
            queued.n = finished.n;
            queued.k = finished.k;
            queued.presetKey = finished.presetKey;
            queued.status = RunStatus::Queued;
            window.session()->addOrUpdate(queued);
        }
        QApplication::processEvents();
        for (const RunRecord &finished : recorded.runs()) {
            window.session()->addOrUpdate(finished);
            window.resultsTables()->scheduleFit(); // as RunController::runFinished asks
            QApplication::processEvents();
        }
        QApplication::processEvents();
        QTableView *table = window.resultsView();
        for (const int column :
             {RM::CodeColumn, RM::MedianColumn, RM::TflopsColumn, RM::PercentOfCublasColumn,
              RM::RegistersColumn, RM::SmemColumn, RM::OccupancyColumn}) {
            const QString problem = columnProblem(table, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    // A session opened is fitted whole once; a ladder queued into it afterwards (fewer rows than a
    // burst) is fitted by its own rows. Left due after the open, the first ladder run fitted a
    // 10,000-run session whole again, reading every row: 18 ms of the UI thread.
    void rowsAddedAfterOpeningAreFittedAlone()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1440, 900));
        ResultsTables *tables = window.resultsTables();
        const int wholeFits = tables->wholeFitCount();
        QVERIFY(wholeFits > 0);
        RunRecord queued = window.session()->runs().first();
        queued.runId = QStringLiteral("queued-after-open");
        queued.status = RunStatus::Queued;
        window.session()->addOrUpdate(queued);
        QApplication::processEvents();
        QApplication::processEvents();
        QCOMPARE(tables->wholeFitCount(), wholeFits);
        // The row is fitted all the same: its code is whole.
        const QString problem = columnProblem(window.resultsView(), RM::CodeColumn);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The Counters run list: the code, the stage and the median readable at each size without
    // scrolling sideways; a long stage name cut at its end, whole in its tooltip.
    void runListReadable_data() { sizes_data(); }
    void runListReadable()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        openFullLadder(window, size);
        // The splitters as a first start at this size lays them out (the run list half the width).
        window.workspaces()->applyFirstStartSizes(size);
        window.workspaces()->setCurrent(Workspace::Counters);
        QApplication::processEvents();
        QApplication::processEvents();
        auto *list = window.findChild<QTableView *>("counterRunList");
        QVERIFY(list && list->isVisible());
        for (const int column : {RM::CodeColumn, RM::MedianColumn}) {
            const QString problem = columnProblem(list, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QVERIFY(!list->isColumnHidden(RM::StageColumn));
        QCOMPARE(list->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(list->textElideMode(), Qt::ElideRight);
        // A number's column as wide as its widest text and title, not more: the room left over goes
        // to the stage's name (TFLOP/s, the last column, stood three times as wide as its numbers).
        QHeaderView *listHeader = list->horizontalHeader();
        int numbers = 0;
        for (int column = 0; column < RM::ColumnCount; ++column) {
            if (list->isColumnHidden(column) || column == RM::StageColumn || column == RM::ParametersColumn)
                continue;
            ++numbers;
            QFont bold = listHeader->font();
            bold.setBold(true);
            int widest = QFontMetrics(bold).horizontalAdvance(
                list->model()->headerData(column, Qt::Horizontal).toString());
            for (int row = 0; row < list->model()->rowCount(); ++row)
                widest = std::max(widest, list->fontMetrics().horizontalAdvance(
                                              list->model()->index(row, column).data().toString()));
            QVERIFY2(listHeader->sectionSize(column) <= widest + 40,
                     qPrintable(QStringLiteral("%1: %2 px for text at most %3 px wide")
                                    .arg(list->model()->headerData(column, Qt::Horizontal).toString())
                                    .arg(listHeader->sectionSize(column))
                                    .arg(widest)));
        }
        QVERIFY(numbers >= 2); // the code and the median at least
        // The stage's name and, under it, the run's parameters, both whole in the Stage cell: beside
        // the name the parameters were cut at 1280 and 1440.
        auto *twoLines = qobject_cast<RunListDelegate *>(list->itemDelegateForColumn(RM::StageColumn));
        QVERIFY(twoLines);
        QStyleOptionViewItem option;
        option.initFrom(list);
        for (int row = 0; row < list->model()->rowCount(); ++row) {
            const QModelIndex cell = list->model()->index(row, RM::StageColumn);
            const QStringList lines = twoLines->lines(cell);
            QVERIFY(!lines[0].isEmpty());
            QCOMPARE(lines[1], list->model()->index(row, RM::ParametersColumn).data().toString());
            QVERIFY2(twoLines->sizeHint(option, cell).width() <=
                         list->horizontalHeader()->sectionSize(RM::StageColumn),
                     qPrintable(QStringLiteral("\"%1\" / \"%2\" in %3 px")
                                    .arg(lines[0], lines[1])
                                    .arg(list->horizontalHeader()->sectionSize(RM::StageColumn))));
            QVERIFY(list->rowHeight(row) >= 2 * list->fontMetrics().height());
        }
        // Its tooltip: both lines, or a failed run's reason (the model's), never the lines over it.
        const auto tipAt = [&](int row) {
            const QModelIndex cell = list->model()->index(row, RM::StageColumn);
            QToolTip::hideText();
            QHelpEvent help(QEvent::ToolTip, list->visualRect(cell).center(),
                            list->viewport()->mapToGlobal(list->visualRect(cell).center()));
            twoLines->helpEvent(&help, list, option, cell);
            return QToolTip::text();
        };
        const QString first = tipAt(0);
        QVERIFY2(first.contains(twoLines->lines(list->model()->index(0, RM::StageColumn))[1].toHtmlEscaped()),
                 qPrintable(first));
        RunRecord failed = window.session()->runs().first();
        failed.runId = QStringLiteral("failed-for-the-tooltip");
        failed.status = RunStatus::Failed;
        failed.errorKind = QStringLiteral("launch");
        failed.errorMessage = QStringLiteral("the kernel did not start");
        window.session()->addOrUpdate(failed);
        QApplication::processEvents();
        int failedRow = -1;
        for (int row = 0; row < list->model()->rowCount(); ++row)
            if (list->model()->index(row, 0).data(RM::RunIdRole).toString() == failed.runId)
                failedRow = row;
        QVERIFY(failedRow >= 0);
        QVERIFY2(tipAt(failedRow).contains(QStringLiteral("the kernel did not start")),
                 qPrintable(tipAt(failedRow)));

        // Where a column more fits (the list dragged wider), it is the speed, not one of those the
        // same on every row: at 1920 a wide list showed Size and Origin and hid the TFLOP/s.
        auto *splitter = window.findChild<QSplitter *>(QStringLiteral("countersSplitter"));
        QVERIFY(splitter);
        splitter->setSizes({splitter->width() * 3 / 4, splitter->width() / 4});
        QApplication::processEvents();
        QApplication::processEvents();
        if (list->width() > 800)
            QVERIFY2(!list->isColumnHidden(RM::TflopsColumn), qPrintable(QString::number(list->width())));
    }

    // Every row carries the name the runtime chart (and the roofline) gives its run, and rows of
    // one stage are told apart by code and parameters.
    void codeColumnMatchesTheCharts()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1440, 900));
        QHash<QString, QString> chartCode;
        for (const RuntimeSlot &slot : window.findChild<RuntimeChart *>()->runtimeSlotList())
            chartCode.insert(slot.run->runId, slot.label);
        QTableView *table = window.resultsView();
        QCOMPARE(table->model()->rowCount(), 23);
        QCOMPARE(chartCode.size(), 23);
        QSet<QString> identities;
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QString id = table->model()->index(row, 0).data(RM::RunIdRole).toString();
            const QString code = table->model()->index(row, RM::CodeColumn).data().toString();
            QVERIFY2(!code.isEmpty(), qPrintable(id));
            QCOMPARE(code, chartCode.value(id));
            identities.insert(table->model()->index(row, RM::StageColumn).data().toString() + '|' + code +
                              '|' + table->model()->index(row, RM::ParametersColumn).data().toString());
        }
        QCOMPARE(identities.size(), 23);
    }

    // Rows start in the charts' ladder order with no sort arrow; a header click sorts and shows
    // the arrow, the second reverses, the third returns to the ladder and hides the arrow.
    void sortArrowOnlyWhenAHeaderSorts()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1920, 1080));
        QTableView *table = window.resultsView();
        QHeaderView *header = table->horizontalHeader();
        QStringList ladder;
        for (const RunRecord &run : ladderOrdered(window.session()->runs()))
            ladder << run.runId;
        QCOMPARE(header->sortIndicatorSection(), -1);
        QCOMPARE(runIdsInRowOrder(table), ladder);
        clickHeader(table, RM::MedianColumn);
        QCOMPARE(header->sortIndicatorSection(), int(RM::MedianColumn));
        QVERIFY(header->isSortIndicatorShown());
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder); // fastest first
        const QStringList byMedian = runIdsInRowOrder(table);
        QVERIFY(byMedian != ladder);
        QCOMPARE(table->model()->index(0, RM::CodeColumn).data().toString(), QStringLiteral("cuBLAS TF32"));
        // The run list shows the same rows: its header says so too.
        QHeaderView *listHeader = window.findChild<QTableView *>("counterRunList")->horizontalHeader();
        QCOMPARE(listHeader->sortIndicatorSection(), int(RM::MedianColumn));
        clickHeader(table, RM::MedianColumn);
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        clickHeader(table, RM::MedianColumn);
        QCOMPARE(header->sortIndicatorSection(), -1);
        QCOMPARE(listHeader->sortIndicatorSection(), -1);
        QCOMPARE(runIdsInRowOrder(table), ladder);
        // The code column's own order is the ladder's.
        clickHeader(table, RM::CodeColumn);
        QCOMPARE(header->sortIndicatorSection(), int(RM::CodeColumn));
        QCOMPARE(runIdsInRowOrder(table), ladder);
    }

    // The ladder's order holds as runs come, change and go (the table keeps each row's rank, found
    // once, with the rows): a run added at the end, one moved to another stage, one removed.
    void ladderOrderFollowsRunsThatComeChangeAndGo()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1920, 1080));
        QTableView *table = window.resultsView();
        Session *session = window.session();
        const auto ladder = [session] {
            QStringList ids;
            for (const RunRecord &run : ladderOrdered(session->runs()))
                ids << run.runId;
            return ids;
        };
        RunRecord naive = session->runs().first();
        for (const RunRecord &run : session->runs())
            if (run.stage == StageId::Naive)
                naive = run;
        naive.runId = QStringLiteral("another-naive");
        naive.presetKey.clear();
        session->addOrUpdate(naive); // last in the session, near the top of the ladder
        QCOMPARE(runIdsInRowOrder(table), ladder());
        QVERIFY(runIdsInRowOrder(table).indexOf(naive.runId) < 5);
        RunRecord moved = naive;
        moved.stage = StageId::CublasFp32; // the same id, now a cuBLAS run: it moves down
        session->addOrUpdate(moved);
        QCOMPARE(runIdsInRowOrder(table), ladder());
        QVERIFY(runIdsInRowOrder(table).indexOf(naive.runId) > 5);
        session->removeRun(session->runs().first().runId);
        QCOMPARE(runIdsInRowOrder(table), ladder());
    }

    // Columns the user hides or shows from the header's menu stay so in the next window.
    // The run list measures only the columns it may show (its own and the user's choices); one
    // chosen later in the column menu is measured then, and shown whole.
    void aColumnChosenLaterIsShownWhole()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1920, 1080));
        window.workspaces()->applyFirstStartSizes(QSize(1920, 1080));
        window.workspaces()->setCurrent(Workspace::Counters);
        QApplication::processEvents();
        auto *list = window.findChild<QTableView *>("counterRunList");
        QVERIFY(list && list->isVisible());
        // When a run was measured: its cells ("2026-11-30 14:02:11 UTC") are wider than its title.
        QVERIFY(list->isColumnHidden(RM::TimeColumn));
        window.resultsTables()->setColumnChoice(list, RM::TimeColumn, true);
        QApplication::processEvents();
        const QString problem = columnProblem(list, RM::TimeColumn);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void hiddenColumnsSettingRoundTrips()
    {
        QSettings().clear();
        MainWindow::Options keep = options();
        keep.restoreSettings = true;
        {
            MainWindow window(keep);
            openFullLadder(window, QSize(1440, 900));
            ResultsTables *tables = window.findChild<ResultsTables *>();
            QVERIFY(tables);
            tables->setColumnChoice(window.resultsView(), RM::RegistersColumn, false);
            tables->setColumnChoice(window.resultsView(), RM::TimeColumn, true);
            QVERIFY(window.resultsView()->isColumnHidden(RM::RegistersColumn));
            QVERIFY(!window.resultsView()->isColumnHidden(RM::TimeColumn));
            QVERIFY(window.close());
        }
        MainWindow again(keep);
        openFullLadder(again, QSize(1440, 900));
        QTableView *table = again.resultsView();
        QVERIFY(table->isColumnHidden(RM::RegistersColumn));
        QVERIFY(!table->isColumnHidden(RM::TimeColumn));
        auto *button = table->horizontalHeader()->findChild<QToolButton *>("columnsButton");
        QVERIFY(button->text().contains(QStringLiteral(" hidden ▾")));
        QVERIFY(button->toolTip().contains(QStringLiteral("Registers")));
        QSettings().clear();
    }

    // Cells that have nothing to say do not look like data: the session's runs
    // were timed before conditions were recorded, verified (rel. error 0 or measured), compiled.
    void emptyCellsSayWhy()
    {
        MainWindow window(options());
        openFullLadder(window, QSize(1920, 1080));
        const ResultsModel *model = window.resultsModel();
        bool sawZero = false, sawError = false;
        for (int row = 0; row < model->rowCount(); ++row) {
            const RunRecord &run = model->runAt(row);
            const auto cell = [&](int column, int role = Qt::DisplayRole) {
                return model->index(row, column).data(role).toString();
            };
            QCOMPARE(cell(RM::TrustColumn), QStringLiteral("not checked (no clock log)"));
            QVERIFY(!cell(RM::TrustColumn, Qt::ToolTipRole).isEmpty());
            QCOMPARE(cell(RM::ClockColumn), QStringLiteral("—"));
            QVERIFY(cell(RM::ClockColumn, Qt::ToolTipRole).contains(QStringLiteral("nominal 1980 MHz")));
            QCOMPARE(cell(RM::SizeColumn), QStringLiteral("4096³"));
            QVERIFY(run.relError.has_value());
            if (*run.relError == 0) {
                sawZero = true;
                QCOMPARE(cell(RM::RelErrorColumn), QStringLiteral("0 (exact)"));
                QVERIFY(cell(RM::RelErrorColumn, Qt::ToolTipRole).startsWith(QStringLiteral("Verified")));
            } else {
                sawError = true;
                QVERIFY(cell(RM::RelErrorColumn).contains(QStringLiteral("e-04")));
            }
            if (run.registers >= 0 && run.staticSmemBytes == 0 && run.stageKey() == QStringLiteral("naive"))
                QCOMPARE(cell(RM::SmemColumn), QStringLiteral("0 B"));
            if (run.registers < 0) // cuBLAS: no resources of its own
                QCOMPARE(cell(RM::RegistersColumn), QStringLiteral("—"));
        }
        QVERIFY(sawZero && sawError);
    }

    // A column with one value on every row (this session: one size, one GPU, one origin, one
    // trust, every run ok) is hidden at every size, its value said once in the header's tooltip;
    // the columns whose values differ are shown in their fixed order of priority up to the first
    // that does not fit, so a wider window shows more of the same columns, never others. (Size,
    // Origin, GPU and Trust took the room of the TFLOP/s and the p20–p80 range, and the choice
    // changed with the width.)
    void oneValueColumnsHiddenTheRestInPriorityOrder()
    {
        const QList<int> priority{RM::SpreadColumn, RM::PercentOfCublasTf32Column,
                                  RM::TrustColumn,  RM::RelErrorColumn,
                                  RM::StatusColumn, RM::ClockColumn,
                                  RM::SizeColumn,   RM::OriginColumn,
                                  RM::GpuColumn,    RM::TimeColumn};
        QList<int> narrower;
        for (const QSize &size : {QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)}) {
            MainWindow window(options());
            openFullLadder(window, size);
            QTableView *table = window.resultsView();
            const QAbstractItemModel *model = table->model();
            const auto oneValue = [model](int column) {
                for (int row = 1; row < model->rowCount(); ++row)
                    if (model->index(row, column).data() != model->index(0, column).data())
                        return false;
                return true;
            };
            for (const int column : {RM::SizeColumn, RM::GpuColumn, RM::OriginColumn, RM::TrustColumn}) {
                QVERIFY2(oneValue(column), qPrintable(QString::number(column)));
                QVERIFY2(table->isColumnHidden(column), qPrintable(QString::number(column)));
            }
            const QString tip = table->horizontalHeader()->toolTip();
            QVERIFY2(tip.contains(QStringLiteral("All runs")) && tip.contains(QStringLiteral("4096³")) &&
                         tip.contains(QStringLiteral("NVIDIA H200")) && !tip.contains(QStringLiteral("—")),
                     qPrintable(tip));
            // "Trust not checked (no clock log)" on every row: said once, and explained there as the
            // glossary explains it (issue 38).
            QVERIFY2(tip.contains(QStringLiteral("Trust not checked (no clock log)")) &&
                         tip.contains(jargon::noClockLog().toHtmlEscaped()),
                     qPrintable(tip));
            QList<int> shown;
            bool gap = false;
            for (const int column : priority) {
                if (oneValue(column))
                    continue;
                if (table->isColumnHidden(column)) {
                    gap = true;
                    continue;
                }
                QVERIFY2(!gap, qPrintable(QStringLiteral("column %1 shown after a hidden one").arg(column)));
                shown << column;
            }
            for (const int column : std::as_const(narrower))
                QVERIFY2(shown.contains(column), qPrintable(QString::number(column)));
            narrower = shown;
            // The Counters run list: the same rule, its speed before anything the same on every row.
            QTableView *list = window.findChild<QTableView *>(QStringLiteral("counterRunList"));
            window.workspaces()->applyFirstStartSizes(size); // as a first start at this size
            window.workspaces()->setCurrent(Workspace::Counters);
            QApplication::processEvents();
            QApplication::processEvents();
            for (const int column : {RM::SizeColumn, RM::GpuColumn, RM::OriginColumn})
                QVERIFY2(list->isColumnHidden(column), qPrintable(QString::number(column)));
            if (size.width() >= 1440)
                QVERIFY2(!list->isColumnHidden(RM::TflopsColumn), qPrintable(QString::number(list->width())));
        }
    }

private:
    static void sizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    MainWindow::Options options() const
    {
        return {
            .startRunner = false, .restoreSettings = false, .autosavePath = m_dir.filePath("autosave.json")};
    }

    static void openFullLadder(MainWindow &window, const QSize &size)
    {
        QString error;
        QVERIFY2(window.openSession(kFullLadder, &error), qPrintable(error));
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->setCurrent(Workspace::Ladder);
        QApplication::processEvents();
        QApplication::processEvents();
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestResultsTables)
#include "tst_results_tables.moc"
