// The hot source lines (Source tab) or SASS instructions (SASS tab) of a profile as a sortable
// table, hottest first; a click asks the view to show that line.
#pragma once

#include "profile_tables.h"

#include <QTableView>

class QSortFilterProxyModel;

namespace gemmscope {

class ProfileHotspotTable : public QTableView {
    Q_OBJECT

public:
    explicit ProfileHotspotTable(QWidget *parent = nullptr);

    void setRows(const QList<HotspotRow> &rows); // sorted hottest first again
    int rowCount() const;
    const HotspotRow *rowAt(int viewRow) const; // in the order shown; nullptr outside
    ProfileHotspotModel *sourceModel() const { return m_model; }

signals:
    void rowActivated(const gemmscope::HotspotRow &row);

private:
    ProfileHotspotModel *m_model;
    QSortFilterProxyModel *m_proxy;
};

} // namespace gemmscope
