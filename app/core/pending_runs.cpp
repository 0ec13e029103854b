#include "pending_runs.h"

namespace gemmscope {

QStringList PendingRuns::enqueue(const RunRequest &request)
{
    QStringList replaced;
    if (request.tag == kInteractiveTag) {
        for (qsizetype i = m_jobs.size() - 1; i >= 0; --i) {
            if (m_jobs[i].tag == kInteractiveTag) {
                replaced.prepend(m_jobs[i].jobId);
                m_jobs.removeAt(i);
            }
        }
    }
    m_jobs.append(request);
    return replaced;
}

std::optional<RunRequest> PendingRuns::takeNext()
{
    if (m_jobs.isEmpty())
        return std::nullopt;
    return m_jobs.takeFirst();
}

std::optional<RunRequest> PendingRuns::remove(const QString &jobId)
{
    for (qsizetype i = 0; i < m_jobs.size(); ++i)
        if (m_jobs[i].jobId == jobId)
            return m_jobs.takeAt(i);
    return std::nullopt;
}

QList<RunRequest> PendingRuns::takeAll()
{
    return std::exchange(m_jobs, {});
}

bool PendingRuns::contains(const QString &jobId) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [&](const RunRequest &r) { return r.jobId == jobId; });
}

QStringList PendingRuns::jobIds() const
{
    QStringList ids;
    for (const RunRequest &r : m_jobs)
        ids << r.jobId;
    return ids;
}

} // namespace gemmscope

namespace gemmscope {

void PendingRuns::requeueFront(const QList<RunRequest> &requests)
{
    m_jobs = requests + m_jobs;
}

} // namespace gemmscope
