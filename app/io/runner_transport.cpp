#include "runner_transport.h"

#include "events.h"
#include "requests.h"

#include <QJsonDocument>
#include <QProcessEnvironment>
#include <algorithm>
#include <utility>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace gemmscope {

namespace {
constexpr int kKilledWaitMs = 1000;     // a killed runner is gone within this
constexpr qsizetype kStderrTail = 4096; // what is kept of a runner's stderr for its last words
constexpr int kLastWordsChars = 300;    // what of it a sentence quotes

#ifdef Q_OS_LINUX
// Runs in the child between fork and exec: the kernel kills it when the thread that started it
// ends, however that ends (SIGKILL included). A parent that was already gone before the prctl
// took effect is noticed by the parent's pid changing.
void endWithParent(pid_t parent)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        ::_exit(127);
}
#endif

} // namespace

RunnerTransport::RunnerTransport(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<gemmscope::RunnerEnd>();
    m_watchdog.setSingleShot(true);
    connect(&m_watchdog, &QTimer::timeout, this, &RunnerTransport::watchdogFired);
}

RunnerTransport::~RunnerTransport()
{
    dropProcess();
}

void RunnerTransport::dropProcess()
{
    m_watchdog.stop();
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        process->kill();
        process->waitForFinished(kKilledWaitMs);
    }
    process->deleteLater();
}

void RunnerTransport::setMaxLineBytes(qsizetype bytes)
{
    m_lines = LineBuffer(bytes);
}

bool RunnerTransport::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void RunnerTransport::start(const RunnerCommand &command)
{
    dropProcess();
    m_label = command.label.isEmpty() ? command.program : command.label;
    m_lines.clear();
    m_stderrTail.clear();
    m_faultMessage.clear();
    m_faultKind = protocol::ErrorKind::DeviceFault;
    m_killKind.reset();
    m_killMessage.clear();
    m_abandoned = false;
    m_stopping = false;
    m_process = new QProcess(this);
    if (m_forwardStderr) {
        m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel); // diagnostics stay visible
    } else {
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        connect(m_process, &QProcess::readyReadStandardError, this, [this] {
            m_stderrTail.append(m_process->readAllStandardError());
            if (m_stderrTail.size() > kStderrTail)
                m_stderrTail = m_stderrTail.right(kStderrTail);
        });
    }
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RunnerTransport::readOutput);
    connect(m_process, &QProcess::finished, this, &RunnerTransport::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, &RunnerTransport::processError);
    if (!command.environment.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = command.environment.cbegin(); it != command.environment.cend(); ++it)
            env.insert(it.key(), it.value());
        m_process->setProcessEnvironment(env);
    }
#ifdef Q_OS_LINUX
    const pid_t parent = ::getpid();
    m_process->setChildProcessModifier([parent] { endWithParent(parent); });
#endif
    m_process->start(command.program, command.arguments);
}

