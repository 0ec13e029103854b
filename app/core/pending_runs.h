// The RunnerClient's runs not yet sent to the runner (not the runner's own job queue,
// app/runner/job_queue.h), kept apart from the process so that its rules can be tested without
// one: jobs start in arrival order, and a new interactive request replaces the
// interactive requests still waiting (the user moved a slider again before the last run started).
#pragma once

#include "run_request.h"

#include <QList>
#include <QStringList>
#include <optional>

namespace gemmscope {

class PendingRuns {
public:
    // Appends `request`; returns the ids of the queued requests it replaced.
    QStringList enqueue(const RunRequest &request);
    std::optional<RunRequest> takeNext();
    std::optional<RunRequest> remove(const QString &jobId); // the removed request, if it was queued
    QList<RunRequest> takeAll();
    // Puts requests that were sent but never started (their runner ended) back first, in order.
    void requeueFront(const QList<RunRequest> &requests);
    bool contains(const QString &jobId) const;
    qsizetype size() const { return m_jobs.size(); }
    bool isEmpty() const { return m_jobs.isEmpty(); }
    QStringList jobIds() const;

private:
    QList<RunRequest> m_jobs;
};

} // namespace gemmscope
