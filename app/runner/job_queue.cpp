#include "job_queue.h"

namespace gemmscope::runner {

bool JobQueue::hasRoomFor(qint64 bytes) const
{
    std::lock_guard lock(m_mutex);
    return m_queued.empty() || m_queuedBytes + bytes <= kMaxQueuedRequestBytes;
}

qint64 JobQueue::queuedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_queuedBytes;
}

void JobQueue::push(QueuedJob job)
{
    {
        std::lock_guard lock(m_mutex);
        m_queuedBytes += job.requestBytes;
        m_queued.push_back(std::move(job));
    }
    m_changed.notify_one();
}

std::optional<QueuedJob> JobQueue::takeNext()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_queued.empty() || m_closed; });
    if (m_queued.empty())
        return std::nullopt;
    m_running = std::move(m_queued.front());
    m_queued.pop_front();
    m_queuedBytes -= m_running->requestBytes;
    return m_running;
}

void JobQueue::finishRunning()
{
    std::lock_guard lock(m_mutex);
    m_running.reset();
}

JobQueue::CancelOutcome JobQueue::cancel(const QString &id, QueuedJob *removed)
{
    std::lock_guard lock(m_mutex);
    if (m_running && m_running->id == id) {
        m_running->cancelled->store(true);
        return CancelOutcome::FlaggedRunning;
    }
    for (auto it = m_queued.begin(); it != m_queued.end(); ++it)
        if (it->id == id) {
            m_queuedBytes -= it->requestBytes;
            if (removed)
                *removed = std::move(*it);
            m_queued.erase(it);
            return CancelOutcome::RemovedQueued;
        }
    return CancelOutcome::NotFound;
}

std::vector<QueuedJob> JobQueue::close(bool dropQueued)
{
    std::vector<QueuedJob> dropped;
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        if (dropQueued) {
            dropped.assign(std::make_move_iterator(m_queued.begin()),
                           std::make_move_iterator(m_queued.end()));
            m_queued.clear();
            m_queuedBytes = 0;
        }
    }
    m_changed.notify_all();
    return dropped;
}

} // namespace gemmscope::runner
