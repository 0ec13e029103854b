#include "profile_process.h"

#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"

#include "events.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

namespace gemmscope::runner {

namespace {

constexpr char kInProcess[] = "GEMMSCOPE_PROFILE_IN_PROCESS";
// A profile of the slowest ladder stage at a large size takes seconds; a child silent for this
// long is stuck (a hung kernel or driver) and is killed.
constexpr int kSilenceLimitMs = 600000;

// The runner itself; tests name another program (GEMMSCOPE_PROFILE_CHILD) to see how a child
// that crashes or ends without an answer is reported.
QString childProgram()
{
    const QString override = qEnvironmentVariable("GEMMSCOPE_PROFILE_CHILD");
    if (!override.isEmpty())
        return override;
    const QString self = QCoreApplication::applicationFilePath();
    return self.isEmpty() ? QStringLiteral("/proc/self/exe") : self;
}

} // namespace

bool profilesInThisProcess()
{
    return qEnvironmentVariableIntValue(kInProcess) == 1;
}

void relayProfileFromChild(RunnerState &state, const protocol::ProfileJob &request, JobContext &job)
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kInProcess), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(childProgram(), {QStringLiteral("--cache-dir"), state.cacheDir,
                                 QStringLiteral("--compile-threads"), QStringLiteral("0")});
    if (!child.waitForStarted(30000))
        throw RunnerError(
            ErrorKind::LaunchError,
            QStringLiteral("The profiler process could not be started (%1).").arg(child.errorString()));
    protocol::ProfileJob forChild = request;
    forChild.id = job.id();
    child.write(QJsonDocument(protocol::toJson(forChild)).toJson(QJsonDocument::Compact) + '\n');
    child.closeWriteChannel(); // EOF: the child runs the one job, then exits

    bool answered = false;
    int silentMs = 0;
    for (;;) {
        while (child.canReadLine()) {
            const QJsonDocument doc = QJsonDocument::fromJson(child.readLine());
            if (!doc.isObject())
                continue;
            const QJsonObject event = doc.object();
            const std::optional<protocol::EventType> type = protocol::eventTypeOf(event);
            if (!type || *type == protocol::EventType::Ready)
                continue; // the child's own start-up
            if (protocol::eventIdOf(event) != job.id())
                continue;
            job.send(event);
            answered =
                answered || *type == protocol::EventType::Profile || *type == protocol::EventType::Error;
        }
        if (child.state() == QProcess::NotRunning)
            break;
        try {
            job.checkCancelled();
        } catch (...) {
            child.kill();
            child.waitForFinished(5000);
            throw;
        }
        if (!child.waitForReadyRead(100)) {
            silentMs += 100;
            if (child.state() == QProcess::Running && silentMs > kSilenceLimitMs) {
                child.kill();
                child.waitForFinished(5000);
                throw RunnerError(
                    ErrorKind::LaunchError,
                    QStringLiteral("The profiler process said nothing for %1 s and was stopped; "
                                   "the runner is unaffected.")
                        .arg(kSilenceLimitMs / 1000));
            }
        } else {
            silentMs = 0;
        }
    }
    child.waitForFinished(5000);
    if (answered)
        return;
    if (child.exitStatus() == QProcess::CrashExit)
        throw RunnerError(
            ErrorKind::LaunchError,
            QStringLiteral("The profiler process crashed before it answered; the runner and its "
                           "results are unaffected. Profiling this configuration again may work."));
    throw RunnerError(ErrorKind::LaunchError,
                      QStringLiteral("The profiler process ended (status %1) without an "
                                     "answer; the runner is unaffected.")
                          .arg(child.exitCode()));
}

} // namespace gemmscope::runner
