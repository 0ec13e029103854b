#include "sweep_run.h"

#include "runner_locator.h"
#include "sweep_journals.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>

namespace gemmscope {

SweepRun::SweepRun(SweepData sweep, Options options, QObject *parent)
    : QObject(parent), m_sweep(std::move(sweep)), m_options(std::move(options))
{
    qRegisterMetaType<gemmscope::RunRecord>();
}

SweepRun::~SweepRun()
{
    m_running = false;
    stopRunnersNow();
    m_journal.close();
    m_journalLock.reset(); // after the journal's last line
}

bool SweepRun::start(QString *error)
{
    QString sink;
    QString &why = error ? *error : sink;
    if (m_running) {
        why = tr("The sweep is already running.");
        return false;
    }
    m_plan = planSweep(m_sweep.spec);
    if (!m_plan.ok()) {
        why = QString::fromStdString(m_plan.error);
        return false;
    }
    if (const std::optional<QString> problem = runnerPoolProblem(m_options.runners.size())) {
        why = *problem;
        return false;
    }
    if (!m_options.journalPath.isEmpty() && !openJournal(why))
        return false;
    QList<RunnerCommand> commands = m_options.runners;
    if (commands.isEmpty()) {
        const RunnerLocation location = locateRunner();
        if (!location.found()) {
            why = tr("No runner: %1").arg(location.whyNot);
            return false;
        }
        RunnerCommand local;
        local.program = location.path;
        local.label = location.path;
        commands << local;
    }
    const int window = m_options.window > 0 ? m_options.window : std::max(2, 2 * QThread::idealThreadCount());

    m_todo = unfinishedPoints(m_plan, m_sweep.runs);
    m_total = int(m_todo.size());
    m_answered = 0;
    m_attempts.clear();
    m_sent.clear();
    m_cancelled = false;
    m_running = true;
    m_wall.start();
    m_runners.clear();
    emit progressChanged(0, m_total, -1);
    if (m_options.slurm) {
        requestAllocation(commands, window);
        return true;
    }
    startRunners(commands, window);
    finishIfDone();
    return true;
}

void SweepRun::requestAllocation(const QList<RunnerCommand> &commands, int window)
{
    m_allocation = std::make_unique<SlurmAllocation>(*m_options.slurm);
    connect(m_allocation.get(), &SlurmAllocation::waiting, this,
            [this](const QString &job, const QString &reason) {
                emit schedulerStatusChanged(tr("waiting for Slurm: %1 (job %2)").arg(reason, job));
            });
    connect(m_allocation.get(), &SlurmAllocation::failed, this, [this](const QString &sentence) {
        emit schedulerFailed(sentence);
        m_todo.clear();
        m_cancelled = true;
        finishIfDone();
    });
    connect(m_allocation.get(), &SlurmAllocation::granted, this,
            [this, commands, window](const QString &job) {
                if (!m_running || m_cancelled)
                    return;
                QList<RunnerCommand> steps;
                for (const RunnerCommand &c : commands)
                    steps << slurmStepCommand(c, job, *m_options.slurm);
                emit schedulerStatusChanged(
                    tr("Slurm job %1: %n runner(s) as job steps", nullptr, int(steps.size())).arg(job));
                startRunners(steps, window);
                finishIfDone();
            });
    m_allocation->request(int(commands.size()));
}

void SweepRun::startRunners(const QList<RunnerCommand> &commands, int window)
{
    m_runners.resize(std::size_t(commands.size()));
    for (int i = 0; i < commands.size(); ++i) {
        Runner &r = m_runners[std::size_t(i)];
        r.host = std::make_unique<RunnerHost>(commands[i], window, m_options.watchdog);
        RunnerClient *client = r.host->client();
        connect(client, &RunnerClient::resultAvailable, this,
                [this, i](const RunRecord &run) { onAnswered(i, run); });
        connect(client, &RunnerClient::runFailed, this,
                [this, i](const RunRecord &run) { onAnswered(i, run); });
        connect(client, &RunnerClient::runnerStatusChanged, this,
                [this, i](bool available, const QString &reason) {
                    emit runnerStatusChanged(i, available, reason);
                });
    }
    for (int i = 0; i < int(m_runners.size()); ++i) {
        // The baseline first: this GPU's 100 %. A size sweep has none: cuBLAS is one of its
        // series when the user asks for it, at every size.
        if (m_sweep.spec.kind == SweepKind::Grid) {
            const RunRequest baseline = baselineRequest();
            const QString id = m_runners[std::size_t(i)].host->client()->submit(baseline);
            m_sent.insert(id, {i, -1});
            ++m_runners[std::size_t(i)].inFlight;
        }
        fill(i);
    }
}

// Ends every runner now, answered or not, and gives the Slurm allocation back: what they had not
// answered is simply not in the journal, so that Resume sends it again.
void SweepRun::stopRunnersNow()
{
    for (Runner &r : m_runners)
        if (r.host)
            r.host->client()->disconnect(this);
    // The steps end with their job; the runners' hosts then find them gone at once.
    if (m_allocation)
        m_allocation->release();
    m_runners.clear(); // each RunnerHost quits its runner
    m_sent.clear();
}

bool SweepRun::openJournal(QString &why)
{
    const QString &path = m_options.journalPath;
    QDir().mkpath(QFileInfo(path).absolutePath()); // the lock lives beside the journal
    m_journalLock = lockSweepJournal(path, &why);
    if (!m_journalLock)
        return false;
    bool exists = QFileInfo::exists(path) || QFileInfo(path).isSymLink();
    if (exists && !m_options.archiveDirectory.isEmpty()) {
        // Another run of the same plan (its own id) is set aside whole, never appended to.
        const std::optional<SweepData> header = SweepJournal::readHeader(path);
        if (header && header->id != m_sweep.id) {
            if (archiveSweepJournal(path, m_options.archiveDirectory, &why).isEmpty()) {
                m_journalLock.reset();
                return false;
            }
            exists = false;
        }
    }
    if (!(exists ? m_journal.openForAppend(path, &why) : m_journal.create(path, m_sweep, &why))) {
        m_journalLock.reset();
        return false;
    }
    return true;
}

RunRequest SweepRun::requestFor(int point) const
{
    RunRequest r;
    r.tag = kSweepTag;
    const SweepPoint &p = m_plan.points[std::size_t(point)];
    r.config.stage = p.stage;
    r.config.params = p.params;
    r.config.size = p.size;
    r.config.timing.budgetMs = m_sweep.spec.budgetMs;
    r.config.timing.flushL2 = m_sweep.spec.flushL2;
    r.config.timing.counters = false; // a sweep times; counters would double each point's GPU time
    return r;
}

RunRequest SweepRun::baselineRequest() const
{
    RunRequest r;
    r.tag = kSweepTag;
    r.config.stage = StageId::CublasFp32;
    r.config.size = m_sweep.spec.size;
    r.config.timing.budgetMs = m_sweep.spec.budgetMs;
    r.config.timing.flushL2 = m_sweep.spec.flushL2;
    r.config.timing.counters = false;
    return r;
}

void SweepRun::fill(int runner)
{
    Runner &r = m_runners[std::size_t(runner)];
    if (r.dead || m_cancelled)
        return;
    const int window = std::max(1, r.host->client()->window());
    while (r.inFlight < window && !m_todo.isEmpty()) {
        const int point = m_todo.takeFirst();
        const QString id = r.host->client()->submit(requestFor(point));
        m_sent.insert(id, {runner, point});
        ++r.inFlight;
    }
}

void SweepRun::onAnswered(int runner, const RunRecord &run)
{
    const auto it = m_sent.constFind(run.runId);
    if (it == m_sent.constEnd() || it->runner != runner)
        return; // not one of ours (a ceilings job has no record; nothing else is sent)
    const Sent sent = *it;
    m_sent.erase(it);
    Runner &r = m_runners[std::size_t(runner)];
    --r.inFlight;

    // Into the sweep and onto the disk first: from here on the run cannot be lost.
    m_sweep.runs.append(run);
    bool journalFailed = false;
    if (m_journal.isOpen()) {
        QString why;
        if (!m_journal.append(run, &why)) {
            // What cannot be journaled could be lost to kill -9: no further point is sent.
            journalFailed = true;
            m_journal.close();
            emit journalError(why);
        }
    }
    if (sent.point >= 0)
        ++m_answered;

    const QString kind = run.errorKind;
    const bool runnerGone = kind == protocol::errorKindName(protocol::ErrorKind::RunnerUnavailable) ||
                            kind == protocol::errorKindName(protocol::ErrorKind::NoGpu);
    if (runnerGone)
        r.dead = true;
    // A point the runner (not the configuration) failed goes back for another runner or attempt.
    // One its runner never started (the runner, or its node or Slurm step, is gone) was no
    // attempt: it goes to the runners left however often that happens.
    if (sent.point >= 0 && !isFinishedRun(run) && !m_cancelled &&
        kind != protocol::errorKindName(protocol::ErrorKind::Cancelled) &&
        (runnerGone || ++m_attempts[sent.point] < m_options.attemptsPerPoint) &&
        std::any_of(m_runners.begin(), m_runners.end(), [](const Runner &x) { return !x.dead; })) {
        m_todo.prepend(sent.point);
        --m_answered;
    }
    emit runAnswered(run, sent.point);
    emit progressChanged(m_answered, m_total, etaSeconds());
    if (journalFailed) {
        cancel();
        return;
    }
    for (int i = 0; i < int(m_runners.size()); ++i)
        fill((runner + i) % int(m_runners.size()));
    finishIfDone();
}

double SweepRun::etaSeconds() const
{
    if (m_answered <= 0 || !m_wall.isValid())
        return -1;
    return wallSeconds() / m_answered * (m_total - m_answered);
}

void SweepRun::cancel()
{
    if (!m_running)
        return;
    m_cancelled = true;
    m_todo.clear();
    if (m_allocation) {
        // Slurm: nothing may keep a job in the queue or a step on a GPU after Cancel.
        stopRunnersNow();
        emit schedulerStatusChanged(tr("Slurm job cancelled"));
    }
    for (Runner &r : m_runners)
        r.host->client()->cancelAll();
    finishIfDone();
}

void SweepRun::finishIfDone()
{
    if (!m_running)
        return;
    const bool allDead =
        std::all_of(m_runners.begin(), m_runners.end(), [](const Runner &r) { return r.dead; });
    if (allDead)
        m_todo.clear();
    if (!m_sent.isEmpty() || !m_todo.isEmpty())
        return;
    m_running = false;
    m_journal.close();
    if (m_allocation)
        m_allocation->release(); // nothing of the sweep's stays in the queue
    const bool stopped = m_cancelled || allDead;
    emit finished(stopped);
    // Every point answered: the sweep is in its session now (finished() put it there), so its
    // journal is set aside and no later start reads it again.
    if (!stopped && !m_options.archiveDirectory.isEmpty() && !m_options.journalPath.isEmpty() &&
        unfinishedPoints(m_plan, m_sweep.runs).isEmpty()) {
        QString why;
        if (archiveSweepJournal(m_options.journalPath, m_options.archiveDirectory, &why).isEmpty())
            emit journalError(why);
    }
    m_journalLock.reset();
}

} // namespace gemmscope
