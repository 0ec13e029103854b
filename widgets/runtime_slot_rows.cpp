// The runtime view's rows in ladder order.
#include "runtime_slot_rows.h"

#include <numeric>

namespace gemmscope {

qsizetype RuntimeSlotRows::rowOf(const QString &runId) const
{
    const qsizetype at = m_storeOf.value(runId, -1);
    return at < 0 ? -1 : m_rows.indexOf(at); // integers: microseconds for 10,000 rows
}

void RuntimeSlotRows::insert(qsizetype row, RuntimeSlot slot)
{
    m_storeOf.insert(slot.runId, m_store.size());
    m_store.append(std::move(slot));
    m_rows.insert(row, m_store.size() - 1);
}

void RuntimeSlotRows::removeAt(qsizetype row)
{
    m_storeOf.remove(m_store[m_rows[row]].runId);
    m_store[m_rows[row]] = RuntimeSlot{}; // its place stays, empty, until the next rebuild
    m_rows.removeAt(row);
}

void RuntimeSlotRows::clear()
{
    m_store.clear();
    m_rows.clear();
    m_storeOf.clear();
}

void RuntimeSlotRows::assign(QList<RuntimeSlot> ladder)
{
    // Taken over as it is (moving 100,000 slots into another list was a tenth of the chart's
    // rebuild), with room for the runs that arrive (runtimeSlots leaves it).
    m_store = std::move(ladder);
    m_store.reserve(m_store.size() + m_store.size() / 2 + 256);
    m_rows.reserve(m_store.capacity());
    m_rows.resize(m_store.size());
    std::iota(m_rows.begin(), m_rows.end(), 0);
    m_storeOf.clear();
    m_storeOf.reserve(m_store.size());
    for (qsizetype i = 0; i < m_store.size(); ++i)
        if (!m_storeOf.contains(m_store[i].runId)) // the first row, should a file repeat an id
            m_storeOf.insert(m_store[i].runId, i);
}

void RuntimeSlotRows::follow(const QList<RunRecord> &runs, qsizetype removedAt)
{
    for (RuntimeSlot &slot : m_store) {
        if (slot.at < 0)
            continue; // an emptied place, or a slot made without its index
        if (removedAt >= 0 && slot.at == removedAt) {
            slot.run = nullptr;
            slot.at = -1;
            continue;
        }
        if (removedAt >= 0 && slot.at > removedAt)
            --slot.at;
        slot.run = slot.at < runs.size() ? &runs[slot.at] : nullptr;
    }
}

QList<RuntimeSlot> RuntimeSlotRows::toList() const
{
    QList<RuntimeSlot> list;
    list.reserve(m_rows.size());
    for (const qsizetype at : m_rows)
        list << m_store[at];
    return list;
}

} // namespace gemmscope
