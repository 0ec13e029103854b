// The runner's queue of jobs: filled by the stdin reader thread, drained in arrival order by the
// worker thread that owns the CUDA context. `cancel` reaches a queued job (removed) or the
// running one (a flag the job checks between repetitions and phases). The requests waiting in it
// hold at most kMaxQueuedRequestBytes (their lines' sizes): a client that writes faster than the
// GPU runs cannot make the runner hold gigabytes.
#pragma once

#include <QJsonObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace gemmscope::runner {

inline constexpr qint64 kMaxQueuedRequestBytes = 64LL * 1024 * 1024;

struct QueuedJob {
    QString id;
    QJsonObject request;
    qint64 requestBytes = 0; // the size of its request line
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
};

class JobQueue {
public:
    // Whether a request of `bytes` fits beside those waiting (one always fits an empty queue).
    bool hasRoomFor(qint64 bytes) const;
    qint64 queuedBytes() const;
    void push(QueuedJob job);
    // Blocks until a job arrives (it becomes the running job) or the queue is closed and empty.
    std::optional<QueuedJob> takeNext();
    void finishRunning();

    enum class CancelOutcome { RemovedQueued, FlaggedRunning, NotFound };
    // A removed job is handed back in `removed` so the caller can answer for it.
    CancelOutcome cancel(const QString &id, QueuedJob *removed);
    // No more jobs will arrive. Returns the jobs still queued when `dropQueued` (quit), which are
    // removed; with EOF (`dropQueued` false) the worker still runs them.
    std::vector<QueuedJob> close(bool dropQueued);

private:
    mutable std::mutex m_mutex;
    qint64 m_queuedBytes = 0;
    std::condition_variable m_changed;
    std::deque<QueuedJob> m_queued;
    std::optional<QueuedJob> m_running;
    bool m_closed = false;
};

} // namespace gemmscope::runner
