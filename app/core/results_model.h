// The session's runs as a table. Thin: every cell is computed from the RunRecord on demand;
// SortRole gives numbers for QSortFilterProxyModel, RunIdRole ties rows to the shared selection.
#pragma once

#include "session.h"
#include "trust_mark.h"

#include <QAbstractTableModel>
#include <QHash>

namespace gemmscope {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StageColumn,
        ParametersColumn,
        SizeColumn,
        MedianColumn, // "30.10 ms (30.00–30.30)"
        TflopsColumn,
        PercentOfCublasColumn,
        ClockColumn, // the SM clock measured while timing: "1980 MHz", "1605-1980 MHz"
        TrustColumn, // "steady", "throttled", "noisy", "unknown", "published" (tooltip: why)
        RelErrorColumn,
        RegistersColumn,
        SmemColumn,
        OccupancyColumn,
        GpuColumn,
        OriginColumn,
        TimeColumn,
        StatusColumn, // "ok", or the failure's kind and sentence
        ColumnCount
    };
    enum Role { RunIdRole = Qt::UserRole + 1, SortRole, IsFailedRole };

    explicit ResultsModel(Session *session, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int rowOf(const QString &runId) const { return m_session->indexOf(runId); }
    // The cuBLAS FP32 run `record` is compared with: same size, origin and GPU, nearest in time.
    const RunRecord *cublasReference(const RunRecord &record) const;
    std::optional<double> percentOfCublas(const RunRecord &record) const;

    // The table as CSV (every column, display text) and the runs as JSON.
    QByteArray toCsv() const;

private:
    QVariant display(const RunRecord &r, int column) const;
    QVariant sortValue(const RunRecord &r, int column) const;
    Session *m_session;
    // cuBLAS FP32 runs by size, origin and GPU (rows of the session), built when first needed
    // after a change: looking the reference up by scanning every run made sorting or sizing a
    // 50,000-run table quadratic.
    mutable QHash<QString, QList<qsizetype>> m_cublasRows;
    mutable bool m_cublasRowsValid = false;
};

} // namespace gemmscope
