#include "results_tables.h"

#include "columns_header.h"
#include "plain_text.h"
#include "results_model.h"
#include "run_list_delegate.h"
#include "run_selection.h"
#include "turn_queue.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QContextMenuEvent>
#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QPersistentModelIndex>
#include <QScrollBar>
#include <QSettings>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTextDocument> // Qt::mightBeRichText
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <utility>

namespace gemmscope {

namespace {

using RM = ResultsModel;

QTableView *makeTable(QAbstractItemModel *model, const char *name)
{
    auto *table = new QTableView;
    table->setObjectName(QLatin1String(name));
    table->setHorizontalHeader(new ColumnsHeader(table));
    QHeaderView *header = table->horizontalHeader();
    // The ladder's order (the charts'), without an arrow: no header sorts it. A header's first
    // click sorts by it and shows the arrow, the second reverses, the third returns to the ladder.
    header->setSortIndicator(-1, Qt::AscendingOrder);
    header->setSortIndicatorClearable(true);
    table->setModel(model);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    header->setSectionResizeMode(QHeaderView::Interactive);
    // The last column's cells reach the table's right edge (sizeShownColumns), the button is above.
    header->setStretchLastSection(false);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    table->verticalHeader()->setVisible(false);
    table->setTextElideMode(Qt::ElideRight); // only text columns give way; their tooltips hold all of it
    table->setWordWrap(false);
    // Fitting a column reads at most this many rows: a 10,000-run session must not format every
    // cell of every column each time a run arrives.
    header->setResizeContentsPrecision(200);
    table->setMinimumSize(260, 140);
    // One line of text a row: the default row height leaves a ten-run table two thirds empty.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    return table;
}

bool isTextColumn(int column)
{
    return column == RM::StageColumn || column == RM::ParametersColumn;
}

QString settingsKey(const QTableView *view, const char *what)
{
    return QStringLiteral("columns/%1/%2").arg(view->objectName(), QLatin1String(what));
}

} // namespace

ResultsTables::ResultsTables(QAbstractItemModel *sortedModel, RunSelection *selection, QObject *parent)
    : QObject(parent), m_model(sortedModel)
{
    m_full.view = makeTable(sortedModel, "resultsTable");
    m_full.essential = {RM::CodeColumn,      RM::StageColumn,  RM::ParametersColumn,
                        RM::MedianColumn,    RM::TflopsColumn, RM::PercentOfCublasColumn,
                        RM::RegistersColumn, RM::SmemColumn,   RM::OccupancyColumn};
    // In a fixed order of priority, what tells runs apart first: the p20–p80 range (the runtime
    // chart's whiskers; at 1280x800 it gives way to the stage names, which the chart shows as
    // codes there, and the median's tooltip holds it), the tensor-core stages against cuBLAS
    // TF32, how far a time can be trusted, whether the result was right, a failure's sentence,
    // then what usually is the same for a whole session. A column with one value on every row is
    // hidden whatever the width (layoutColumns).
    m_full.optional = {RM::SpreadColumn, RM::PercentOfCublasTf32Column,
                       RM::TrustColumn,  RM::RelErrorColumn,
                       RM::StatusColumn, RM::ClockColumn,
                       RM::SizeColumn,   RM::OriginColumn,
                       RM::GpuColumn,    RM::TimeColumn};
    m_full.textFirst = RM::ParametersColumn; // the BK that tells the `__restrict__` rows apart
    m_runList.view = makeTable(sortedModel, "counterRunList");
    // The parameters under the stage's name, in its cell (RunListDelegate): beside it they were cut
    // at 1280 and 1440. Their own column stays in the column menu.
    m_runList.view->setItemDelegateForColumn(RM::StageColumn,
                                             new RunListDelegate(RM::ParametersColumn, this));
    m_runList.view->verticalHeader()->setDefaultSectionSize(
        RunListDelegate::rowHeight(m_runList.view->fontMetrics()));
    m_runList.essential = {RM::CodeColumn, RM::StageColumn, RM::MedianColumn};
    // Its speed first where there is room; then where it was measured, where rows differ: a
    // published T4 time next to an H200 one must not read as the same GPU's.
    m_runList.optional = {RM::TflopsColumn, RM::OriginColumn, RM::SizeColumn, RM::GpuColumn};
    m_runList.textFirst = RM::StageColumn; // the code and the time tell its rows apart
    // The list is narrow and the time is what tells runs apart: right after the stage.
    m_runList.view->horizontalHeader()->moveSection(RM::MedianColumn, RM::ParametersColumn);
    for (Table *table : {&m_full, &m_runList})
        setUp(*table);
    // One sorted model under both: a header that sorts it puts its arrow on the other one too,
    // so that neither shows ladder order (no arrow) over rows sorted by a column.
    for (auto [from, to] : {std::pair{&m_full, &m_runList}, std::pair{&m_runList, &m_full}}) {
        QHeaderView *target = to->view->horizontalHeader();
        connect(from->view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, target,
                [target](int section, Qt::SortOrder order) {
                    if (target->sortIndicatorSection() != section || target->sortIndicatorOrder() != order)
                        target->setSortIndicator(section, order);
                });
    }

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
    connect(sortedModel, &QAbstractItemModel::modelReset, this, [this] {
        m_wholeFitDue = true;
        m_uniform.clear();
    });
    connect(sortedModel, &QAbstractItemModel::rowsRemoved, this, [this] { m_uniform.clear(); });
    for (Table *table : {&m_full, &m_runList})
        connect(table->view->selectionModel(), &QItemSelectionModel::currentRowChanged, selection,
                [selection](const QModelIndex &current) {
                    if (current.isValid())
                        selection->select(current.data(ResultsModel::RunIdRole).toString());
                });
}

void ResultsTables::setUp(Table &table)
{
    QTableView *view = table.view;
    QHeaderView *header = view->horizontalHeader();
    table.cellWidth = QList<int>(RM::ColumnCount, 0);
    for (int column = 0; column < RM::ColumnCount; ++column)
        view->setColumnHidden(column, !table.essential.contains(column));
    table.columnsButton = new QToolButton(header);
    table.columnsButton->setObjectName(QStringLiteral("columnsButton"));
    table.columnsButton->setAutoRaise(false);
    table.columnsButton->setFocusPolicy(Qt::NoFocus);
    // One width whatever it counts: the row's sentence of shared values is cut beside it.
    table.columnsButton->setText(columnsHiddenText(RM::ColumnCount));
    table.columnsButton->setFixedWidth(table.columnsButton->sizeHint().width());
    static_cast<ColumnsHeader *>(header)->button = table.columnsButton;
    connect(table.columnsButton, &QToolButton::clicked, this, [this, &table] {
        showColumnMenu(table, table.columnsButton->mapToGlobal(QPoint(0, table.columnsButton->height())));
    });
    connect(header, &QHeaderView::customContextMenuRequested, this,
            [this, &table, header](const QPoint &pos) { showColumnMenu(table, header->mapToGlobal(pos)); });
    connect(header, &QHeaderView::sectionResized, this, [&table](int, int, int) {
        if (!table.applying && table.view->isVisible()) // not a saved header state restored
            table.userWidths = true; // dragged by the user: kept until "Fit columns to the table"
    });
    // No arrow (and no room kept for one in every title) while the rows are in the ladder's order.
    header->setSortIndicatorShown(header->sortIndicatorSection() >= 0);
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, &table, header](int section) {
        header->setSortIndicatorShown(section >= 0);
        queueLayout(table);
    });
    connect(header, &QHeaderView::geometriesChanged, this, [this, &table] { placeColumnsButton(table); });
    view->installEventFilter(this); // shown or resized: fitted to its real width
    placeColumnsButton(table);
}

