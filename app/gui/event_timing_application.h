// A QApplication that can note which events keep the UI thread busy: every event the thread took
// longer than a threshold to handle, by receiver class, object name and event type, with its wall
// time, the thread's CPU time in it (on a shared machine the wall time includes other processes'
// turns) and when it began. Where a stall that UiStallMeter sees comes from; used by
// `gemmscope --measure-ui-stall` and the window-refresh benchmark. Off, it costs one branch per event.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QList>
#include <QString>

namespace gemmscope {

struct SlowEvent {
    QString what;    // "QCustomPlot runtimePlot MetaCall"
    double atMs = 0; // since noting began
    double wallMs = 0, cpuMs = 0;
};

class EventTimingApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override;

    // Starts noting events slower than `thresholdMs` (forgetting earlier ones); stopNoting() ends it.
    void startNoting(double thresholdMs);
    void stopNoting() { m_noting = false; }
    // One line per event, slowest first, at most `limit`:
    // "  at 412.3 ms: 31.9 ms (31.9 ms CPU) gemmscope::ResultsTables  MetaCall".
    QString report(int limit = 20) const { return report(limit, m_thresholdMs, 0, -1); }
    // The events over `minMs` that began between `fromMs` and `toMs` (to < 0: any time), in the
    // order they ran: what filled one stall.
    QString reportBetween(double fromMs, double toMs, double minMs) const
    {
        return report(-1, minMs, fromMs, toMs);
    }

private:
    QString report(int limit, double minMs, double fromMs, double toMs) const;
    int m_depth = 0; // nested notify calls (an event loop inside an event) are counted in the outer one
    bool m_noting = false;
    double m_thresholdMs = 0;
    QElapsedTimer m_since;
    QList<SlowEvent> m_slow;
};

} // namespace gemmscope
