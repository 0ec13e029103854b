// Work put off to a later turn of the event loop as a timer due in a millisecond, not as a posted
// event. Qt delivers posted events that post more back to back in one pass (a finished run's
// result, the runtime chart settling, the table fitting, each replot), and timers — animations,
// input repeats, the stall meter — wait until the chain ends: 20-40 ms of the UI thread when a run
// finished in a 10,000-run session (2026-12-02). A timer lets the timers due before it run first.
#pragma once

#include <QObject>
#include <QTimer>
#include <utility>

namespace gemmscope {

template <typename Work> void inALaterTurn(const QObject *context, Work &&work)
{
    QTimer::singleShot(1, Qt::PreciseTimer, context, std::forward<Work>(work));
}

} // namespace gemmscope