ResultsTables::Table *ResultsTables::tableOf(const QTableView *view)
{
    return view == m_full.view ? &m_full : view == m_runList.view ? &m_runList : nullptr;
}

const ResultsTables::Table *ResultsTables::tableOf(const QTableView *view) const
{
    return view == m_full.view ? &m_full : view == m_runList.view ? &m_runList : nullptr;
}

bool ResultsTables::eventFilter(QObject *watched, QEvent *event)
{
    auto *view = qobject_cast<QTableView *>(watched);
    Table *table = view ? tableOf(view) : nullptr;
    if (!table)
        return QObject::eventFilter(watched, event);
    // Columns fitted before the table was laid out were capped by its then tiny width.
    // A table fitted while hidden (its workspace not shown) is fitted when shown.
    if (event->type() == QEvent::Show &&
        (!view->property("fittedShown").toBool() || view->property("fitWhenShown").toBool())) {
        view->setProperty("fittedShown", true);
        view->setProperty("fitWhenShown", false);
        measure(*table);
        queueLayout(*table);
    } else if (event->type() == QEvent::Resize && view->isVisible()) {
        queueLayout(*table);
    }
    return QObject::eventFilter(watched, event);
}

int ResultsTables::width(const Table &table, int column) const
{
    return std::max(table.cellWidth[column], titleWidth(table, column));
}

