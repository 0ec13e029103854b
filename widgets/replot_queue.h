// The charts' queued replots, one chart per turn of the event loop, each on a timer, so that input
// and timers get their turn between two charts' replots. QCustomPlot's own queued replots of the runtime
// chart and the roofline ran back to back in one pass when a run finished: with a 10,000-run session on the
// H200 host, 10-12 ms each, 27 ms of the UI thread at once (2026-12-02).
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QCustomPlot;

namespace gemmscope {

class ReplotQueue : public QObject {
    Q_OBJECT
public:
    static ReplotQueue *instance(); // one per application
    // `plot` replots in a later turn of the event loop (a millisecond on: timers due sooner and the
    // posted events run first), after the plots queued before it, each in a turn of its own; queued
    // twice before its turn, it replots once.
    void add(QCustomPlot *plot);
    qsizetype waiting() const { return m_plots.size(); }

private:
    using QObject::QObject;
    void post();
    void replotNext();
    QList<QPointer<QCustomPlot>> m_plots;
    bool m_posted = false;
};

} // namespace gemmscope
