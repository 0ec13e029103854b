#include "replot_queue.h"

#include "later_turn.h"

#include <QCoreApplication>
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
    inALaterTurn(this, [this] { replotNext(); }); // timers due sooner and input first
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