int ResultsTables::titleWidth(const Table &table, int column) const
{
    // The title as Qt's header sizes it, but with room for the sort arrow only where it is drawn:
    // Qt reserves it in every column, some 25 px each, the width of a whole column at 1280.
    QHeaderView *header = table.view->horizontalHeader();
    QStyleOptionHeader option;
    option.initFrom(header);
    option.section = column;
    option.orientation = Qt::Horizontal;
    option.text = table.view->model()->headerData(column, Qt::Horizontal).toString();
    QFont font = header->font();
    font.setBold(true); // as Qt sizes a title: it may be drawn bold (highlighted sections)
    option.fontMetrics = QFontMetrics(font);
    QSize title = header->style()->sizeFromContents(QStyle::CT_HeaderSection, &option, QSize(), header);
    if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
        title.rwidth() +=
            title.height() + header->style()->pixelMetric(QStyle::PM_HeaderMargin, &option, header);
    return title.width();
}

// The columns a table may show: its essential and optional ones and those the user chose. The
// others are measured when chosen (measureIfNeeded): the run list shows 7 of 19 columns, and
// measuring the rest took a fifth of the first switch to Counters with 10,000 runs.
bool ResultsTables::mayShow(const Table &table, int column)
{
    return table.essential.contains(column) || table.optional.contains(column) ||
           table.choice.value(column, false);
}

void ResultsTables::measure(Table &table)
{
    // The cells only: the title's width depends on the sort arrow (width()).
    for (int column = 0; column < RM::ColumnCount; ++column)
        table.cellWidth[column] = mayShow(table, column) ? measureColumn(table, column) : kNotMeasured;
    // One value on every row (every run of this session on one GPU, one size): such a column says
    // nothing a row needs, and is the first to give way.
    // Read once for both tables (their shared columns) until the rows change: a 50,000-run session
    // formats each cell of a column that is the same on every row.
    table.uniform.clear();
    // The tables sort the results model's rows and filter none: it answers from its records.
    const auto *proxy = qobject_cast<const QAbstractProxyModel *>(m_model);
    const auto *results = qobject_cast<const ResultsModel *>(proxy ? proxy->sourceModel() : m_model);
    for (const int column : std::as_const(table.optional)) {
        if (!m_uniform.contains(column))
            m_uniform.insert(column, results && results->sameOnEveryRow(column));
        if (m_uniform.value(column))
            table.uniform.insert(column);
    }
}

int ResultsTables::measureColumn(const Table &table, int column) const
{
    return static_cast<QAbstractItemView *>(table.view)->sizeHintForColumn(column);
}

