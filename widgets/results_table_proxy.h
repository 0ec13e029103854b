// The results table's view of ResultsModel: sorting and filtering (QSortFilterProxyModel) plus the
// colour of failed runs, which belongs to the widgets layer, not to the QtCore model. It also hands
// the model the charts' names of runs (shortRunLabel) for its code column, and sorts that column
// in the charts' ladder order (ladderRank): the table and the charts list runs alike.
#pragma once

#include <QHash>
#include <QSortFilterProxyModel>
#include <string>
#include <utility>
#include <vector>

namespace gemmscope {

struct RunRecord;

class ResultsTableProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    void setSourceModel(QAbstractItemModel *source) override;
    // Column -1 (no header chosen, or a header's third click): the ladder's order, as the charts
    // list the runs, without a sort indicator.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    std::pair<int, int> rankOf(const RunRecord &run) const;
    // The rank of the source's row, found once per row: sorting a 100,000-run session makes some
    // 1,700,000 comparisons, and a look-up by name for each took seconds of the UI thread. Kept
    // with the source's rows (connected before the sorting is, so current when it sorts).
    std::pair<int, int> rowRank(int row) const;
    void followSourceRows(QAbstractItemModel *source);

    bool m_ladderOrder = false;
    // By preset key, then stage key (a preset key names one stage but for files that disagree).
    mutable QHash<QString, QList<std::pair<std::string, std::pair<int, int>>>> m_ranks;
    mutable std::vector<std::pair<int, int>> m_rowRanks; // by source row; empty: to be found
    QList<QMetaObject::Connection> m_sourceConnections;
};

} // namespace gemmscope
