#include "runner_session.h"

#include "bench_console.h"
#include "events.h"
#include "json_text.h"
#include "requests.h"

namespace gemmscope::bench {

namespace {
constexpr int kReadyTimeoutMs = 60000;
constexpr int kJobTimeoutMs = 30 * 60 * 1000; // a 1 s budget at 8192^3 with a slow stage stays far below
constexpr int kQuitGraceMs = 10000;
} // namespace

RunnerSession::RunnerSession(QString program, QStringList arguments)
    : m_program(std::move(program)), m_arguments(std::move(arguments))
{
    m_transport.setForwardStderr(true); // runner diagnostics stay visible
    // The bench keeps each event's JSON for its file and decodes a row once itself (benchRow):
    // the transport decodes only the errors it must read.
    m_transport.setDecodeEvents(false);
    QObject::connect(&m_transport, &RunnerTransport::eventReceived,
                     [this](const QJsonObject &event) { m_events.append(event); });
    QObject::connect(&m_transport, &RunnerTransport::ended, [this](const RunnerEnd &end) { m_end = end; });
}

RunnerSession::~RunnerSession()
{
    stop();
}

bool RunnerSession::start(QString *error)
{
    stop();
    m_events.clear();
    m_end.reset();
    RunnerCommand command;
    command.program = command.label = m_program;
    command.arguments = m_arguments;
    m_transport.start(command);
    m_transport.watchSilence(
        kReadyTimeoutMs, protocol::ErrorKind::RunnerTimeout,
        QStringLiteral("%1 did not report that it was ready within %2 s, so it was stopped.")
            .arg(m_program)
            .arg(kReadyTimeoutMs / 1000));
    while (const std::optional<QJsonObject> event = nextEvent())
        if (protocol::eventTypeOf(*event) == protocol::EventType::Ready) {
            m_transport.stopWatching();
            m_ready = *event;
            const QJsonValue version = protocol::protocolVersionValue(*event);
            if (!version.isDouble() || version.toDouble() != protocol::kVersion) {
                // Say what came: 1.5 or "1" is not "protocol 0".
                *error = QStringLiteral("%1 speaks protocol %2; gemmscope-bench knows %3.")
                             .arg(m_program,
                                  version.isUndefined() ? QStringLiteral("none") : describeJsonValue(version))
                             .arg(protocol::kVersion);
                return false;
            }
            return true;
        }
    if (m_end && m_end->startFailed)
        *error = QStringLiteral("Could not start the runner: %1").arg(m_end->message);
    else
        *error = QStringLiteral("%1 did not send its ready event. %2")
                     .arg(m_program, m_end ? m_end->message : QString())
                     .trimmed();
    return false;
}

void RunnerSession::stop()
{
    m_transport.stop(kQuitGraceMs);
}

std::optional<QJsonObject> RunnerSession::nextEvent()
{
    while (m_events.isEmpty())
        if (!m_transport.waitForOutput() && m_events.isEmpty())
            return std::nullopt;
    return m_events.takeFirst();
}

QJsonObject RunnerSession::request(const QJsonObject &job,
                                   const std::function<void(const QJsonObject &)> &onEvent)
{
    using protocol::EventType;
    const QString id = protocol::eventIdOf(job); // a job's id is spelled as an event's
    const std::optional<protocol::RequestType> type = protocol::requestTypeOf(job);
    m_transport.send(job);
    m_transport.watchSilence(
        kJobTimeoutMs, protocol::ErrorKind::RunnerTimeout,
        QStringLiteral("gemmscope-runner sent nothing for %1 minutes, so it was stopped.")
            .arg(kJobTimeoutMs / 60000));
    while (const std::optional<QJsonObject> event = nextEvent()) {
        if (protocol::eventIdOf(*event) != id)
            continue;
        const std::optional<EventType> kind = protocol::eventTypeOf(*event);
        const bool final = kind == EventType::Result || kind == EventType::Error ||
                           kind == EventType::Ceilings || kind == EventType::OwnerMap ||
                           kind == EventType::Disassembly || kind == EventType::Profile ||
                           (kind == EventType::Compiled && type == protocol::RequestType::Compile);
        if (final) {
            m_transport.stopWatching();
            return *event;
        }
        if (onEvent)
            onEvent(*event);
    }
    protocol::ErrorEvent ended;
    ended.id = id;
    ended.kind = m_end ? m_end->kind : protocol::ErrorKind::RunnerUnavailable;
    ended.message = QStringLiteral("gemmscope-runner ended before answering: %1")
                        .arg(m_end ? m_end->message : QStringLiteral("it is not running."));
    return protocol::toJson(ended);
}

std::optional<protocol::GpuInfo> startWithGpu(RunnerSession &runner, int *exitCode)
{
    QString error;
    if (!runner.start(&error)) {
        printError(error);
        *exitCode = 1;
        return std::nullopt;
    }
    protocol::ReadyEvent ready;
    protocol::fromJson(runner.ready(), ready);
    if (!ready.gpu) {
        printError(QStringLiteral("No GPU: %1").arg(ready.gpuErrorMessage));
        *exitCode = 2;
    }
    return ready.gpu;
}

} // namespace gemmscope::bench