int ResultsTables::textMinimum(const Table &table, int column) const
{
    // Enough for the start of a stage's name ("Double buffering", "Shared-memory t…") and of the
    // parameters up to BK, the one that tells the `__restrict__` rows apart.
    const QFontMetrics metrics = table.view->fontMetrics();
    // Where the parameters are second (the run list, narrow), their start only: their tooltip.
    const QString start = column == RM::StageColumn ? QStringLiteral("Shared-memory til…")
                          : table.textFirst == RM::ParametersColumn
                              ? QStringLiteral("BM=128 BN=128 BK=16 TM…")
                              : QStringLiteral("BM=128 BN=…");
    const int wanted = metrics.horizontalAdvance(start) + 12;
    return std::min(width(table, column), wanted);
}

void ResultsTables::queueLayout(Table &table)
{
    if (table.layoutQueued)
        return;
    table.layoutQueued = true;
    QTimer::singleShot(0, this, [this, &table] {
        table.layoutQueued = false;
        layoutColumns(table);
    });
}

void ResultsTables::layoutColumns(Table &table)
{
    QTableView *view = table.view;
    // The width the columns may take: the table's, less its frame and a vertical scroll bar where
    // the rows need one (the columns button has a row of its own above the titles).
    const int scrollBar = view->verticalScrollBar()->sizeHint().width();
    const int whole = view->width() - 2 * view->frameWidth() - scrollBar;
    const auto shownByChoice = [&table](int column) {
        if (table.choice.contains(column))
            return table.choice.value(column);
        return table.essential.contains(column);
    };
    QList<int> shown;
    int fixed = 0, textNeed = 0;
    for (int column = 0; column < RM::ColumnCount; ++column) {
        if (!shownByChoice(column))
            continue;
        if (table.cellWidth[column] == kNotMeasured) // chosen in the menu or a restored choice
            table.cellWidth[column] = measureColumn(table, column);
        shown << column;
        (isTextColumn(column) ? textNeed : fixed) += width(table, column);
    }
    // The columns left to the width, in their fixed order of priority: a column with one value on
    // every row is not among them (the header's tooltip says that value once, commonValuesText),
    // and the first that does not fit ends the list, so that a wider window shows more of the same
    // columns, never others (skipping a wide one for a narrow one showed Size and GPU at one width
    // and the p20–p80 range at another).
    const bool severalRows = m_model->rowCount() > 1;
    QList<int> candidates;
    for (const int column : std::as_const(table.optional))
        if (!table.choice.contains(column) && !(severalRows && table.uniform.contains(column)))
            candidates << column;
    int room = whole - fixed - textNeed;
    for (const int column : std::as_const(candidates)) {
        // Beside the text at its full width.
        if (width(table, column) > room)
            break;
        shown << column;
        room -= width(table, column);
        fixed += width(table, column);
    }
    table.applying = true;
    for (int column = 0; column < RM::ColumnCount; ++column)
        view->setColumnHidden(column, !shown.contains(column));
    if (!table.userWidths)
        sizeShownColumns(table, shown, whole, fixed);
    table.applying = false;
    describeHiddenColumns(table);
    placeColumnsButton(table);
}

