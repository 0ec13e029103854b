// The session's runs as a table. Thin: every cell is computed from the RunRecord on demand;
// SortRole gives numbers for QSortFilterProxyModel, RunIdRole ties rows to the shared selection.
#pragma once

#include "cublas_index.h"
#include "session.h"
#include "trust_mark.h"

#include <QAbstractTableModel>
#include <QHash>
#include <functional>

namespace gemmscope {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // In the order the tables show them: what names the run, its time and whether it can be
    // compared, the numbers, then what is often the same on every row (size, GPU, origin).
    enum Column {
        CodeColumn, // the charts' name of the run: "0", "G32+1", "+vec4", "cuBLAS" (setRunCode)
        StageColumn,
        ParametersColumn,
        MedianColumn, // "30.100 ms", "956.410 ms (published)"
        SpreadColumn, // the p20–p80 range: "30.000–30.300"; its own column, to give way at 1280x800
        TrustColumn,  // "steady", "throttled", "noisy", "not recorded", "published" (tooltip: why)
        TflopsColumn,
        PercentOfCublasColumn,
        PercentOfCublasTf32Column, // tensor-core stages against cuBLAS TF32; empty for FP32 stages
        RegistersColumn,
        SmemColumn,
        OccupancyColumn,
        RelErrorColumn, // "0" (verified, identical), "6.9e-04", "—" (not verified)
        ClockColumn,    // the SM clock measured while timing: "1980 MHz", "1605-1980 MHz", "—"
        SizeColumn,     // "4096³", "8192x4096x6144" (squareOrFullSizeText)
        OriginColumn,
        GpuColumn,
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
    // Whether `column` shows the same text on every row. Rows whose records agree on what the
    // column shows (the size, the GPU, the origin, a status other than failed) are not formatted:
    // formatting every row of a 100,000-run session's uniform columns was a tenth of showing it.
    bool sameOnEveryRow(int column) const;
    const RunRecord &runAt(int row) const { return m_session->runs().at(row); }
    // A column's name for settings: stable across versions that add or move columns ("median").
    static QString columnKey(int column);
    static int columnOfKey(const QString &key); // -1 for an unknown key
    static bool isNumberColumn(int column);     // right-aligned, title and cells

    // How the charts name a run ("0", "G32+1", "+vec4*"): the mapping lives with the charts
    // (widgets layer, shortRunLabel), which hand it down so that a chart's point and its row carry
    // one name. Without it the code column is empty.
    using RunCode = std::function<QString(const RunRecord &)>;
    void setRunCode(RunCode code);
    QString codeOf(const RunRecord &record) const { return m_runCode ? m_runCode(record) : QString(); }
    // The cuBLAS run `record` is compared with (FP32, or TF32 for the tensor-core stages): same
    // size, origin, GPU and regime, nearest in time.
    const RunRecord *cublasReference(const RunRecord &record, StageId baseline = StageId::CublasFp32) const;
    std::optional<double> percentOfCublas(const RunRecord &record) const;
    // Only for the stages that compute in TF32 (tensor cores, cuBLAS TF32): an FP32 kernel against
    // tensor cores is not the comparison the ladder makes.
    std::optional<double> percentOfCublasTf32(const RunRecord &record) const;

private:
    QVariant display(const RunRecord &r, int column) const;
    // True only where `a` and `b` are sure to show the same text in `column` (false: format both).
    static bool showTheSame(const RunRecord &a, const RunRecord &b, int column);
    QVariant sortValue(const RunRecord &r, int column) const;
    QVariant toolTip(const RunRecord &r, int column) const; // an Ok or queued run's cell
    Session *m_session;
    RunCode m_runCode;
    CublasIndex m_cublas; // the session's cuBLAS runs, rebuilt at the first look-up after a change
};

} // namespace gemmscope
