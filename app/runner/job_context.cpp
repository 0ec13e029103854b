#include "job_context.h"

#include "events.h"

#include "runner_error.h"

#include <QJsonValue>
#include <algorithm>
#include <limits>

namespace gemmscope::runner {

namespace {
constexpr qint64 kProgressIntervalMs = 100;
}

JobContext::JobContext(EventSink &sink, QString id, const std::atomic<bool> *cancelled)
    : m_sink(sink), m_id(std::move(id)), m_cancelled(cancelled)
{
}

void JobContext::send(QJsonObject event)
{
    protocol::setEventId(event, m_id);
    m_sink.send(event);
}

void JobContext::progress(protocol::ProgressPhase phase, long long done, long long total,
                          std::optional<double> preliminaryMedianMs)
{
    const bool last = done >= total;
    if (m_sinceProgress.isValid() && m_sinceProgress.elapsed() < kProgressIntervalMs && !last)
        return;
    m_sinceProgress.start();
    protocol::ProgressEvent event;
    event.id = m_id;
    event.phase = phase;
    event.done = int(std::min<long long>(done, std::numeric_limits<int>::max()));
    event.total = int(std::min<long long>(total, std::numeric_limits<int>::max()));
    event.preliminaryMedianMs = preliminaryMedianMs;
    send(protocol::toJson(event));
}

void JobContext::checkCancelled() const
{
    if (m_cancelled && m_cancelled->load())
        throw RunnerError(ErrorKind::Cancelled, QStringLiteral("The job was cancelled."));
}

QJsonObject errorEvent(const QString &id, const RunnerError &error)
{
    protocol::ErrorEvent typed;
    typed.id = id;
    typed.kind = error.kind();
    typed.message = error.message();
    typed.log = error.log();
    QJsonObject event = protocol::toJson(typed);
    // Kind-specific detail (wrong_result's rel_error, tolerance, nan), as the job made it.
    for (auto it = error.extra().begin(); it != error.extra().end(); ++it)
        event.insert(it.key(), it.value());
    return event;
}

} // namespace gemmscope::runner
