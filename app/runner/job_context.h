// What a running job may do besides its work: send events tagged with its id, report throttled
// progress, and notice that it was cancelled (checked between repetitions and phases).
#pragma once

#include "event_sink.h"
#include "values.h"

#include <QElapsedTimer>
#include <QString>
#include <atomic>
#include <optional>

namespace gemmscope::runner {

class JobContext {
public:
    JobContext(EventSink &sink, QString id, const std::atomic<bool> *cancelled = nullptr);

    const QString &id() const { return m_id; }
    void send(QJsonObject event); // adds "id"
    // At most ~10 progress events a second; the last step of a phase is always sent. A timing
    // phase may carry the median of the repetitions so far.
    void progress(protocol::ProgressPhase phase, long long done, long long total,
                  std::optional<double> preliminaryMedianMs = std::nullopt);
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
