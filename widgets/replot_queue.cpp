#include "replot_queue.h"

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
    // Queued: an event posted while the event loop delivers posted events waits for its next pass.
    QMetaObject::invokeMethod(this, &ReplotQueue::replotNext, Qt::QueuedConnection);
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
