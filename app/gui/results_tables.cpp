#include "results_tables.h"

#include "results_model.h"
#include "run_selection.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

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
    for (QTableView *table : {m_full, m_runList})
        table->installEventFilter(this); // shown: fitted to its real width
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
        fitColumns();
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
