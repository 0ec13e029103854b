#include "line_buffer.h"

#include <algorithm>

namespace gemmscope {

void LineBuffer::append(const QByteArray &bytes)
{
    if (m_overflowed)
        return;
    if (m_start > 0 && m_start >= m_data.size() / 2) { // amortized: each byte moves at most once
        m_data.remove(0, m_start);
        m_scanned -= m_start;
        m_start = 0;
    }
    m_data.append(bytes);
}

std::optional<QByteArray> LineBuffer::takeLine()
{
    if (m_overflowed)
        return std::nullopt;
    const qsizetype from = std::max(m_start, m_scanned);
    const qsizetype newline = m_data.indexOf('\n', from);
    if (newline < 0) {
        m_scanned = m_data.size();
        if (m_data.size() - m_start > m_maxLineBytes) {
            m_overflowed = true;
            m_data.clear();
            m_start = m_scanned = 0;
        }
        return std::nullopt;
    }
    if (newline - m_start > m_maxLineBytes) {
        m_overflowed = true;
        m_data.clear();
        m_start = m_scanned = 0;
        return std::nullopt;
    }
    QByteArray line = m_data.mid(m_start, newline - m_start);
    m_start = newline + 1;
    m_scanned = m_start;
    if (m_start == m_data.size()) {
        m_data.resize(0); // keeps the capacity for the next lines
        m_start = m_scanned = 0;
    }
    return line;
}

QByteArray LineBuffer::takeRest()
{
    QByteArray rest = m_overflowed ? QByteArray() : m_data.mid(m_start);
    clear();
    return rest;
}

void LineBuffer::clear()
{
    m_data.clear();
    m_start = m_scanned = 0;
    m_overflowed = false;
}

} // namespace gemmscope
