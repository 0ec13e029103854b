#include "turn_queue.h"

#include <QCoreApplication>
#include <QTimer>
#include <algorithm>
#include <qcustomplot.h>

namespace gemmscope {

TurnQueue *TurnQueue::instance()
{
    static QPointer<TurnQueue> queue;
    if (!queue)
        queue = new TurnQueue(QCoreApplication::instance());
    return queue;
}

void TurnQueue::add(const QObject *owner, std::function<void()> work)
{
    m_pieces.append({owner, nullptr, std::move(work)});
    arm();
}

void TurnQueue::addReplot(QCustomPlot *plot)
{
    // A waiting replot of this plot, still alive (a plot deleted meanwhile may leave its address to
    // a new one, whose replot must not be taken for the old one's).
    if (std::none_of(m_pieces.cbegin(), m_pieces.cend(),
                     [plot](const Piece &p) { return p.replot == plot && p.owner; }))
        m_pieces.append({plot, plot, [plot] { plot->replot(); }});
    arm();
}

void TurnQueue::arm()
{
    if (m_armed || m_pieces.isEmpty())
        return;
    m_armed = true;
    // A timer, armed only now (after the piece before ended): every timer that came due meanwhile
    // is due sooner, and Qt runs timers in the order they are due.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &TurnQueue::runNext);
}

void TurnQueue::runNext()
{
    m_armed = false;
    while (!m_pieces.isEmpty()) {
        const Piece piece = m_pieces.takeFirst();
        if (piece.owner) {
            piece.work();
            break;
        }
    }
    arm();
}

} // namespace gemmscope
