// The results as tables: the Ladder's, with every column, and the Counters workspace's run list,
// with the columns that tell runs apart. Both are views of one sorted model and follow the shared
// selection; a row chosen in either selects its run everywhere. Numbers are never cut: columns
// are as wide as their contents and the table scrolls sideways instead.
#pragma once

#include <QObject>

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
    void scheduleFit();    // fitColumns() once the event loop turns: one fit for a burst of new runs
    void showRow(int row); // the selected run's row, made current and scrolled to in both

private:
    bool eventFilter(QObject *watched, QEvent *event) override;

    QTableView *m_full;
    QTableView *m_runList;
    bool m_fitQueued = false;
};

} // namespace gemmscope
