// The profile's tables as thin item models (sortable through SortRole): the hot source lines or
// SASS instructions (ProfileHotspotModel) and the memory instructions with their verdicts
// (MemoryInstructionsModel). Built from app/core/profile_analysis.h; the views only show them.
#pragma once

#include "profile_analysis.h"

#include <QAbstractTableModel>

namespace gemmscope {

// One row of the hot lines (Source tab) or hot instructions (SASS tab).
struct HotspotRow {
    QString where;  // "final.cuh:41" or "0x0670"
    QString detail; // the SASS text, or the source line's text (trimmed)
    QString file;   // for a jump to the line; empty where none
    int line = 0;
    long long pc = -1; // -1 for a source line
    double samples = 0;
    double share = 0;
    QString reasons; // "shared-memory/MIO queue full 62 %; issuing 10 %"
    int instructions = 0;
    QString tooltip; // plain text: every reason with its share
};

QList<HotspotRow> hotspotRowsOfLines(const QList<LineProfile> &lines);
// `function`: only that function's instructions (empty: all of them, named in `detail`).
QList<HotspotRow> hotspotRowsOfInstructions(const QList<InstructionHeat> &heat, const QString &function = {});

class ProfileHotspotModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Where, Share, Samples, Reasons, Instructions, Detail, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1; // numbers sort as numbers

    explicit ProfileHotspotModel(QObject *parent = nullptr);
    void setRows(const QList<HotspotRow> &rows);
    const QList<HotspotRow> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<HotspotRow> m_rows;
};

// One row per memory instruction; the model's figure beside the measured one where there is one.
struct MemoryRow {
    MemoryInstruction measured;
    std::optional<ModelComparison> model;
};

class MemoryInstructionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The verdict early: it is what a narrow pane must still show. Sectors (global) and wavefronts
    // (shared) share one column, with the unit in the cell: an instruction has one or the other.
    enum Column { Instruction, Line, Verdict, PerRequest, Model, Executions, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int VerdictRole = Qt::UserRole + 2; // MemoryVerdict as int

    explicit MemoryInstructionsModel(QObject *parent = nullptr);
    void setRows(const QList<MemoryRow> &rows);
    const QList<MemoryRow> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The verdict column's short words: "coalesced", "4x sectors", "4-way conflict", ...
    static QString shortVerdict(const MemoryInstruction &m);

private:
    QList<MemoryRow> m_rows;
};

} // namespace gemmscope
