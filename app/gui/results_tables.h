// The results as tables: the Ladder's, with every column, and the Counters workspace's run list,
// with the columns that tell runs apart. Both are views of one sorted model and follow the shared
// selection; a row chosen in either selects its run everywhere. Numbers are never cut: columns
// are as wide as their contents and the table scrolls sideways instead.
#pragma once

#include <QList>
#include <QObject>
#include <QPersistentModelIndex>
#include <QSet>

class QAbstractItemModel;
class QTableView;

namespace gemmscope {

class RunSelection;

class ResultsTables : public QObject {
    Q_OBJECT
public:
    ResultsTables(QAbstractItemModel *sortedModel, RunSelection *selection, QObject *parent = nullptr);

    QTableView *full() const { return m_full; }
    QTableView *runList() const { return m_runList; }

    void fitColumns();
    // Once the event loop turns: the columns widened where the rows that came or changed since need
    // it (fitColumns() after a reset or a burst of rows).
    void scheduleFit();
    void showRow(int row); // the selected run's row, made current and scrolled to in both

private:
    bool eventFilter(QObject *watched, QEvent *event) override;

    QTableView *m_full;
    QTableView *m_runList;
    bool m_fitQueued = false;
    bool m_wholeFitDue = false;
    QList<QPersistentModelIndex> m_changedRows; // since the last fit, at most 51
    QSet<int> m_changedColumns;                 // changed in (nearly) every row since the last fit
};

} // namespace gemmscope
