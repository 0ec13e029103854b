// The runtime chart's rows in ladder order, free of QCustomPlot (the marks models read them).
#pragma once

#include "runtime_series.h"

#include <QHash>
#include <QList>
#include <QString>

namespace gemmscope {

// The runtime view's rows in ladder order. The slots stay where they were stored and the rows
// index them: inserting a row among 10,000 moved 10,000 run records, half a millisecond a run.
class RuntimeSlotRows {
public:
    qsizetype size() const { return m_rows.size(); }
    const RuntimeSlot &operator[](qsizetype row) const { return m_store[m_rows[row]]; }
    RuntimeSlot &operator[](qsizetype row) { return m_store[m_rows[row]]; } // the run keeps its id
    qsizetype rowOf(const QString &runId) const;                            // -1 where the run has no row
    void insert(qsizetype row, RuntimeSlot slot);
    void removeAt(qsizetype row);
    void clear();
    void assign(QList<RuntimeSlot> ladder); // in ladder order
    QList<RuntimeSlot> toList() const;
    // Points each slot at its run in `runs` again, after the list changed: a run left at
    // `removedAt` (-1: none left), so that those after it are one place earlier. The removed
    // run's own slot points nowhere until removeAt.
    void follow(const QList<RunRecord> &runs, qsizetype removedAt = -1);

private:
    QList<RuntimeSlot> m_store;
    QList<qsizetype> m_rows; // row -> index in m_store
    // Run id -> index in m_store, which new rows do not move: a run's progress finds its row
    // without comparing 10,000 ids (a few ms for each update in a sweep-sized session).
    QHash<QString, qsizetype> m_storeOf;
};

} // namespace gemmscope
