// The results table's view of ResultsModel: sorting and filtering (QSortFilterProxyModel) plus the
// colour of failed runs, which belongs to the widgets layer, not to the QtCore model.
#pragma once

#include <QSortFilterProxyModel>

namespace gemmscope {

class ResultsTableProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
};

} // namespace gemmscope
