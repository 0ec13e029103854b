#include "results_table_proxy.h"

#include "results_model.h"

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

} // namespace gemmscope