// The shown columns' widths: numbers at their own, the two text columns sharing what is left
// (`whole` wide in all; `fixed` the numbers' part of it).
void ResultsTables::sizeShownColumns(Table &table, const QList<int> &shown, int whole, int fixed)
{
    QTableView *view = table.view;
    QHeaderView *header = view->horizontalHeader();
    // The text columns give way where the rest leaves too little: each keeps its start (the
    // stage's first words, the parameters up to BK), then the first of them grows to whole
    // (the ladder's parameters, which tell its rows apart; the run list's stage name), then the
    // other; where even the starts do not fit, the other shrinks first, both to a floor.
    const int textRoom = whole - fixed;
    const auto full = [&](int column) { return shown.contains(column) ? width(table, column) : 0; };
    const auto start = [&](int column) { return shown.contains(column) ? textMinimum(table, column) : 0; };
    const int first = table.textFirst;
    const int second = first == RM::StageColumn ? RM::ParametersColumn : RM::StageColumn;
    QHash<int, int> text{{first, start(first)}, {second, start(second)}};
    int extra = textRoom - text[first] - text[second];
    // The floor a text column keeps: a stage name's first word; the run list's parameters (its
    // last, least needed column, whole in their tooltip) may go down to their first one.
    const int stageFloor = view->fontMetrics().horizontalAdvance(QStringLiteral("Shared-m…")) + 12;
    const int floor = second == RM::ParametersColumn && first == RM::StageColumn
                          ? view->fontMetrics().horizontalAdvance(QStringLiteral("BM=1…")) + 12
                          : stageFloor;
    if (extra >= 0) {
        const int more = std::min(full(first) - text[first], extra);
        text[first] += more;
        text[second] += std::min(full(second) - text[second], extra - more);
        // Still short of whole: the other gives up its start, down to the floor (the code
        // column tells the rows apart too; longer codes such as "cuBLAS FP32" took the room).
        const int give = std::min(full(first) - text[first], std::max(0, text[second] - floor));
        if (give > 0 && shown.contains(second)) {
            text[first] += give;
            text[second] -= give;
        }
    } else {
        text[second] = std::max(std::min(text[second], floor), text[second] + extra);
        extra = textRoom - text[first] - text[second];
        if (extra < 0)
            text[first] = std::max(std::min(text[first], stageFloor), text[first] + extra);
    }
    for (const int column : std::as_const(shown)) {
        int size = width(table, column);
        if (isTextColumn(column))
            size = text[column];
        header->resizeSection(column, size);
    }
    // What no hidden column fits in goes to the first text column (no strip of empty rows), the
    // last column where it is hidden: a number's column as wide as its numbers and title (the run
    // list's TFLOP/s, last, took the room and stood three times as wide as "TFLOP/s").
    int wider = shown.contains(first) ? first : -1;
    for (int visual = header->count() - 1; visual >= 0 && wider < 0; --visual)
        if (!header->isSectionHidden(header->logicalIndex(visual)))
            wider = header->logicalIndex(visual);
    int used = 0;
    for (const int column : std::as_const(shown))
        used += header->sectionSize(column);
    if (wider >= 0 && used < whole)
        header->resizeSection(wider, header->sectionSize(wider) + whole - used);
}

// The columns button's text and tooltip, and the header's sentence about the values every row shares.
void ResultsTables::describeHiddenColumns(Table &table)
{
    QTableView *view = table.view;
    const QString hidden = hiddenColumnsText(view);
    table.columnsButton->setText(hidden.isEmpty() ? QStringLiteral("⋮") : hidden);
    QStringList names;
    for (const int column : hiddenColumns(view)) {
        const QString name = m_model->headerData(column, Qt::Horizontal).toString();
        names << (table.uniform.contains(column) && m_model->rowCount() > 0
                      ? tr("%1 (%2 on every row)").arg(name, m_model->index(0, column).data().toString())
                      : name);
    }
    // The values every row shares, said once where the columns that would repeat them are hidden.
    const QString common = commonValuesText(view);
    // A shared value of jargon ("Trust not checked (no clock log)") explained here as its cell's
    // tooltip explains it, in wrapping paragraphs under the sentence (issue 38).
    QString explained;
    const Table *shown = tableOf(view);
    for (const int column : shown ? std::as_const(shown->optional) : QList<int>())
        if (shown->uniform.contains(column) && view->isColumnHidden(column) && m_model->rowCount() > 1)
            if (const QString tip = m_model->index(0, column).data(Qt::ToolTipRole).toString();
                !tip.isEmpty() && !Qt::mightBeRichText(tip) &&
                common.contains(m_model->index(0, column).data().toString()))
                explained += QStringLiteral("<p>%1</p>").arg(tip.toHtmlEscaped());
    view->horizontalHeader()->setToolTip(common.isEmpty() ? QString() : plainTextAsHtml(common) + explained);
    auto *header = static_cast<ColumnsHeader *>(view->horizontalHeader());
    header->note = common; // drawn as plain text, never markup
    header->viewport()->update();
    // The values come from the session file: never markup.
    table.columnsButton->setToolTip(plainTextAsHtml(
        names.isEmpty() ? tr("Every column is shown. Click (or right-click a header) to choose columns.")
                        : tr("Hidden: %1. Click (or right-click a header) to show or hide columns.")
                              .arg(names.join(QStringLiteral(", ")))));
}

