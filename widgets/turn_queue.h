// Work put off to later turns of the event loop — the charts' replots, the runtime chart's settling,
// the results table's fitting — run one piece per turn, in the order queued, each turn armed as a
// timer a millisecond after the piece before it ended. Timers that came due meanwhile (an
// animation's frame, an input repeat, the stall meter) and input therefore run between two pieces.
// As posted events, or as timers all armed when a run finished, one finished run's pieces (10-20 ms
// together in a 10,000-run session on the H200 host) ran back to back in one pass.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class QCustomPlot;

namespace gemmscope {

class TurnQueue : public QObject {
    Q_OBJECT
public:
    static TurnQueue *instance(); // one per application
    // `work` runs in a later turn, after the pieces queued before it; never if `owner` is gone by then.
    void add(const QObject *owner, std::function<void()> work);
    // `plot` replots in a later turn; asked again before its turn, it replots once.
    void addReplot(QCustomPlot *plot);
    qsizetype waiting() const { return m_pieces.size(); }

private:
    using QObject::QObject;
    struct Piece {
        QPointer<const QObject> owner;
        const QCustomPlot *replot = nullptr; // set for a replot: the key that makes it once
        std::function<void()> work;
    };
    void arm();
    void runNext();
    QList<Piece> m_pieces;
    bool m_armed = false;
};

// Shorthand: `work` in a later turn of the event loop, after the pieces queued before it.
inline void inALaterTurn(const QObject *owner, std::function<void()> work)
{
    TurnQueue::instance()->add(owner, std::move(work));
}

} // namespace gemmscope
