// What a running job may do besides its work: send events tagged with its id, report throttled
// progress, and notice that it was cancelled (checked between repetitions and phases).
#pragma once

#include "event_sink.h"

#include <QElapsedTimer>
#include <QString>
#include <atomic>

namespace gemmscope::runner {

class JobContext {
public:
    JobContext(EventSink &sink, QString id, const std::atomic<bool> *cancelled = nullptr);

    const QString &id() const { return m_id; }
    void send(QJsonObject event); // adds "id"
    // At most ~10 progress events a second; the last step of a phase is always sent.
    void progress(const QString &phase, long long done, long long total, const QJsonObject &extra = {});
    // Throws RunnerError(cancelled) when a `cancel` request named this job.
    void checkCancelled() const;

private:
    EventSink &m_sink;
    QString m_id;
    const std::atomic<bool> *m_cancelled;
    QElapsedTimer m_sinceProgress;
};

QJsonObject errorEvent(const QString &id, const class RunnerError &error);

} // namespace gemmscope::runner