void ResultsTables::placeColumnsButton(Table &table)
{
    QHeaderView *header = table.view->horizontalHeader();
    QToolButton *button = table.columnsButton;
    const QSize size(button->width(), std::max(static_cast<ColumnsHeader *>(header)->buttonRowHeight(), 1));
    button->setGeometry(header->width() - size.width(), 0, size.width(), size.height());
    button->raise();
}

QString ResultsTables::commonValuesText(const QTableView *view) const
{
    const Table *table = tableOf(view);
    if (!table || m_model->rowCount() < 2)
        return {};
    QStringList shared;
    for (const int column : std::as_const(table->optional)) {
        const QString value = m_model->index(0, column).data().toString();
        // "—" (nothing recorded) on every row says nothing worth a place in the sentence.
        if (table->uniform.contains(column) && view->isColumnHidden(column) && !value.isEmpty() &&
            value != QStringLiteral("—"))
            shared << QStringLiteral("%1 %2").arg(m_model->headerData(column, Qt::Horizontal).toString(),
                                                  value);
    }
    return shared.isEmpty() ? QString() : tr("All runs: %1.").arg(shared.join(QStringLiteral("; ")));
}

QList<int> ResultsTables::hiddenColumns(const QTableView *view) const
{
    QList<int> hidden;
    for (int column = 0; column < RM::ColumnCount; ++column)
        if (view->isColumnHidden(column))
            hidden << column;
    return hidden;
}

QString ResultsTables::hiddenColumnsText(const QTableView *view) const
{
    const qsizetype count = hiddenColumns(view).size();
    // The arrow says it opens a menu ("7 hidden" read as a label); the tooltip
    // names the columns.
    if (count == 0)
        return {};
    return columnsHiddenText(int(count));
}

// "9 columns hidden ▾": what is hidden said, not only how many (a bare "9 hidden" left a reader
// guessing).
QString ResultsTables::columnsHiddenText(int count)
{
    return count == 1 ? tr("1 column hidden ▾") : tr("%1 columns hidden ▾").arg(count);
}

void ResultsTables::showColumnMenu(Table &table, const QPoint &globalPos)
{
    QMenu menu(table.view);
    const QString hidden = hiddenColumnsText(table.view);
    QAction *title =
        menu.addAction(hidden.isEmpty() ? tr("Every column shown") : tr("Columns: %1").arg(hidden));
    title->setEnabled(false);
    menu.addSeparator();
    for (int column = 0; column < RM::ColumnCount; ++column) {
        QString name = m_model->headerData(column, Qt::Horizontal).toString();
        if (table.uniform.contains(column) && m_model->rowCount() > 0)
            name = tr("%1 — %2 on every row").arg(name, m_model->index(0, column).data().toString());
        else if (!table.choice.contains(column) && table.optional.contains(column))
            name = tr("%1 — shown where there is room").arg(name);
        QAction *action = menu.addAction(name.replace(QLatin1Char('&'), QStringLiteral("&&"))); // no mnemonic
        action->setCheckable(true);
        action->setChecked(!table.view->isColumnHidden(column));
        connect(action, &QAction::toggled, this,
                [this, &table, column](bool on) { setColumnChoice(table.view, column, on); });
    }
    menu.addSeparator();
    connect(menu.addAction(tr("Fit columns to the table (forget my choices)")), &QAction::triggered, this,
            [this, &table] {
                table.choice.clear();
                table.userWidths = false;
                measure(table);
                layoutColumns(table);
            });
    menu.exec(globalPos);
}

void ResultsTables::setColumnChoice(QTableView *view, int column, std::optional<bool> shown)
{
    Table *table = tableOf(view);
    if (!table || column < 0 || column >= RM::ColumnCount)
        return;
    if (shown)
        table->choice.insert(column, *shown);
    else
        table->choice.remove(column);
    layoutColumns(*table);
}