void RunnerTransport::send(const QJsonObject &object)
{
    if (!isRunning())
        return;
    m_process->write(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n');
}

void RunnerTransport::closeInput()
{
    if (m_process)
        m_process->closeWriteChannel();
}

void RunnerTransport::stop(int graceMs)
{
    m_watchdog.stop();
    if (!isRunning())
        return;
    m_stopping = true;
    send(protocol::toJson(protocol::QuitRequest{}));
    m_process->closeWriteChannel();
    if (!m_process->waitForFinished(graceMs)) {
        m_process->kill();
        m_process->waitForFinished(kKilledWaitMs);
    }
}

void RunnerTransport::kill(protocol::ErrorKind kind, const QString &message)
{
    if (!isRunning() || quiet())
        return;
    m_killKind = kind;
    m_killMessage = message;
    m_watchdog.stop();
    m_process->kill(); // processFinished says how it ended: with this kind and sentence
}

void RunnerTransport::abandon()
{
    m_abandoned = true;
    m_watchdog.stop();
    if (isRunning())
        m_process->kill();
}

void RunnerTransport::watchSilence(int ms, protocol::ErrorKind kind, const QString &message)
{
    m_watchKind = kind;
    m_watchMessage = message;
    m_watchdog.start(ms);
}

void RunnerTransport::stopWatching()
{
    m_watchdog.stop();
}

void RunnerTransport::watchdogFired()
{
    kill(m_watchKind, m_watchMessage);
}

bool RunnerTransport::waitForOutput(int maxWaitMs)
{
    if (!m_process)
        return false;
    if (m_process->state() == QProcess::NotRunning && m_process->bytesAvailable() == 0)
        return false;
    // A timer cannot fire while this blocks: wait at most until the watchdog's time is up.
    int wait = m_watchdog.isActive() ? m_watchdog.remainingTime() : -1;
    if (maxWaitMs >= 0)
        wait = wait < 0 ? maxWaitMs : std::min(wait, maxWaitMs);
    if (m_process->waitForReadyRead(wait)) {
        readOutput(); // normally done already by the signal emitted inside waitForReadyRead
        return true;
    }
    if (!isRunning())
        return false; // it ended: ended() was emitted inside waitForReadyRead
    if (m_watchdog.isActive() && m_watchdog.remainingTime() == 0) {
        m_watchdog.stop();
        watchdogFired();
        if (m_process && !m_process->waitForFinished(kKilledWaitMs))
            return false;
    }
    return isRunning();
}

void RunnerTransport::readOutput()
{
    if (!m_process)
        return;
    const QByteArray bytes = m_process->readAllStandardOutput();
    if (quiet())
        return; // being stopped: nothing it says counts any more
    m_lines.append(bytes);
    if (!bytes.isEmpty() && m_watchdog.isActive())
        m_watchdog.start(); // output is a sign of life: its silence is timed from now
    while (const std::optional<QByteArray> line = m_lines.takeLine()) {
        deliver(*line);
        if (quiet())
            return;
    }
    if (m_lines.overflowed())
        kill(protocol::ErrorKind::ProtocolError,
             tr("The runner wrote a line longer than %1 MiB, which no protocol event is, so it was stopped.")
                 .arg(m_lines.maxLineBytes() / (1024.0 * 1024.0)));
}

void RunnerTransport::deliver(const QByteArray &raw)
{
    const QByteArray line = raw.trimmed();
    if (line.isEmpty())
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) {
        qWarning("gemmscope-runner wrote a line that is not a JSON object: %s", line.left(200).constData());
        return;
    }
    const QJsonObject json = doc.object();
    DecodedEvent decoded;
    if (m_decodeEvents || protocol::eventTypeOf(json) == protocol::EventType::Error)
        decoded.event = protocol::decodeEvent(json);
    const auto *error = decoded.get<protocol::ErrorEvent>();
    if (error && protocol::runnerEndsAfter(error->kind)) { // the runner exits with status 3 next
        m_faultMessage = error->message;
        m_faultKind = error->kind;
    }
    emit eventReceived(json, decoded);
}

void RunnerTransport::processFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_abandoned || m_stopping)
        return;
    // What the runner wrote before it ended still counts, a last unterminated line included.
    readOutput();
    const QByteArray rest = m_lines.takeRest();
    if (!quiet())
        deliver(rest);
    if (m_abandoned || m_stopping) // a client that read the last words and let the runner go
        return;
    m_watchdog.stop();
    RunnerEnd end;
    end.exitCode = exitCode;
    end.killed = m_killKind.has_value();
    end.crashed = !end.killed && status == QProcess::CrashExit;
    const bool fault = !end.killed && status == QProcess::NormalExit && exitCode == kDeviceFaultExitCode;
    // A device fault is the GPU's; a runner killed by a signal, or ending otherwise, is not.
    end.kind = end.killed ? *m_killKind : fault ? m_faultKind : protocol::ErrorKind::RunnerCrashed;
    end.message = end.killed                                                   ? m_killMessage
                  : fault && m_faultKind == protocol::ErrorKind::KernelTimeout ? m_faultMessage
                  : fault ? tr("The GPU reported a fault (%1).")
                                .arg(m_faultMessage.isEmpty() ? tr("sticky CUDA error") : m_faultMessage)
                  : status == QProcess::CrashExit
                      ? tr("The runner crashed or was killed (by a signal).")
                      : tr("The runner exited unexpectedly with status %1.").arg(exitCode);
    const QString stderrText = QString::fromUtf8(m_stderrTail).trimmed();
    if (!end.killed && !fault && !stderrText.isEmpty())
        end.message += tr(" Its last words: %1").arg(stderrText.right(kLastWordsChars));
    m_killKind.reset();
    m_killMessage.clear();
    emit ended(end);
}

void RunnerTransport::processError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_abandoned || m_stopping)
        return; // crashes arrive through finished()
    m_watchdog.stop();
    RunnerEnd end;
    end.kind = protocol::ErrorKind::RunnerUnavailable;
    end.startFailed = true;
    end.message = tr("%1 could not be started (%2)").arg(m_label, m_process->errorString());
    emit ended(end);
}

} // namespace gemmscope
