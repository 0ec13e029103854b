#include "profile_hotspot_table.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>

namespace gemmscope {

ProfileHotspotTable::ProfileHotspotTable(QWidget *parent)
    : QTableView(parent), m_model(new ProfileHotspotModel(this)), m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("profileHotspotTable"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProfileHotspotModel::SortRole);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(ProfileHotspotModel::Share, Qt::DescendingOrder);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setAlternatingRowColors(true);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    setToolTip(tr("Click a column header to sort (hottest first by default); click a row to show it"));
    const auto activate = [this](const QModelIndex &index) {
        if (const HotspotRow *row = rowAt(index.row()))
            emit rowActivated(*row);
    };
    connect(this, &QTableView::clicked, this, activate);
    connect(this, &QTableView::activated, this, activate);
}

void ProfileHotspotTable::setRows(const QList<HotspotRow> &rows)
{
    m_model->setRows(rows);
    sortByColumn(ProfileHotspotModel::Share, Qt::DescendingOrder);
    const QFontMetrics fm = fontMetrics();
    resizeColumnToContents(ProfileHotspotModel::Where); // "0x0670" or "cooperative_load.cuh:18"
    setColumnWidth(ProfileHotspotModel::Share, fm.horizontalAdvance(QStringLiteral("100.0 %  ")));
    setColumnWidth(ProfileHotspotModel::Samples, fm.horizontalAdvance(QStringLiteral("1,000,000,0")));
    setColumnWidth(ProfileHotspotModel::Reasons, fm.horizontalAdvance(QLatin1Char('x')) * 46);
    setColumnWidth(ProfileHotspotModel::Instructions, fm.horizontalAdvance(QStringLiteral("Instr.  ")));
}

int ProfileHotspotTable::rowCount() const
{
    return m_proxy->rowCount();
}

const HotspotRow *ProfileHotspotTable::rowAt(int viewRow) const
{
    if (viewRow < 0 || viewRow >= m_proxy->rowCount())
        return nullptr;
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(viewRow, 0));
    return source.isValid() ? &m_model->rows()[source.row()] : nullptr;
}

} // namespace gemmscope
