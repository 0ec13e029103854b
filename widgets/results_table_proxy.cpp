#include "results_table_proxy.h"

#include "results_model.h"
#include "runtime_series.h"

#include <QBrush>
#include <QColor>

namespace gemmscope {

QVariant ResultsTableProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::ForegroundRole) {
        if (index.data(ResultsModel::IsFailedRole).toBool())
            return QBrush(QColor(0xc6, 0x28, 0x28)); // failed runs in red, every column
        return {};
    }
    return QSortFilterProxyModel::data(index, role);
}

void ResultsTableProxy::setSourceModel(QAbstractItemModel *source)
{
    if (auto *results = qobject_cast<ResultsModel *>(source))
        results->setRunCode(&shortRunLabel); // the charts' own names: one mapping, not two
    QSortFilterProxyModel::setSourceModel(source);
}

void ResultsTableProxy::sort(int column, Qt::SortOrder order)
{
    m_ladderOrder = column < 0;
    if (m_ladderOrder)
        QSortFilterProxyModel::sort(ResultsModel::CodeColumn, Qt::AscendingOrder);
    else
        QSortFilterProxyModel::sort(column, order);
}

std::pair<int, int> ResultsTableProxy::rankOf(const RunRecord &run) const
{
    // ladderRank looks the stage and the preset up by name: once per pair of names, not twice per
    // comparison (sorting a 10,000-run session makes some 130,000). Found by the preset's key and
    // then the stage's, with no string built per comparison.
    QList<std::pair<std::string, std::pair<int, int>>> &byStage = m_ranks[run.presetKey];
    const std::string_view stage = run.stage.key();
    for (const auto &[key, rank] : std::as_const(byStage))
        if (key == stage)
            return rank;
    byStage.append({std::string(stage), ladderRank(run)});
    return byStage.last().second;
}

bool ResultsTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto *results = qobject_cast<const ResultsModel *>(sourceModel());
    if (results && left.column() == ResultsModel::CodeColumn && right.column() == ResultsModel::CodeColumn)
        // Runs of one rank keep the session's (time) order: the sort is stable.
        return rankOf(results->runAt(left.row())) < rankOf(results->runAt(right.row()));
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace gemmscope
