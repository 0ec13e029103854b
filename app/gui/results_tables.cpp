#include "results_tables.h"

#include "results_model.h"
#include "run_selection.h"

#include <QEvent>
#include <QHeaderView>
#include <QPersistentModelIndex>
#include <QTableView>
#include <QTimer>
#include <utility>

namespace gemmscope {

namespace {

QTableView *makeTable(QAbstractItemModel *model, const char *name)
{
    auto *table = new QTableView;
    table->setObjectName(QLatin1String(name));
    table->setModel(model);
    table->setSortingEnabled(true);
    // The ladder's order, naive first (a header's default indicator is descending: reversed).
    table->sortByColumn(ResultsModel::StageColumn, Qt::AscendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setVisible(false);
    table->setTextElideMode(Qt::ElideRight); // only text columns are capped; their tooltips hold all of it
    table->setWordWrap(false);
    // Fitting a column reads at most this many rows: a 10,000-run session must not format every
    // cell of every column each time a run arrives.
    table->horizontalHeader()->setResizeContentsPrecision(200);
    table->setMinimumSize(260, 140);
    // One line of text a row: the default row height leaves a ten-run table two thirds empty.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    return table;
}

} // namespace

ResultsTables::ResultsTables(QAbstractItemModel *sortedModel, RunSelection *selection, QObject *parent)
    : QObject(parent), m_full(makeTable(sortedModel, "resultsTable")),
      m_runList(makeTable(sortedModel, "counterRunList"))
{
    for (int column = 0; column < ResultsModel::ColumnCount; ++column)
        m_runList->setColumnHidden(
            column, column != ResultsModel::StageColumn && column != ResultsModel::ParametersColumn &&
                        column != ResultsModel::MedianColumn && column != ResultsModel::OriginColumn);
    // The time right after the stage: the list is narrow, and the time is what tells runs apart.
    m_runList->horizontalHeader()->moveSection(ResultsModel::MedianColumn, 1);
    // Where a number comes from (measured here, recorded, published for the T4) beside the stage:
    // a published T4 time next to an H200 one must not read as the same GPU's.
    m_full->horizontalHeader()->moveSection(ResultsModel::OriginColumn, 1);
    // Whether a time can be compared (issue 22) right after the time, visible without scrolling.
    QHeaderView *header = m_full->horizontalHeader();
    header->moveSection(header->visualIndex(ResultsModel::TrustColumn),
                        header->visualIndex(ResultsModel::MedianColumn) + 1);
    for (QTableView *table : {m_full, m_runList})
        table->installEventFilter(this); // shown: fitted to its real width
    // What scheduleFit fits: the rows that came or changed (every row after a reset).
    const auto noteRows = [this, sortedModel](int first, int last) {
        for (int row = first; row <= last && m_changedRows.size() <= 50; ++row)
            m_changedRows << QPersistentModelIndex(sortedModel->index(row, 0));
    };
    connect(sortedModel, &QAbstractItemModel::rowsInserted, this,
            [noteRows](const QModelIndex &, int first, int last) { noteRows(first, last); });
    connect(sortedModel, &QAbstractItemModel::dataChanged, this,
            [this, noteRows](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (bottomRight.row() - topLeft.row() < 50) {
                    noteRows(topLeft.row(), bottomRight.row());
                    return;
                }
                for (int column = topLeft.column(); column <= bottomRight.column(); ++column)
                    m_changedColumns.insert(column); // every row's % of cuBLAS: that column fitted
            });
    connect(sortedModel, &QAbstractItemModel::modelReset, this, [this] { m_wholeFitDue = true; });
    for (QTableView *table : {m_full, m_runList})
        connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, selection,
                [selection](const QModelIndex &current) {
                    if (current.isValid())
                        selection->select(current.data(ResultsModel::RunIdRole).toString());
                });
}

bool ResultsTables::eventFilter(QObject *watched, QEvent *event)
{
    // Columns fitted before the table was laid out were capped by its then tiny width; once it
    // has been shown at a width, the user's own column widths stay.
    // A table fitted while hidden (its workspace not shown) is fitted when shown.
    if (auto *table = qobject_cast<QTableView *>(watched);
        event->type() == QEvent::Show && table &&
        (!table->property("fittedShown").toBool() || table->property("fitWhenShown").toBool())) {
        table->setProperty("fittedShown", true);
        fitColumns();
    }
    return QObject::eventFilter(watched, event);
}

void ResultsTables::fitColumns()
{
    m_changedRows.clear();
    m_changedColumns.clear();
    // Every column as wide as its contents; the stage and status columns capped at a third of the
    // table, so that one long status does not push the numbers out of sight (the parameters are
    // never cut: the BK that tells two rows apart is at their end).
    for (QTableView *table : {m_full, m_runList}) {
        // A hidden table reads 200 rows a column to fit (Qt reads the rows on screen of a shown
        // one): in a 10,000-run session that was a tenth of the window's time while runs arrived.
        const bool hidden = table->window()->isVisible() && !table->isVisible();
        table->setProperty("fitWhenShown", hidden);
        if (hidden)
            continue;
        QHeaderView *header = table->horizontalHeader();
        const int cap = std::max(260, table->viewport()->width() / 3);
        for (int column = 0; column < header->count(); ++column) {
            if (table->isColumnHidden(column))
                continue;
            table->resizeColumnToContents(column);
            if (column == ResultsModel::StageColumn || column == ResultsModel::StatusColumn)
                header->resizeSection(column, std::min(header->sectionSize(column), cap));
        }
    }
}

void ResultsTables::scheduleFit()
{
    if (m_fitQueued)
        return;
    m_fitQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_fitQueued = false;
        // The rows that came or changed since the last fit widen their columns where they need
        // it: a fit over every column reads 200 rows each, 10-50 ms each time a run arrived in a
        // big session. A burst of many rows (a ladder queued) is fitted whole.
        QList<QPersistentModelIndex> rows = std::exchange(m_changedRows, {});
        const QSet<int> columns = std::exchange(m_changedColumns, {});
        if (rows.size() > 50 || m_wholeFitDue) {
            m_wholeFitDue = false;
            fitColumns();
            return;
        }
        for (QTableView *table : {m_full, m_runList}) {
            if (!table->isVisible()) {
                table->setProperty("fitWhenShown", true);
                continue;
            }
            QHeaderView *header = table->horizontalHeader();
            const int cap = std::max(260, table->viewport()->width() / 3);
            for (int column = 0; column < header->count(); ++column) {
                if (table->isColumnHidden(column))
                    continue;
                int width = header->sectionSize(column);
                if (columns.contains(column)) {
                    table->resizeColumnToContents(column);
                    width = header->sectionSize(column);
                }
                for (const QPersistentModelIndex &row : std::as_const(rows))
                    if (row.isValid())
                        width =
                            std::max(width, table->sizeHintForIndex(row.sibling(row.row(), column)).width());
                if (column == ResultsModel::StageColumn || column == ResultsModel::StatusColumn)
                    width = std::min(width, std::max(cap, header->sectionSize(column)));
                if (width > header->sectionSize(column))
                    header->resizeSection(column, width);
            }
        }
    });
}

void ResultsTables::showRow(int row)
{
    for (QTableView *table : {m_full, m_runList}) {
        const QModelIndex index = table->model()->index(row, 0);
        if (table->currentIndex().row() != row) {
            table->setCurrentIndex(index);
            table->scrollTo(index);
        }
    }
}

} // namespace gemmscope
