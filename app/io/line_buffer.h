// Splits a byte stream into lines in linear time, with a cap on one line's length. Each byte is
// scanned for '\n' once, and the consumed front is dropped only when it is at least half of the
// buffer, so neither a 60 MB line arriving in 4 KB pieces nor thousands of short lines in one
// piece cost quadratic time. A line longer than the cap makes the stream unusable (overflowed()):
// the reader must stop trusting it (RunnerClient restarts the runner).
#pragma once

#include <QByteArray>
#include <optional>

namespace gemmscope {

class LineBuffer {
public:
    explicit LineBuffer(qsizetype maxLineBytes) : m_maxLineBytes(maxLineBytes) {}

    void append(const QByteArray &bytes);
    // The next complete line, without its '\n' (trailing '\r' kept), or nothing yet.
    std::optional<QByteArray> takeLine();
    // A line (complete or not) exceeded the cap; nothing more is returned until clear().
    bool overflowed() const { return m_overflowed; }
    qsizetype pendingBytes() const { return m_data.size() - m_start; }
    // The unterminated rest, e.g. what a process wrote before it ended (empty after overflow).
    QByteArray takeRest();
    void clear();
    qsizetype maxLineBytes() const { return m_maxLineBytes; }

private:
    QByteArray m_data;
    qsizetype m_start = 0;   // first byte not yet returned
    qsizetype m_scanned = 0; // bytes before this hold no '\n' of the pending line
    qsizetype m_maxLineBytes;
    bool m_overflowed = false;
};

} // namespace gemmscope
