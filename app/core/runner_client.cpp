#include "runner_client.h"

#include "json_text.h"
#include "runner_locator.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSysInfo>
#include <algorithm>
#include <climits>
#include <utility>

namespace gemmscope {

namespace {
constexpr int kQuitGraceMs = 3000;

// "run" or "profile": what a sentence about a request calls it.
QString cancelledBeforeStart(const RunRequest &request)
{
    return request.isProfile() ? RunnerClient::tr("The profile was cancelled before it started.")
                               : RunnerClient::tr("The run was cancelled before it started.");
}

// The run a request asked for, as a failed run's record names it (a fault request names none).
protocol::RunJob runOf(const RunRequest &request)
{
    if (request.type != protocol::RequestType::Fault)
        return request.toRunJob();
    protocol::RunJob job;
    job.id = request.jobId;
    return job;
}
} // namespace

RunnerClient::RunnerClient(QString runnerPath, QObject *parent)
    : QObject(parent), m_runnerPath(std::move(runnerPath))
{
    qRegisterMetaType<gemmscope::RunRecord>();
    qRegisterMetaType<gemmscope::protocol::CeilingsEvent>();
    qRegisterMetaType<gemmscope::protocol::ProfileEvent>();
    // Job ids double as run ids in sessions: a per-client prefix keeps them unique across restarts
    // of the application that append to the same session.
    m_jobPrefix = QString::number(QRandomGenerator::global()->bounded(0x1000, 0xFFFF), 16);
    // Children: they follow the client into its thread.
    m_transport = new RunnerTransport(this);
    connect(m_transport, &RunnerTransport::eventReceived, this, &RunnerClient::handleEvent);
    connect(m_transport, &RunnerTransport::ended, this, &RunnerClient::runnerEnded);
    m_cancelTimer = new QTimer(this);
    m_cancelTimer->setSingleShot(true);
    connect(m_cancelTimer, &QTimer::timeout, this, &RunnerClient::cancelGraceExpired);
}

void RunnerClient::setWatchdog(const Watchdog &watchdog)
{
    m_limits = watchdog;
    m_transport->setMaxLineBytes(watchdog.maxLineBytes);
}

void RunnerClient::setCommand(const RunnerCommand &command)
{
    m_command = command;
}

void RunnerClient::setWindow(int jobs)
{
    m_window = std::max(1, jobs);
}

RunnerClient::InFlight *RunnerClient::inFlight(const QString &jobId)
{
    for (InFlight &job : m_inFlight)
        if (job.request.jobId == jobId)
            return &job;
    return nullptr;
}

void RunnerClient::stamp(RunRecord &record) const
{
    if (record.host.isEmpty())
        record.host = m_host;
    if (record.gpuName.isEmpty())
        record.gpuName = m_gpuName;
    if (record.gpuArch.isEmpty())
        record.gpuArch = m_gpuArch;
    if (record.gpuUuid.isEmpty() && (record.gpuName.isEmpty() || record.gpuName == m_gpuName))
        record.gpuUuid = m_gpuUuid;
    if (record.smCount <= 0 && record.gpuName == m_gpuName)
        record.smCount = m_smCount;
}

RunnerClient::~RunnerClient()
{
    m_transport->disconnect(this); // its destructor kills a runner still running
}

QString RunnerClient::submit(RunRequest request)
{
    request.jobId = QStringLiteral("%1-%2").arg(m_jobPrefix).arg(m_nextJob.fetchAndAddRelaxed(1) + 1);
    QMetaObject::invokeMethod(
        this, [this, request] { enqueue(request); }, Qt::QueuedConnection);
    return request.jobId;
}

void RunnerClient::cancel(const QString &jobId)
{
    QMetaObject::invokeMethod(
        this, [this, jobId] { cancelInThread(jobId); }, Qt::QueuedConnection);
}

void RunnerClient::cancelAll()
{
    QMetaObject::invokeMethod(
        this,
        [this] {
            for (const RunRequest &r : m_queue.takeAll())
                failJob(r, protocol::ErrorKind::Cancelled, cancelledBeforeStart(r));
            const QList<InFlight> sent = m_inFlight;
            for (const InFlight &job : sent)
                cancelInThread(job.request.jobId);
        },
        Qt::QueuedConnection);
}

void RunnerClient::start()
{
    if (m_state == State::Starting || m_state == State::Ready)
        return;
    if (m_command.isEmpty() && m_runnerPath.isEmpty()) {
        const RunnerLocation location = locateRunner();
        if (!location.found()) {
            m_state = State::Unavailable;
            m_unavailableReason = tr("runner unavailable: %1").arg(location.whyNot);
            emit runnerStatusChanged(false, m_unavailableReason);
            failAllQueued(protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
            return;
        }
        m_runnerPath = location.path;
    }
    startProcess();
}

void RunnerClient::startProcess()
{
    m_state = State::Starting;
    m_faultMessage.clear();
    RunnerCommand command = m_command;
    if (command.isEmpty()) {
        command.program = m_runnerPath;
        command.label = m_runnerPath;
    }
    m_transport->start(command);
    armWatchdog(); // a runner that never says `ready` is killed and restarted
}

void RunnerClient::shutdown()
{
    if (!m_transport->isRunning()) {
        m_state = State::Stopped;
        return;
    }
    m_state = State::ShuttingDown;
    m_cancelTimer->stop();
    for (const RunRequest &r : m_queue.takeAll())
        failJob(r, protocol::ErrorKind::Cancelled, tr("The run was cancelled because GemmScope is closing."));
    for (const InFlight &job : m_inFlight)
        send(protocol::toJson(protocol::CancelRequest{job.request.jobId}));
    m_transport->stop(kQuitGraceMs); // quit, then kill after the grace period
    m_state = State::Stopped;
}

void RunnerClient::enqueue(const RunRequest &request)
{
    const QStringList replaced = m_queue.enqueue(request);
    if (!replaced.isEmpty())
        emit jobsReplaced(replaced);
    if (m_state == State::Stopped)
        start();
    else if (m_state == State::Unavailable)
        failAllQueued(protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
    else
        dispatchNext();
}

void RunnerClient::cancelInThread(const QString &jobId)
{
    if (auto removed = m_queue.remove(jobId)) {
        failJob(*removed, protocol::ErrorKind::Cancelled, cancelledBeforeStart(*removed));
        if (m_inFlight.isEmpty() && m_queue.isEmpty())
            emit idle();
        return;
    }
    if (inFlight(jobId) && !m_cancelledJobs.contains(jobId)) {
        send(protocol::toJson(protocol::CancelRequest{jobId})); // answered with an error of kind cancelled
        // ... unless the runner hangs: then the grace period ends it by killing the runner.
        m_cancelledJobs << jobId;
        if (!m_cancelTimer->isActive())
            m_cancelTimer->start(m_limits.cancelGraceMs);
    }
}

void RunnerClient::send(const QJsonObject &object)
{
    m_transport->send(object);
}

void RunnerClient::dispatchNext()
{
    if (m_state != State::Ready || !m_faultMessage.isEmpty())
        return; // after a device fault what waits goes to the next runner
    if (m_inFlight.isEmpty() && m_queue.isEmpty()) {
        emit idle();
        return;
    }
    while (m_inFlight.size() < m_window) {
        std::optional<RunRequest> next = m_queue.takeNext();
        if (!next)
            break;
        if (m_inFlight.isEmpty())
            m_sinceProgress.invalidate();
        m_inFlight.append({*next, {}});
        send(next->toProtocolJson());
        armWatchdog();
        emit runStarted(next->jobId);
    }
}

void RunnerClient::finishJob(const QString &jobId)
{
    m_inFlight.removeIf([&](const InFlight &job) { return job.request.jobId == jobId; });
    m_consecutiveRestarts = 0;
    m_cancelledJobs.removeAll(jobId);
    if (m_cancelledJobs.isEmpty())
        m_cancelTimer->stop();
    armWatchdog();
    dispatchNext();
}

void RunnerClient::armWatchdog()
{
    if (m_state == State::Starting) {
        m_transport->watchSilence(
            m_limits.startupMs, protocol::ErrorKind::RunnerTimeout,
            tr("The runner did not report that it was ready within %1 s, so it was stopped.")
                .arg(m_limits.startupMs / 1000.0));
    } else if (m_state == State::Ready && !m_faultMessage.isEmpty()) {
        m_transport->watchSilence(m_limits.faultExitMs, protocol::ErrorKind::RunnerTimeout,
                                  tr("The runner reported a device fault but did not end within %1 s, as it "
                                     "must, so it was stopped.")
                                      .arg(m_limits.faultExitMs / 1000.0));
    } else if (m_state == State::Ready && !m_inFlight.isEmpty() && m_inFlight.front().request.isProfile()) {
        const qint64 limit = qint64(m_limits.profileSilenceMs) + m_limits.silenceMarginMs;
        m_transport->watchSilence(int(std::min<qint64>(INT_MAX, limit)), protocol::ErrorKind::RunnerTimeout,
                                  tr("The runner sent nothing for %1 s while it profiled, longer than a "
                                     "profile may be silent (%2 s) plus a margin of %3 s, so it was stopped.")
                                      .arg(limit / 1000.0)
                                      .arg(m_limits.profileSilenceMs / 1000.0)
                                      .arg(m_limits.silenceMarginMs / 1000.0));
    } else if (m_state == State::Ready && !m_inFlight.isEmpty()) {
        const qint64 budget = std::max(0, m_inFlight.front().request.config.timing.budgetMs);
        m_transport->watchSilence(int(std::min<qint64>(INT_MAX, budget + m_limits.silenceMarginMs)),
                                  protocol::ErrorKind::RunnerTimeout,
                                  tr("The runner sent nothing for %1 s, longer than the run's timing budget "
                                     "(%2 s) plus a margin of %3 s, so it was stopped.")
                                      .arg((budget + m_limits.silenceMarginMs) / 1000.0)
                                      .arg(budget / 1000.0)
                                      .arg(m_limits.silenceMarginMs / 1000.0));
    } else {
        m_transport->stopWatching();
    }
}

void RunnerClient::cancelGraceExpired()
{
    const bool stillThere = std::any_of(m_cancelledJobs.cbegin(), m_cancelledJobs.cend(),
                                        [this](const QString &id) { return inFlight(id) != nullptr; });
    if (stillThere) // the first kill wins: one the watchdog made stays the runner's end
        m_transport->kill(protocol::ErrorKind::Cancelled,
                          tr("The run was cancelled; the runner did not stop within %1 s, so it was stopped.")
                              .arg(m_limits.cancelGraceMs / 1000.0));
}

void RunnerClient::handleEvent(const QJsonObject &json, const DecodedEvent &decoded)
{
    using namespace protocol;
    const std::optional<Event> &event = decoded.event; // decoded once, by the transport
    if (!event)
        return; // an unknown event type: a newer runner's, ignored
    if (const auto *ready = std::get_if<ReadyEvent>(&*event)) {
        handleReady(*ready, protocolVersionValue(json));
        return;
    }
    if (const auto *ceilings = std::get_if<CeilingsEvent>(&*event)) {
        emit ceilingsAvailable(*ceilings);
        return;
    }
    if (const auto *profile = std::get_if<ProfileEvent>(&*event))
        handleProfile(*profile);
    else if (const auto *result = std::get_if<ResultEvent>(&*event))
        handleResult(*result, json);
    else if (const auto *error = std::get_if<ErrorEvent>(&*event))
        handleError(*error, json);
    else if (const auto *p = std::get_if<ProgressEvent>(&*event)) {
        // Events of a job that is no longer in flight (cancelled and replaced) are stale: drop them.
        if (!inFlight(p->id))
            return;
        if (p->preliminaryMedianMs) // not throttled: few, and the point
            emit preliminaryMedian(p->id, *p->preliminaryMedianMs, p->done);
        const bool last = p->total > 0 && p->done >= p->total;
        if (!last && m_sinceProgress.isValid() && m_sinceProgress.elapsed() < kProgressIntervalMs)
            return;
        m_sinceProgress.start();
        emit progress(p->id, p->phase, p->done, p->total);
    } else if (const auto *compiled = std::get_if<CompiledInfo>(&*event)) {
        if (InFlight *job = inFlight(compiled->id)) {
            job->compiled = *compiled;
            emit progress(compiled->id, ProgressPhase::Compile, 1, 1); // compiled: the phase is done
        }
    }
}

void RunnerClient::handleResult(const protocol::ResultEvent &result, const QJsonObject &json)
{
    const InFlight *job = inFlight(result.id);
    if (!job)
        return; // stale
    RunRecord record = fromResultEvent(result, json);
    record.runId = result.id;
    record.presetKey = job->request.config.presetKey;
    stamp(record);
    if (record.isOk())
        emit resultAvailable(record);
    else
        emit runFailed(record);
    finishJob(result.id);
}

void RunnerClient::handleProfile(const protocol::ProfileEvent &profile)
{
    const InFlight *job = inFlight(profile.id);
    if (!job || !job->request.isProfile())
        return; // stale, or not a profile job's (a runner that answers the wrong job)
    protocol::ProfileEvent stamped = profile;
    if (stamped.gpu.name.isEmpty()) {
        stamped.gpu.name = m_gpuName;
        if (stamped.gpu.arch.isEmpty())
            stamped.gpu.arch = m_gpuArch;
    }
    emit profileAvailable(stamped);
    finishJob(profile.id);
}

void RunnerClient::handleError(const protocol::ErrorEvent &error, const QJsonObject &json)
{
    const QString id = error.id;
    const InFlight *job = inFlight(id);
    if (id.isEmpty() || !job) {
        if (id.isEmpty())
            qWarning("gemmscope-runner: %s", qPrintable(error.message));
        return;
    }
    if (job->request.isProfile()) {
        const bool deviceFault = protocol::runnerEndsAfter(error.kind);
        QString message = error.message;
        if (deviceFault) { // the runner exits with status 3 next; runnerEnded restarts it
            m_faultMessage = message;
            if (error.kind == protocol::ErrorKind::DeviceFault) // a timeout's sentence says so itself
                message += tr(" The runner was restarted.");
        }
        emit profileFailed(id, protocol::errorKindName(error.kind), message);
        if (deviceFault) {
            m_inFlight.removeIf([&](const InFlight &j) { return j.request.jobId == id; });
            m_cancelledJobs.removeAll(id);
            m_cancelTimer->stop();
            armWatchdog();
            return;
        }
        finishJob(id);
        return;
    }
    RunRecord record = fromErrorEvent(error, runOf(job->request), json);
    record.presetKey = job->request.config.presetKey;
    if (record.registers < 0 && job->compiled)
        applyCompiled(record, *job->compiled);
    stamp(record);
    const bool deviceFault = protocol::runnerEndsAfter(error.kind);
    if (deviceFault) {
        // The runner exits with status 3 next; the restart happens in processFinished.
        m_faultMessage = record.errorMessage;
        if (error.kind == protocol::ErrorKind::DeviceFault) // a timeout's sentence says so itself
            record.errorMessage += tr(" The runner was restarted.");
    }
    emit runFailed(record);
    if (deviceFault) {
        m_inFlight.removeIf([&](const InFlight &j) { return j.request.jobId == id; });
        m_cancelledJobs.removeAll(id);
        m_cancelTimer->stop();
        armWatchdog();
        return;
    }
    finishJob(id);
}

void RunnerClient::handleReady(const protocol::ReadyEvent &ready, const QJsonValue &version)
{
    // The version as it came: 1.5 or "1" is named as such, not as whatever a conversion made of it.
    if (exactInt(version) != protocol::kVersion) {
        m_state = State::Unavailable;
        m_unavailableReason = tr("runner unavailable: it speaks protocol %1, this GemmScope speaks %2")
                                  .arg(describeJsonValue(version))
                                  .arg(protocol::kVersion);
        emit runnerStatusChanged(false, m_unavailableReason);
        failAllQueued(protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
        m_transport->abandon();
        return;
    }
    m_state = State::Ready;
    m_host = !ready.host.isEmpty()       ? ready.host
             : !m_command.host.isEmpty() ? m_command.host
                                         : QSysInfo::machineHostName();
    m_gpuName = ready.gpu ? ready.gpu->name : QString();
    m_gpuArch = ready.gpu ? ready.gpu->arch : QString();
    m_gpuUuid = ready.gpu ? ready.gpu->uuid : QString();
    m_smCount = ready.gpu ? ready.gpu->sms.value_or(0) : 0;
    emit runnerGpu(m_gpuName, m_gpuArch);
    armWatchdog(); // start-up is over; the running job's silence is watched from dispatch on
    if (!ready.gpu) {
        QString why = ready.gpuErrorMessage;
        if (why.isEmpty())
            why = tr("the runner found no usable GPU");
        emit runnerStatusChanged(false, why);
    } else {
        // The roofline's measured roof. Jobs run in arrival order, so this one runs before the
        // first queued run; its events carry an id no run has, so they never touch the queue.
        send(protocol::toJson(
            protocol::CeilingsJob{QStringLiteral("ceilings-%1").arg(++m_ceilingsRequests), {}}));
        emit runnerStatusChanged(
            true,
            tr("%1 (%2, %3 SMs)").arg(ready.gpu->name, ready.gpu->arch).arg(ready.gpu->sms.value_or(0)));
    }
    // Without a GPU the runner still answers every job (with no_gpu), so the queue drains normally.
    dispatchNext();
}

void RunnerClient::runnerEnded(const RunnerEnd &end)
{
    m_cancelTimer->stop();
    if (end.startFailed) {
        m_state = State::Unavailable;
        m_unavailableReason = tr("runner unavailable: %1").arg(end.message);
        emit runnerStatusChanged(false, m_unavailableReason);
        for (const InFlight &job : std::exchange(m_inFlight, {}))
            failJob(job.request, protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
        m_cancelledJobs.clear();
        failAllQueued(protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
        return;
    }
    if (m_state == State::ShuttingDown || m_state == State::Stopped || m_state == State::Unavailable)
        return;
    // The oldest job in flight was running, unless a device fault already answered it (then the
    // runner was ending, by itself or by the watchdog); the ones sent after it never started and
    // go to the new runner, unless they were cancelled meanwhile.
    const bool faultAnswered = !m_faultMessage.isEmpty();
    QList<InFlight> sent = std::exchange(m_inFlight, {});
    const QStringList cancelled = std::exchange(m_cancelledJobs, {});
    if (!sent.isEmpty() && !faultAnswered) {
        const RunRequest running = sent.takeFirst().request;
        failJob(running, end.kind, end.message + tr(" The runner was restarted."));
    }
    QList<RunRequest> notStarted;
    for (const InFlight &job : sent) {
        if (cancelled.contains(job.request.jobId))
            failJob(job.request, protocol::ErrorKind::Cancelled, cancelledBeforeStart(job.request));
        else
            notStarted << job.request;
    }
    m_queue.requeueFront(notStarted);
    m_state = State::Stopped;
    if (++m_consecutiveRestarts > kMaxConsecutiveRestarts) {
        m_state = State::Unavailable;
        m_unavailableReason = tr("runner unavailable: it stopped %1 times in a row (%2)")
                                  .arg(m_consecutiveRestarts)
                                  .arg(end.message);
        emit runnerStatusChanged(false, m_unavailableReason);
        failAllQueued(protocol::ErrorKind::RunnerUnavailable, m_unavailableReason);
        return;
    }
    startProcess();
}

void RunnerClient::failJob(const RunRequest &request, protocol::ErrorKind kind, const QString &message)
{
    if (request.isProfile()) { // a profile is no run: it leaves no record behind
        emit profileFailed(request.jobId, protocol::errorKindName(kind), message);
        return;
    }
    protocol::ErrorEvent event;
    event.id = request.jobId;
    event.kind = kind;
    event.message = message;
    RunRecord record = fromErrorEvent(event, runOf(request)); // the client's own: nothing received
    record.presetKey = request.config.presetKey;
    stamp(record);
    emit runFailed(record);
}

void RunnerClient::failAllQueued(protocol::ErrorKind kind, const QString &message)
{
    for (const RunRequest &r : m_queue.takeAll())
        failJob(r, kind, message);
    if (m_inFlight.isEmpty())
        emit idle();
}

RunnerHost::RunnerHost(QString runnerPath, QObject *parent)
    : QObject(parent), m_client(new RunnerClient(std::move(runnerPath)))
{
    startThread();
}

RunnerHost::RunnerHost(const RunnerCommand &command, int window,
                       const std::optional<RunnerClient::Watchdog> &watchdog, QObject *parent)
    : QObject(parent), m_client(new RunnerClient(command.program))
{
    // Set before the client moves to its thread: nothing else touches it yet.
    m_client->setCommand(command);
    m_client->setWindow(window);
    if (watchdog)
        m_client->setWatchdog(*watchdog);
    startThread();
}

void RunnerHost::startThread()
{
    m_thread.setObjectName(QStringLiteral("gemmscope-runner-client"));
    m_client->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_client, &QObject::deleteLater);
    m_thread.start();
    QMetaObject::invokeMethod(m_client, &RunnerClient::start, Qt::QueuedConnection);
}

RunnerHost::~RunnerHost()
{
    QMetaObject::invokeMethod(m_client, &RunnerClient::shutdown, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace gemmscope
