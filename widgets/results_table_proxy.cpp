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
    followSourceRows(source);
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

void ResultsTableProxy::followSourceRows(QAbstractItemModel *source)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_sourceConnections))
        disconnect(connection);
    m_sourceConnections.clear();
    m_rowRanks.clear();
    auto *results = qobject_cast<ResultsModel *>(source);
    if (!results)
        return;
    const auto forget = [this] { m_rowRanks.clear(); };
    m_sourceConnections = {
        connect(results, &QAbstractItemModel::modelAboutToBeReset, this, forget),
        connect(results, &QAbstractItemModel::layoutAboutToBeChanged, this, forget),
        connect(results, &QAbstractItemModel::rowsInserted, this,
                [this, results](const QModelIndex &, int first, int last) {
                    if (m_rowRanks.empty())
                        return;
                    std::vector<std::pair<int, int>> added;
                    for (int row = first; row <= last; ++row)
                        added.push_back(rankOf(results->runAt(row)));
                    m_rowRanks.insert(m_rowRanks.begin() + first, added.cbegin(), added.cend());
                }),
        connect(results, &QAbstractItemModel::rowsRemoved, this,
                [this](const QModelIndex &, int first, int last) {
                    if (!m_rowRanks.empty())
                        m_rowRanks.erase(m_rowRanks.begin() + first, m_rowRanks.begin() + last + 1);
                }),
        connect(results, &QAbstractItemModel::dataChanged, this,
                [this, results](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                    // A run's rank follows its code (its stage and preset); a cuBLAS run's new
                    // time changes the other rows' % of cuBLAS only.
                    if (m_rowRanks.empty() || topLeft.column() > ResultsModel::CodeColumn ||
                        bottomRight.column() < ResultsModel::CodeColumn)
                        return;
                    for (int row = topLeft.row(); row <= bottomRight.row(); ++row)
                        m_rowRanks[size_t(row)] = rankOf(results->runAt(row));
                }),
    };
}

std::pair<int, int> ResultsTableProxy::rowRank(int row) const
{
    const auto *results = static_cast<const ResultsModel *>(sourceModel());
    if (m_rowRanks.size() != size_t(results->rowCount())) {
        m_rowRanks.clear();
        m_rowRanks.reserve(size_t(results->rowCount()));
        for (int i = 0; i < results->rowCount(); ++i)
            m_rowRanks.push_back(rankOf(results->runAt(i)));
    }
    return m_rowRanks[size_t(row)];
}

bool ResultsTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto *results = qobject_cast<const ResultsModel *>(sourceModel());
    if (results && left.column() == ResultsModel::CodeColumn && right.column() == ResultsModel::CodeColumn)
        // Runs of one rank keep the session's (time) order: the sort is stable.
        return rowRank(left.row()) < rowRank(right.row());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace gemmscope