void ResultsTables::saveColumnChoices(QSettings &settings) const
{
    for (const Table *table : {&m_full, &m_runList}) {
        QStringList shown, hidden;
        for (auto it = table->choice.cbegin(); it != table->choice.cend(); ++it)
            (it.value() ? shown : hidden) << RM::columnKey(it.key());
        shown.sort();
        hidden.sort();
        settings.setValue(settingsKey(table->view, "shown"), shown);
        settings.setValue(settingsKey(table->view, "hidden"), hidden);
    }
}

void ResultsTables::restoreColumnChoices(const QSettings &settings)
{
    for (Table *table : {&m_full, &m_runList}) {
        table->choice.clear();
        for (const bool on : {true, false})
            for (const QString &key :
                 settings.value(settingsKey(table->view, on ? "shown" : "hidden")).toStringList())
                if (const int column = RM::columnOfKey(key); column >= 0)
                    table->choice.insert(column, on);
        if (table->view->isVisible())
            layoutColumns(*table);
    }
}

void ResultsTables::fitColumns()
{
    // A whole fit: the next scheduled one fits only what changed after it. (Left due after a
    // session opened, the first run of a ladder fitted a 10,000-run session whole: 18 ms.)
    m_wholeFitDue = false;
    ++m_wholeFits;
    m_uniform.clear();
    m_changedRows.clear();
    m_changedColumns.clear();
    for (Table *table : {&m_full, &m_runList}) {
        QTableView *view = table->view;
        // A hidden table reads 200 rows a column to fit (Qt reads the rows on screen of a shown
        // one): in a 10,000-run session that was a tenth of the window's time while runs arrived.
        const bool hidden = view->window()->isVisible() && !view->isVisible();
        view->setProperty("fitWhenShown", hidden);
        if (hidden)
            continue;
        measure(*table);
        layoutColumns(*table);
    }
}

void ResultsTables::scheduleFit()
{
    if (m_fitQueued)
        return;
    m_fitQueued = true;
    inALaterTurn(this, [this] {
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
        // A new row with another value makes its column worth a place (in either table).
        const QModelIndex first = m_model->index(0, 0);
        for (const QPersistentModelIndex &row : std::as_const(rows))
            if (row.isValid() && first.isValid())
                for (auto it = m_uniform.begin(); it != m_uniform.end(); ++it)
                    if (it.value() &&
                        row.sibling(row.row(), it.key()).data() != first.sibling(0, it.key()).data())
                        it.value() = false;
        for (Table *table : {&m_full, &m_runList}) {
            QTableView *view = table->view;
            if (!view->isVisible()) {
                view->setProperty("fitWhenShown", true);
                continue;
            }
            for (int column = 0; column < RM::ColumnCount; ++column) {
                int cells = table->cellWidth[column];
                if (cells == kNotMeasured)
                    continue; // measured whole if it is ever chosen
                if (columns.contains(column))
                    cells = static_cast<QAbstractItemView *>(view)->sizeHintForColumn(column);
                // As QTableView::sizeHintForColumn measures a cell: its hint and the grid line.
                const int grid = view->showGrid() ? 1 : 0;
                for (const QPersistentModelIndex &row : std::as_const(rows))
                    if (row.isValid())
                        cells = std::max(
                            cells, view->sizeHintForIndex(row.sibling(row.row(), column)).width() + grid);
                table->cellWidth[column] = cells;
            }
            table->uniform.removeIf([this](int column) { return !m_uniform.value(column, true); });
            layoutColumns(*table);
        }
    });
}

void ResultsTables::showRow(int row)
{
    for (QTableView *table : {m_full.view, m_runList.view}) {
        const QModelIndex index = table->model()->index(row, 0);
        if (table->currentIndex().row() != row) {
            table->setCurrentIndex(index);
            table->scrollTo(index);
        }
    }
}

} // namespace gemmscope
