#include "runner_service.h"

#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_compile.h"

#include "events.h"
#include "requests.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>
#include <memory>
#include <string>
#include <thread>

namespace gemmscope::runner {

namespace {

QJsonObject protocolError(const QString &id, const QString &message)
{
    protocol::ErrorEvent event;
    event.id = id;
    event.kind = ErrorKind::ProtocolError;
    event.message = message;
    return protocol::toJson(event);
}

// "run, compile, trace_owner, disassemble, ceilings, fault, cancel, quit": every request type the runner
// knows, in the protocol table's order.
QString knownRequestTypes()
{
    QStringList names;
    for (protocol::RequestType t : protocol::jobTypes())
        names << protocol::requestTypeName(t);
    names << protocol::requestTypeName(protocol::RequestType::Cancel)
          << protocol::requestTypeName(protocol::RequestType::Quit);
    return names.join(QStringLiteral(", "));
}

QJsonObject cancelledEvent(const QString &id, const QString &message)
{
    return errorEvent(id, RunnerError(ErrorKind::Cancelled, message));
}

} // namespace

RunnerService::RunnerService(QString cacheDir, EventSink &sink, int compileThreads)
    : m_cacheDir(std::move(cacheDir)), m_sink(sink), m_compileThreads(compileThreads)
{
}

void RunnerService::compileAhead(const QJsonObject &request, const QString &id)
{
    std::lock_guard lock(m_aheadMutex);
    if (!m_ahead)
        return;
    if (const std::optional<NvrtcProgram> program = programAhead(*m_state, request))
        m_ahead->submit(id, *program);
}

void RunnerService::abandonAhead(const QString &id)
{
    std::lock_guard lock(m_aheadMutex);
    if (m_ahead)
        m_ahead->abandon(id);
}

void RunnerService::handleLine(const QByteArray &raw)
{
    const QByteArray line = raw.trimmed();
    if (line.isEmpty())
        return;
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        const QString why = parseError.error != QJsonParseError::NoError
                                ? parseError.errorString() + QStringLiteral(" at offset ") +
                                      QString::number(parseError.offset)
                                : QStringLiteral("not an object");
        m_sink.send(
            protocolError({}, QStringLiteral("The line is not a JSON object (%1); each request is one JSON "
                                             "object on one line.")
                                  .arg(why)));
        return;
    }
    const QJsonObject request = doc.object();
    const protocol::RequestEnvelope envelope = protocol::envelopeOf(request);
    const QString &id = envelope.id;
    const QString &type = envelope.typeName;
    const std::optional<protocol::RequestType> known = envelope.type;
    if (type.isEmpty()) {
        m_sink.send(protocolError(id, QStringLiteral("The request has no \"type\" string.")));
        return;
    }

    if (known == protocol::RequestType::Quit) {
        m_quit.store(true);
        // Queued jobs will not run; each still gets its answer so that no client waits forever.
        for (const QueuedJob &job : m_queue.close(true)) {
            abandonAhead(job.id);
            m_sink.send(
                cancelledEvent(job.id, QStringLiteral("The runner was asked to quit before this job ran.")));
        }
        return;
    }
    if (id.isEmpty()) {
        m_sink.send(protocolError({}, QStringLiteral("The \"%1\" request has no \"id\" string.").arg(type)));
        return;
    }
    if (known == protocol::RequestType::Cancel) {
        QueuedJob removed;
        if (m_queue.cancel(id, &removed) == JobQueue::CancelOutcome::RemovedQueued) {
            abandonAhead(removed.id);
            m_sink.send(cancelledEvent(removed.id, QStringLiteral("The job was cancelled before it ran.")));
        }
        // A running job answers itself when it sees the flag; an unknown id (already finished) needs
        // no answer: the client drops stale events by id.
        return;
    }
    if (!known || !protocol::isJob(*known)) {
        m_sink.send(protocolError(
            id, QStringLiteral("Unknown request type \"%1\"; known: %2.").arg(type, knownRequestTypes())));
        return;
    }
    if (!m_queue.hasRoomFor(line.size())) {
        m_sink.send(protocolError(
            id,
            QStringLiteral("The runner already holds %1 MiB of requests that have not run yet (at most %2 "
                           "MiB), so this one (%3 MiB) was refused; send more as jobs finish.")
                .arg(double(m_queue.queuedBytes()) / (1024 * 1024), 0, 'f', 1)
                .arg(kMaxQueuedRequestBytes / (1024 * 1024))
                .arg(double(line.size()) / (1024 * 1024), 0, 'f', 1)));
        return;
    }
    compileAhead(request, id); // before it is queued: the worker may take it at once
    m_queue.push(QueuedJob{id, request, line.size()});
}

