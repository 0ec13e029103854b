#include "replot_queue.h"

#include <QCoreApplication>
#include <QTimer>
#include <qcustomplot.h>

namespace gemmscope {

ReplotQueue *ReplotQueue::instance()
{
    static QPointer<ReplotQueue> queue;
    if (!queue)
        queue = new ReplotQueue(QCoreApplication::instance());
    return queue;
}

void ReplotQueue::add(QCustomPlot *plot)
{
    if (!m_plots.contains(plot))
        m_plots << plot;
    post();
}

void ReplotQueue::post()
{
    if (m_posted || m_plots.isEmpty())
        return;
    m_posted = true;
    // A timer, not a posted event: Qt delivers posted events that post more (a finished run's
    // result, the runtime chart settling, the table fitting, each replot) back to back, and
    // timers — animations, the stall meter — wait until the chain ends: 20-40 ms of posted work
    // when a run finished in a 10,000-run session (2026-12-02). A timer due in a millisecond
    // lets the timers due before it (and input) run first, between two charts' replots too.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &ReplotQueue::replotNext);
}

void ReplotQueue::replotNext()
{
    m_posted = false;
    while (!m_plots.isEmpty())
        if (const QPointer<QCustomPlot> plot = m_plots.takeFirst()) {
            plot->replot();
            break;
        }
    post();
}

} // namespace gemmscope
