// The results as tables: the Ladder's, with every column, and the Counters workspace's run list,
// with the columns that tell runs apart. Both are views of one sorted model and follow the shared
// selection; a row chosen in either selects its run everywhere.
//
// Columns fit the table's width instead of scrolling sideways: the columns a reader needs (the
// charts' code, the time and its trust, the numbers) are always as wide as their contents; the
// stage name and the parameters give way (cut at their end, whole in the tooltip); the optional
// columns are shown where there is room, in a fixed order of priority up to the first that does
// not fit (a wider window shows more of the same ones), and one whose value is the same on every
// row is hidden at any width, its value said once on the header's own row above the titles ("All
// runs: Size 4096³; GPU NVIDIA H200."). A column is never hidden without the header saying so: a
// button at that row's right end counts the hidden columns ("3 columns hidden") and opens the same
// menu as a right click on the header, where the user shows or hides any column (remembered).
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPersistentModelIndex>
#include <QSet>
#include <optional>

class QAbstractItemModel;
class QSettings;
class QTableView;
class QToolButton;

namespace gemmscope {

class RunSelection;

class ResultsTables : public QObject {
    Q_OBJECT
public:
    ResultsTables(QAbstractItemModel *sortedModel, RunSelection *selection, QObject *parent = nullptr);

    QTableView *full() const { return m_full.view; }
    QTableView *runList() const { return m_runList.view; }

    void fitColumns();
    int wholeFitCount() const { return m_wholeFits; } // fitColumns() so far: each reads every row
    // Once the event loop turns: the columns widened where the rows that came or changed since need
    // it (fitColumns() after a reset or a burst of rows).
    void scheduleFit();
    void showRow(int row); // the selected run's row, made current and scrolled to in both

    // The columns the user showed or hid from the header's menu, by the model's column keys.
    void saveColumnChoices(QSettings &settings) const;
    void restoreColumnChoices(const QSettings &settings);
    // The user's choice for `column` of `table`: shown (true), hidden (false) or left to the width.
    void setColumnChoice(QTableView *table, int column, std::optional<bool> shown);
    // The columns `table` hides now, by the user or for want of width, and the header's count of
    // them ("3 columns hidden ▾"; empty when none is hidden).
    QList<int> hiddenColumns(const QTableView *table) const;
    QString hiddenColumnsText(const QTableView *table) const;
    static QString columnsHiddenText(int count);
    // The values of the hidden columns that are the same on every row, said once ("All runs: Size
    // 4096³; GPU NVIDIA H200."): the header's tooltip. Empty where there are none.
    QString commonValuesText(const QTableView *table) const;

private:
    struct Table {
        QTableView *view = nullptr;
        QToolButton *columnsButton = nullptr; // above the titles' right end: "3 columns hidden", the menu
        QList<int> essential;                 // always shown unless the user hides them
        QList<int> optional;                  // shown where there is room, in this order
        QHash<int, bool> choice;              // the user's: shown or hidden
        int textFirst = -1;                   // the text column that grows to whole first
        QList<int> cellWidth;                 // each column's width for its cells (or kNotMeasured)
        QSet<int> uniform;                    // columns with one value on every row
        bool userWidths = false;              // the user dragged a column: widths stay theirs
        bool applying = false;                // our own resizes, not the user's
        bool layoutQueued = false;
    };

    bool eventFilter(QObject *watched, QEvent *event) override;
    Table *tableOf(const QTableView *view);
    const Table *tableOf(const QTableView *view) const;
    void setUp(Table &table);
    void measure(Table &table); // needed widths and uniform columns, over the rows
    static bool mayShow(const Table &table, int column);
    int measureColumn(const Table &table, int column) const;
    static constexpr int kNotMeasured = -1; // a cellWidth of a column the table cannot show yet
    void layoutColumns(Table &table);
    void sizeShownColumns(Table &table, const QList<int> &shown, int whole, int fixed);
    void describeHiddenColumns(Table &table);
    void queueLayout(Table &table);
    void showColumnMenu(Table &table, const QPoint &globalPos);
    void placeColumnsButton(Table &table);
    int textMinimum(const Table &table, int column) const;
    int width(const Table &table, int column) const;      // for its whole cells and title
    int titleWidth(const Table &table, int column) const; // its title alone (with the sort arrow)

    QAbstractItemModel *m_model;
    Table m_full;
    Table m_runList;
    bool m_fitQueued = false;
    bool m_wholeFitDue = false;
    int m_wholeFits = 0;
    QList<QPersistentModelIndex> m_changedRows; // since the last fit, at most 51
    QSet<int> m_changedColumns;                 // changed in (nearly) every row since the last fit
    QHash<int, bool> m_uniform;                 // column: one value on every row (read when needed)
};

} // namespace gemmscope
