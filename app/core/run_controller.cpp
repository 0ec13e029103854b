#include "run_controller.h"

#include "profile_controller.h"
#include "run_record.h"
#include "runner_client.h"
#include "session.h"

#include <QDateTime>

namespace gemmscope {

RunController::RunController(Session *session, QObject *parent)
    : QObject(parent), m_session(session), m_profiles(new ProfileController(session, this))
{
}

RunController::~RunController()
{
    delete m_host;
    m_host = nullptr;
}

void RunController::startRunner(const QString &runnerPath)
{
    if (m_host)
        return;
    m_host = new RunnerHost(runnerPath, this);
    RunnerClient *c = m_host->client();
    connect(c, &RunnerClient::runnerStatusChanged, this, &RunController::runnerStatusChanged);
    connect(c, &RunnerClient::resultAvailable, this, &RunController::onResult);
    connect(c, &RunnerClient::runFailed, this, &RunController::onFailed);
    connect(c, &RunnerClient::ceilingsAvailable, this, [this](const protocol::CeilingsEvent &ceilings) {
        m_session->setCeilings(ceilings.gpu.name, ceilingsEntry(ceilings, QStringLiteral("measured")));
    });
    connect(c, &RunnerClient::jobsReplaced, this, [this](const QStringList &ids) {
        for (const QString &id : ids)
            m_session->removeRun(id);
    });
    m_profiles->attach(c);
    connect(c, &RunnerClient::progress, this,
            [this](const QString &id, protocol::ProgressPhase phase, int done, int total) {
                if (!m_profiles->isPending(id)) // a profile's progress is the ProfileController's
                    emit progress(id, phase, done, total);
            });
    connect(c, &RunnerClient::preliminaryMedian, this,
            [this](const QString &id, double medianMs, int timedSoFar) {
                // Into the run's row (marked preliminary) at most a few times a second.
                if (!m_preliminaryThrottle.isValid() || m_preliminaryThrottle.elapsed() >= 250) {
                    m_preliminaryThrottle.start();
                    if (const RunRecord *r = m_session->find(id); r && r->status == RunStatus::Running) {
                        RunRecord running = *r;
                        running.preliminaryMedianMs = medianMs;
                        m_session->addOrUpdate(running);
                    }
                }
                emit preliminaryMedian(id, medianMs, timedSoFar);
            });
    connect(c, &RunnerClient::runStarted, this, [this](const QString &id) {
        if (m_profiles->isPending(id))
            return; // a profile, not a run
        if (const RunRecord *r = m_session->find(id)) {
            RunRecord running = *r;
            running.status = RunStatus::Running;
            m_session->addOrUpdate(running);
        }
        emit runStarted(id);
    });
    connect(c, &RunnerClient::idle, this, &RunController::idle);
}

RunnerClient *RunController::client() const
{
    return m_host ? m_host->client() : nullptr;
}

void RunController::addQueued(const QString &jobId, const RunRequest &request)
{
    RunRecord pending = recordOfRequest(request.toRunJob());
    pending.runId = jobId;
    pending.presetKey = request.config.presetKey;
    pending.timestamp = QDateTime::currentDateTimeUtc();
    m_session->addOrUpdate(pending);
}

QString RunController::runCurrent(const RunConfig &config)
{
    if (!m_host)
        return {};
    RunRequest request;
    request.tag = kInteractiveTag;
    request.config = config;
    const QString id = m_host->client()->submit(request);
    request.jobId = id;
    addQueued(id, request);
    return id;
}

QStringList RunController::runLadder(const ProblemSize &size, const TimingOptions &timing)
{
    QStringList ids;
    if (!m_host)
        return ids;
    for (RunRequest request : ladderRequests(size, timing)) {
        const QString id = m_host->client()->submit(request);
        request.jobId = id;
        addQueued(id, request);
        ids << id;
    }
    m_pendingLadder += ids;
    return ids;
}

void RunController::cancelAll()
{
    if (m_host)
        m_host->client()->cancelAll();
}

void RunController::finishLadderJob(const QString &jobId)
{
    if (m_pendingLadder.removeAll(jobId) && m_pendingLadder.isEmpty())
        emit ladderFinished();
}

void RunController::onResult(const RunRecord &record)
{
    m_session->addOrUpdate(record);
    emit runFinished(record);
    finishLadderJob(record.runId);
}

void RunController::onFailed(const RunRecord &record)
{
    // A run cancelled before it started never ran: it leaves no row behind.
    const RunRecord *known = m_session->find(record.runId);
    if (record.errorKind == protocol::errorKindName(protocol::ErrorKind::Cancelled) && record.registers < 0 &&
        known && known->status == RunStatus::Queued)
        m_session->removeRun(record.runId);
    else
        m_session->addOrUpdate(record);
    emit runFinished(record);
    finishLadderJob(record.runId);
}

std::optional<MeasuredCeilings> RunController::measuredCeilings() const
{
    const QMap<QString, StoredCeilings> &ceilings = m_session->data().ceilings;
    const QList<RunRecord> &runs = m_session->runs();
    for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
        const auto stored = ceilings.constFind(it->gpuName);
        if (stored == ceilings.constEnd())
            continue;
        MeasuredCeilings c;
        c.gpuName = it->gpuName;
        c.fmaTflops = stored->fmaTflops;
        c.dramGbs = stored->dramGbs;
        c.measuredAt = stored->measuredAt;
        c.recorded = stored->isRecorded();
        c.tf32Tflops = stored->tf32Tflops.value_or(0);
        c.tf32Kernel = stored->tf32Kernel;
        c.l2Gbs = stored->l2Gbs.value_or(0);
        c.sharedGbs = stored->sharedGbs.value_or(0);
        return c;
    }
    return std::nullopt;
}

} // namespace gemmscope