LineRead readBoundedLine(std::istream &in, std::string &line, std::size_t maxBytes)
{
    line.clear();
    std::streambuf *buffer = in.rdbuf();
    if (!buffer || !in.good())
        return LineRead::End;
    bool any = false, tooLong = false;
    for (;;) {
        // Copy runs of bytes up to the next '\n' straight from the buffer's get area.
        const std::streamsize available = buffer->in_avail();
        if (available > 0) {
            char chunk[4096];
            std::streamsize n = 0;
            int c = 0;
            while (n < std::streamsize(sizeof chunk) &&
                   (c = buffer->sgetc()) != std::char_traits<char>::eof() && c != '\n') {
                chunk[n++] = char(c);
                buffer->sbumpc();
            }
            any = any || n > 0;
            if (!tooLong) {
                if (line.size() + std::size_t(n) > maxBytes) {
                    tooLong = true;
                    std::string().swap(line); // give the memory back at once
                } else {
                    line.append(chunk, std::size_t(n));
                }
            }
            if (c == '\n') {
                buffer->sbumpc();
                return tooLong ? LineRead::TooLong : LineRead::Line;
            }
            if (n > 0)
                continue;
        }
        const int c = buffer->sbumpc(); // blocks for more input, or reports its end
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            if (!any)
                return LineRead::End;
            return tooLong ? LineRead::TooLong : LineRead::Line; // a last line without '\n'
        }
        any = true;
        if (c == '\n')
            return tooLong ? LineRead::TooLong : LineRead::Line;
        if (!tooLong) {
            if (line.size() + 1 > maxBytes) {
                tooLong = true;
                std::string().swap(line);
            } else {
                line.push_back(char(c));
            }
        }
    }
}

void RunnerService::readLoop(std::istream &in)
{
    std::string line;
    while (!m_quit.load()) {
        const LineRead read = readBoundedLine(in, line);
        if (read == LineRead::End)
            break;
        if (read == LineRead::TooLong) {
            m_sink.send(protocolError(
                {}, QStringLiteral("The line is longer than %1 MiB, so it was skipped; each request is one "
                                   "JSON object on one line, far shorter than that.")
                        .arg(kMaxRequestLineBytes / (1024 * 1024))));
            continue;
        }
        handleLine(QByteArray::fromStdString(line));
    }
    m_queue.close(false); // EOF: the queued jobs still run
}

int RunnerService::serve(std::istream &in)
{
    // The context belongs to this thread: create it (device probe) before reading any request.
    RunnerState state(m_cacheDir);
    state.profileChild = m_profileChild;
    m_sink.send(state.readyEvent());

    // NVRTC and the CUBIN cache are safe for separate programs on separate threads; the CUDA
    // context work (load, launch) stays on this thread.
    std::unique_ptr<CompileAhead> ahead;
    if (m_compileThreads > 0) {
        ahead = std::make_unique<CompileAhead>(
            [&compiler = state.compiler](const NvrtcProgram &program) { return compiler.compile(program); },
            m_compileThreads);
        state.compileAhead = ahead.get();
        std::lock_guard lock(m_aheadMutex);
        m_ahead = ahead.get();
        m_state = &state;
    }

    std::thread reader([this, &in] { readLoop(in); });
    int exitCode = Finished;
    while (const std::optional<QueuedJob> job = m_queue.takeNext()) {
        JobContext context(m_sink, job->id, job->cancelled.get());
        try {
            context.checkCancelled();
            runJob(state, job->request, context);
        } catch (const RunnerError &error) {
            m_sink.send(errorEvent(job->id, error));
            if (error.kind() == ErrorKind::DeviceFault)
                exitCode = DeviceFaulted;
        } catch (const std::exception &error) {
            m_sink.send(errorEvent(
                job->id, RunnerError(ErrorKind::LaunchError, QStringLiteral("Internal runner error: %1")
                                                                 .arg(QString::fromUtf8(error.what())))));
        }
        if (ahead)
            ahead->abandon(job->id); // a compile the job never took (it refused itself first)
        m_queue.finishRunning();
        if (exitCode == DeviceFaulted)
            break;
    }
    {
        // The reader may still be running (a fault): from now on it compiles nothing ahead.
        std::lock_guard lock(m_aheadMutex);
        m_ahead = nullptr;
        m_state = nullptr;
    }
    if (exitCode == DeviceFaulted)
        reader.detach(); // it may be blocked on stdin; the process ends right after this
    else
        reader.join();
    return exitCode;
}

} // namespace gemmscope::runner
