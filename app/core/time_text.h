// A time as the window shows it (a run's, a sweep's): "2026-12-06 23:21:05 UTC". One zone, said:
// a bare "23:21" read as the reader's own clock, and the session files and the sweep lines already
// keep and print UTC, whatever the machine that shows them.
#pragma once

#include <QDateTime>
#include <QString>

namespace gemmscope {

inline QString timeText(const QDateTime &time)
{
    return time.isValid()
               ? time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QStringLiteral(" UTC")
               : QString();
}

} // namespace gemmscope
