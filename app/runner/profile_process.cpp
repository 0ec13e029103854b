#include "profile_process.h"

#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"
#include "runner_transport.h"

#include "events.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <optional>

namespace gemmscope::runner {

namespace {

// How often the relay looks at Cancel and at its clocks while the child is quiet.
constexpr int kPollMs = 100;

QString childProgram(const ProfileChildOptions &options)
{
    if (!options.program.isEmpty())
        return options.program;
    const QString self = QCoreApplication::applicationFilePath();
    return self.isEmpty() ? QStringLiteral("/proc/self/exe") : self;
}

// The events a profile job may send, and whether each ends the job.
enum class Relayed { Start, Progress, Final, Forbidden };
Relayed classify(protocol::EventType type)
{
    switch (type) {
    case protocol::EventType::Ready:
        return Relayed::Start;
    case protocol::EventType::Compiled:
    case protocol::EventType::Progress:
        return Relayed::Progress;
    case protocol::EventType::Profile:
    case protocol::EventType::Error:
        return Relayed::Final;
    default:
        return Relayed::Forbidden;
    }
}

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 4);
}

// One child and what it has said so far.
class ChildRelay {
public:
    ChildRelay(const ProfileChildOptions &options, JobContext &job) : m_options(options), m_job(job)
    {
        m_child.setMaxLineBytes(protocol::kMaxEventLineBytes);
        m_child.setForwardStderr(true); // CUPTI's and the driver's diagnostics stay visible
        m_child.setDecodeEvents(false); // relayed as they came: a profile is decoded by the client
        QObject::connect(
            &m_child, &RunnerTransport::eventReceived, &m_child,
            [this](const QJsonObject &json, const DecodedEvent &decoded) { take(json, decoded); });
        QObject::connect(&m_child, &RunnerTransport::ended, &m_child,
                         [this](const RunnerEnd &end) { m_end = end; });
    }

    void run(const RunnerState &state, const protocol::ProfileJob &request)
    {
        RunnerCommand command;
        command.program = childProgram(m_options);
        command.arguments = {QStringLiteral("--cache-dir"), state.cacheDir,
                             QStringLiteral("--compile-threads"), QStringLiteral("0"),
                             QStringLiteral("--") + QLatin1String(kProfileInProcessOption)};
        command.label = QStringLiteral("the profiler process");
        m_child.start(command);
        protocol::ProfileJob forChild = request;
        forChild.id = m_job.id();
        m_child.send(protocol::toJson(forChild));
        m_child.closeInput(); // EOF: the child runs the one job, then exits
        m_child.watchSilence(
            m_options.silenceLimitMs, protocol::ErrorKind::LaunchError,
            QStringLiteral("The profiler process said nothing for %1 s, longer than a profile may be silent, "
                           "so it was stopped; the runner is unaffected.")
                .arg(seconds(m_options.silenceLimitMs)));
        QElapsedTimer sinceStart;
        sinceStart.start();
        while (!m_end && m_child.waitForOutput(kPollMs)) {
            try {
                m_job.checkCancelled();
            } catch (...) {
                m_child.abandon();
                throw;
            }
            if (m_sinceAnswer.isValid()) {
                // The answer stands; a child that lingers after it is only stopped.
                if (m_sinceAnswer.hasExpired(m_options.exitGraceMs)) {
                    m_child.abandon();
                    break;
                }
            } else if (sinceStart.hasExpired(m_options.timeLimitMs)) {
                m_child.kill(protocol::ErrorKind::LaunchError,
                             QStringLiteral("The profiler process had not answered after %1 s, the longest a "
                                            "profile may take, so it was stopped; the runner is unaffected.")
                                 .arg(seconds(m_options.timeLimitMs)));
            }
        }
        finish();
    }

private:
    void take(const QJsonObject &event, const DecodedEvent &decoded)
    {
        const std::optional<protocol::EventType> type = protocol::eventTypeOf(event);
        if (!type)
            return refuse(QStringLiteral("an event of no known type"));
        const Relayed kind = classify(*type);
        if (kind == Relayed::Start)
            return; // the child's own start-up
        if (kind == Relayed::Forbidden)
            return refuse(QStringLiteral("a `%1` event").arg(protocol::eventTypeName(*type)));
        if (protocol::eventIdOf(event) != m_job.id())
            return; // not this job's: a confused child; only its own answer counts
        if (m_sinceAnswer.isValid())
            return refuse(QStringLiteral("a second answer"));
        if (kind == Relayed::Final)
            m_sinceAnswer.start();
        const auto *error = decoded.get<protocol::ErrorEvent>();
        if (error && error->kind == protocol::ErrorKind::DeviceFault) {
            // Not relayed here: thrown once the child has ended, so that this runner ends with
            // status 3 after it, as the protocol says of a device fault.
            m_deviceFault = error->message;
            return;
        }
        m_job.send(event);
    }

    // A child that sends what a profile never sends is not trusted with the rest.
    void refuse(const QString &what)
    {
        if (m_refused)
            return;
        m_refused = true;
        m_child.kill(
            protocol::ErrorKind::ProtocolError,
            QStringLiteral("The profiler process sent %1, which a profile job never sends, so it "
                           "was stopped and nothing more it sent was used; the runner is unaffected.")
                .arg(what));
    }

    void finish()
    {
        if (m_deviceFault)
            throw RunnerError(ErrorKind::DeviceFault, *m_deviceFault);
        if (m_sinceAnswer.isValid())
            return; // answered: whatever came after it, the job has its one final event
        if (!m_end)
            throw RunnerError(ErrorKind::LaunchError,
                              QStringLiteral("The profiler process ended without an answer; the runner is "
                                             "unaffected."));
        if (m_end->kind == protocol::ErrorKind::DeviceFault) // status 3 without its event
            throw RunnerError(ErrorKind::DeviceFault,
                              QStringLiteral("The GPU reported a fault while the kernel was profiled."));
        if (m_end->startFailed) {
            QString message = m_end->message;
            message[0] = message[0].toUpper();
            throw RunnerError(ErrorKind::LaunchError, message + QStringLiteral("."));
        }
        if (m_end->killed && !m_refused && m_end->kind == protocol::ErrorKind::ProtocolError)
            throw RunnerError(ErrorKind::LaunchError,
                              QStringLiteral("The profiler process wrote a line longer than %1 MiB, which no "
                                             "event is, so it was stopped; the runner is unaffected.")
                                  .arg(protocol::kMaxEventLineBytes / (1024 * 1024)));
        if (m_end->killed)
            throw RunnerError(ErrorKind::LaunchError, m_end->message);
        if (m_end->crashed)
            throw RunnerError(
                ErrorKind::LaunchError,
                QStringLiteral("The profiler process crashed before it answered; the runner and "
                               "its results are unaffected. Profiling the same preset again "
                               "may work."));
        throw RunnerError(
            ErrorKind::LaunchError,
            QStringLiteral("The profiler process ended (status %1) without an answer; the runner "
                           "is unaffected.")
                .arg(m_end->exitCode));
    }

    const ProfileChildOptions &m_options;
    JobContext &m_job;
    RunnerTransport m_child;
    std::optional<RunnerEnd> m_end;
    QElapsedTimer m_sinceAnswer; // valid once the one answer came
    std::optional<QString> m_deviceFault;
    bool m_refused = false;
};

} // namespace

void relayProfileFromChild(RunnerState &state, const protocol::ProfileJob &request, JobContext &job)
{
    ChildRelay relay(state.profileChild, job);
    relay.run(state, request);
}

} // namespace gemmscope::runner
