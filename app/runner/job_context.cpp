#include "job_context.h"

#include "events.h"

#include "runner_error.h"

#include <QJsonValue>

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
    event.insert(QStringLiteral("id"), m_id);
    m_sink.send(event);
}

void JobContext::progress(const QString &phase, long long done, long long total, const QJsonObject &extra)
{
    const bool last = done >= total;
    if (m_sinceProgress.isValid() && m_sinceProgress.elapsed() < kProgressIntervalMs && !last)
        return;
    m_sinceProgress.start();
    QJsonObject event{{QStringLiteral("event"), QStringLiteral("progress")},
                      {QStringLiteral("phase"), phase},
                      {QStringLiteral("done"), double(done)},
                      {QStringLiteral("total"), double(total)}};
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        event.insert(it.key(), it.value());
    send(event);
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
