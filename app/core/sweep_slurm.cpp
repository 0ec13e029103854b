#include "sweep_slurm.h"

#include <QRegularExpression>

namespace gemmscope {

namespace {

constexpr int kToolTimeoutMs = 10000;
constexpr int kSallocEndMs = 5000; // after scancel, salloc says "cancelled" and ends at once

// Runs a Slurm client tool; its exit status and what it wrote (stdout, stderr).
struct ToolRun {
    bool started = false, finished = false;
    int exitCode = -1;
    QString out, err;
};

ToolRun runTool(const QString &program, const QStringList &arguments, int timeoutMs)
{
    ToolRun r;
    QProcess p;
    p.start(program, arguments);
    r.started = p.waitForStarted(timeoutMs);
    if (!r.started) {
        r.err = p.errorString();
        return r;
    }
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(1000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

QString notFound(const QString &tool)
{
    return QObject::tr("%1 could not be started: Slurm's client commands are missing here (Debian: "
                       "apt-get install slurm-client munge).")
        .arg(tool);
}

} // namespace

RunnerCommand slurmStepCommand(const RunnerCommand &inner, const QString &jobId, const SlurmOptions &options)
{
    RunnerCommand step;
    step.program = QStringLiteral("srun");
    // One task on one node, only the CPUs (and GPUs) it asks for, so that the allocation's other
    // steps run beside it; --kill-on-bad-exit ends the step with its runner; --quiet keeps srun's
    // own chatter off the protocol's stderr.
    step.arguments = {QStringLiteral("--jobid=%1").arg(jobId),
                      QStringLiteral("--job-name=%1").arg(options.jobName),
                      QStringLiteral("--ntasks=1"),
                      QStringLiteral("--nodes=1"),
                      QStringLiteral("--exact"),
                      QStringLiteral("--kill-on-bad-exit=1"),
                      QStringLiteral("--quiet")};
    if (options.gpusPerRunner > 0)
        step.arguments << QStringLiteral("--gres=gpu:%1").arg(options.gpusPerRunner);
    step.arguments << QStringLiteral("--") << inner.program << inner.arguments;
    step.environment = inner.environment;
    step.host = inner.host;
    step.label =
        QStringLiteral("Slurm job %1: %2").arg(jobId, inner.label.isEmpty() ? inner.program : inner.label);
    return step;
}

QStringList slurmAllocationArguments(int runners, const SlurmOptions &options)
{
    QStringList args{QStringLiteral("--no-shell"), QStringLiteral("--job-name=%1").arg(options.jobName),
                     QStringLiteral("--ntasks=%1").arg(runners)};
    if (!options.partition.isEmpty())
        args << QStringLiteral("--partition=%1").arg(options.partition);
    if (options.gpusPerRunner > 0)
        args << QStringLiteral("--gpus-per-task=%1").arg(options.gpusPerRunner);
    if (!options.timeLimit.isEmpty())
        args << QStringLiteral("--time=%1").arg(options.timeLimit);
    return args;
}

QString slurmFailureSentence(const QString &tool, const QString &output)
{
    QStringList errors;
    for (const QString &line : output.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (line.contains(QLatin1String("error"), Qt::CaseInsensitive))
            errors << line.trimmed();
    if (errors.isEmpty() && !output.trimmed().isEmpty())
        errors << output.trimmed().split(QLatin1Char('\n')).last().trimmed();
    const QString said = errors.join(QStringLiteral(" | "));
    const auto has = [&](const char *words) {
        return said.contains(QLatin1String(words), Qt::CaseInsensitive);
    };
    QString cause;
    if (has("partition"))
        cause = QObject::tr("the partition does not exist on this cluster");
    else if (has("Unable to contact slurm controller") || has("Connection refused"))
        cause = QObject::tr("the Slurm controller (slurmctld) does not answer: the cluster is down, or "
                            "SLURM_CONF names another one");
    else if (has("munge") || has("authentication") || has("Zero Bytes were transmitted"))
        cause = QObject::tr("munge authentication failed: munged is not running here, or its key is not "
                            "the cluster's");
    else if (has("Invalid job id") || has("already completing or completed"))
        cause = QObject::tr("the Slurm job has ended (a time limit, or scancel)");
    else if (has("Requested node configuration is not available") || has("gres"))
        cause = QObject::tr("no node of the partition has what a runner asks for (CPUs or GPUs)");
    else
        cause = QObject::tr("Slurm refused the request");
    if (said.isEmpty())
        return QObject::tr("%1 failed: %2.").arg(tool, cause);
    return QObject::tr("%1 failed: %2. Slurm said: \"%3\"").arg(tool, cause, said);
}

std::optional<SlurmJobState> slurmJobState(const QString &jobId, int timeoutMs, QString *error)
{
    const ToolRun r = runTool(
        QStringLiteral("squeue"),
        {QStringLiteral("-h"), QStringLiteral("-j"), jobId, QStringLiteral("-o"), QStringLiteral("%T|%r")},
        timeoutMs);
    if (!r.started || r.exitCode != 0) {
        // squeue answers "Invalid job id specified" for a job the controller no longer knows.
        if (error && !(r.err.contains(QLatin1String("Invalid job id"))))
            *error = r.started ? slurmFailureSentence(QStringLiteral("squeue"), r.err)
                               : notFound(QStringLiteral("squeue"));
        return std::nullopt;
    }
    const QString line = r.out.trimmed();
    if (line.isEmpty())
        return std::nullopt;
    const QStringList parts = line.split(QLatin1Char('|'));
    return SlurmJobState{parts.value(0), parts.value(1)};
}

bool cancelSlurmJob(const QString &jobId, QString *error)
{
    const ToolRun r = runTool(QStringLiteral("scancel"), {jobId}, kToolTimeoutMs);
    if (r.started && r.exitCode == 0)
        return true;
    if (error)
        *error = r.started ? slurmFailureSentence(QStringLiteral("scancel"), r.err)
                           : notFound(QStringLiteral("scancel"));
    return false;
}

SlurmAllocation::SlurmAllocation(SlurmOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &SlurmAllocation::poll);
}

SlurmAllocation::~SlurmAllocation()
{
    release();
}

void SlurmAllocation::request(int runners)
{
    const QString existing = qEnvironmentVariable("SLURM_JOB_ID");
    if (!existing.isEmpty()) {
        // Inside an allocation (a batch job, an salloc shell): its steps, as srun would.
        m_jobId = existing;
        m_done = true;
        QMetaObject::invokeMethod(
            this, [this] { emit granted(m_jobId); }, Qt::QueuedConnection);
        return;
    }
    m_own = true;
    m_salloc = new QProcess(this);
    connect(m_salloc, &QProcess::readyReadStandardError, this, &SlurmAllocation::readSallocOutput);
    connect(m_salloc, &QProcess::finished, this, &SlurmAllocation::sallocFinished);
    connect(m_salloc, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && !m_done) {
            m_done = true;
            emit failed(notFound(QStringLiteral("salloc")));
        }
    });
    m_salloc->start(QStringLiteral("salloc"), slurmAllocationArguments(runners, m_options));
}

void SlurmAllocation::readSallocOutput()
{
    m_output += QString::fromLocal8Bit(m_salloc->readAllStandardError());
    static const QRegularExpression job(QStringLiteral("(?:Pending|Granted) job allocation (\\d+)"));
    const QRegularExpressionMatch m = job.match(m_output);
    if (m.hasMatch() && m_jobId.isEmpty()) {
        m_jobId = m.captured(1);
        if (m_output.contains(QLatin1String("Pending job allocation"))) {
            emit waiting(m_jobId, tr("queued"));
            m_poll.start();
        }
    }
}

void SlurmAllocation::poll()
{
    if (m_done || m_jobId.isEmpty() || m_squeue)
        return;
    m_squeue = new QProcess(this);
    connect(m_squeue, &QProcess::finished, this, [this] {
        const QString line = QString::fromLocal8Bit(m_squeue->readAllStandardOutput()).trimmed();
        m_squeue->deleteLater();
        m_squeue = nullptr;
        if (!m_done && !line.isEmpty())
            emit waiting(m_jobId, line);
    });
    m_squeue->start(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-j"), m_jobId,
                                               QStringLiteral("-o"), QStringLiteral("%r")});
}

