#include "runner_session.h"

#include "events.h"
#include "requests.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gemmscope::bench {

namespace {
constexpr int kReadyTimeoutMs = 60000;
constexpr int kJobTimeoutMs = 30 * 60 * 1000; // a 1 s budget at 8192^3 with a slow stage stays far below
} // namespace

RunnerSession::RunnerSession(QString program, QStringList arguments)
    : m_program(std::move(program)), m_arguments(std::move(arguments))
{
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel); // runner diagnostics stay visible
}

RunnerSession::~RunnerSession()
{
    stop();
}

bool RunnerSession::start(QString *error)
{
    stop();
    m_process.start(m_program, m_arguments);
    if (!m_process.waitForStarted(10000)) {
        *error = QStringLiteral("Could not start %1: %2").arg(m_program, m_process.errorString());
        return false;
    }
    QJsonObject event;
    while (readEvent(&event, kReadyTimeoutMs))
        if (protocol::eventTypeOf(event) == protocol::EventType::Ready) {
            m_ready = event;
            protocol::ReadyEvent ready;
            protocol::fromJson(event, ready);
            const QJsonValue version = event.value(QStringLiteral("protocol"));
            if (!version.isDouble() || version.toDouble() != protocol::kVersion) {
                // Say what came: 1.5 or "1" is not "protocol 0".
                const QString received =
                    version.isUndefined()
                        ? QStringLiteral("none")
                        : QString::fromUtf8(QJsonDocument(QJsonArray{version}).toJson(QJsonDocument::Compact))
                              .mid(1)
                              .chopped(1);
                *error = QStringLiteral("%1 speaks protocol %2; gemmscope-bench knows %3.")
                             .arg(m_program, received)
                             .arg(protocol::kVersion);
                return false;
            }
            return true;
        }
    *error = QStringLiteral("%1 did not send its ready event.").arg(m_program);
    return false;
}

void RunnerSession::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.write(QJsonDocument(protocol::toJson(protocol::QuitRequest{})).toJson(QJsonDocument::Compact) +
                    '\n');
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(10000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

bool RunnerSession::readEvent(QJsonObject *event, int timeoutMs)
{
    for (;;) {
        while (m_process.canReadLine()) {
            const QJsonDocument doc = QJsonDocument::fromJson(m_process.readLine());
            if (doc.isObject()) {
                *event = doc.object();
                return true;
            }
        }
        if (m_process.state() != QProcess::Running && m_process.bytesAvailable() == 0)
            return false;
        if (!m_process.waitForReadyRead(timeoutMs) && !m_process.canReadLine())
            return false;
    }
}

QJsonObject RunnerSession::request(const QJsonObject &job,
                                   const std::function<void(const QJsonObject &)> &onEvent)
{
    using protocol::EventType;
    const QString id = protocol::eventIdOf(job); // a job's id is spelled as an event's
    const std::optional<protocol::RequestType> type = protocol::requestTypeOf(job);
    m_process.write(QJsonDocument(job).toJson(QJsonDocument::Compact) + '\n');
    QJsonObject event;
    while (readEvent(&event, kJobTimeoutMs)) {
        if (protocol::eventIdOf(event) != id)
            continue;
        const std::optional<EventType> kind = protocol::eventTypeOf(event);
        const bool final = kind == EventType::Result || kind == EventType::Error ||
                           kind == EventType::Ceilings || kind == EventType::OwnerMap ||
                           kind == EventType::Disassembly ||
                           (kind == EventType::Compiled && type == protocol::RequestType::Compile);
        if (final)
            return event;
        if (onEvent)
            onEvent(event);
    }
    protocol::ErrorEvent ended;
    ended.id = id;
    ended.kind = protocol::ErrorKind::RunnerUnavailable;
    ended.message =
        QStringLiteral("gemmscope-runner ended (status %1) before answering.").arg(m_process.exitCode());
    return protocol::toJson(ended);
}

} // namespace gemmscope::bench