void SlurmAllocation::sallocFinished(int exitCode, QProcess::ExitStatus status)
{
    readSallocOutput();
    m_poll.stop();
    if (m_done)
        return;
    m_done = true;
    const bool granted_ = status == QProcess::NormalExit && exitCode == 0 &&
                          m_output.contains(QLatin1String("Granted job allocation")) && !m_jobId.isEmpty();
    if (granted_) {
        emit granted(m_jobId);
        return;
    }
    m_jobId.clear(); // nothing of ours is left in the queue
    emit failed(slurmFailureSentence(QStringLiteral("salloc"), m_output));
}

void SlurmAllocation::release()
{
    if (m_released)
        return;
    m_released = true;
    m_done = true;
    m_poll.stop();
    if (!m_own)
        return;
    if (!m_jobId.isEmpty())
        cancelSlurmJob(m_jobId);
    if (m_salloc && m_salloc->state() != QProcess::NotRunning) {
        m_salloc->disconnect(this);
        // Pending without an id yet (salloc had not printed it): salloc cancels what it asked for
        // when it is interrupted.
        if (m_jobId.isEmpty())
            m_salloc->terminate();
        if (!m_salloc->waitForFinished(kSallocEndMs)) {
            m_salloc->kill();
            m_salloc->waitForFinished(1000);
        }
    }
    if (m_squeue) {
        m_squeue->kill();
        m_squeue->waitForFinished(1000);
    }
}

} // namespace gemmscope
