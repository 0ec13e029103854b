#include "sweep_controller.h"

#include "runner_command.h"
#include "runner_locator.h"
#include "session.h"
#include "sweep_journals.h"
#include "sweep_run.h"

#include <QStandardPaths>

namespace gemmscope {

struct SweepController::Words {
    QString running;             // %1 points, %2 runners
    QString stopped;             // %1 seconds, %2 points left
    QString noneShown;           // Resume with nothing shown
    QString nothingLeft;         // Resume of a finished sweep
    QString alreadyRunning;      // a second start
    const char *unfinishedFound; // %n sweeps, %1 the folder (tr() at use: a plural)
};

const SweepController::Words &SweepController::words() const
{
    static const Words grid{
        tr("Running %1 parameter sets on %2 runner(s)…"),
        tr("Stopped after %1 s: %2 parameter sets not run yet (Resume continues)."),
        tr("No sweep is shown to resume."),
        tr("Every parameter set of this sweep has finished; nothing to resume."),
        tr("A sweep is already running."),
        QT_TR_NOOP("%n unfinished sweep(s) found in %1 (the Shown list): Resume continues the shown one.")};
    static const Words sizes{
        tr("Running %1 sizes × stages on %2 runner(s)…"),
        tr("Stopped after %1 s: %2 runs not done yet (Resume continues)."),
        tr("No size sweep is shown to resume."),
        tr("Every size of this sweep has finished; nothing to resume."),
        tr("A size sweep is already running."),
        QT_TR_NOOP(
            "%n unfinished size sweep(s) found in %1 (the Shown list): Resume continues the shown one.")};
    return m_kind == SweepKind::Sizes ? sizes : grid;
}

SweepController::SweepController(Session *session, SweepKind kind, QObject *parent)
    : SweepControl(parent), m_session(session), m_kind(kind)
{
    updateStartOff();
    setJournalDirectory(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                        QStringLiteral("/sweeps"));
}

SweepController::~SweepController()
{
    if (m_run) // the SweepRun stops its runners; its runs are journaled
        m_run->disconnect(this);
}

void SweepController::setJournalDirectory(const QString &dir)
{
    m_journalDir = dir;
    if (!m_session)
        return;
    // Sweeps a crash left unfinished (the GUI killed before its autosave held their runs): into
    // the session, offered for Resume. The folder is read once, off this thread.
    SweepJournalFolder::of(dir)->whenScanned(this, [this, dir](const JournalFolderScan &found) {
        if (m_journalDir != dir)
            return; // another folder was chosen meanwhile
        const JournalScan scan = applyJournalScan(*m_session, found);
        int mine = 0;
        for (const SweepData &s : m_session->sweeps())
            mine += s.spec.kind == m_kind && scan.unfinished.contains(s.id);
        if (mine > 0)
            setStatus(tr(words().unfinishedFound, nullptr, mine).arg(dir));
    });
}

void SweepController::setRunners(const QString &runnerTemplate, int count)
{
    m_template = runnerTemplate;
    m_runnerCount = count;
    updateStartOff();
}

void SweepController::setSlurm(bool on)
{
    m_slurm = on;
    updateStartOff();
}

void SweepController::setRunningOff(const QString &why)
{
    m_runningOff = why;
    updateStartOff();
}

void SweepController::updateStartOff()
{
    // Through Slurm the runners run on the cluster's GPUs: this machine's having none stops nothing.
    const QString why = startOffReason(m_template, m_slurm ? QString() : m_runningOff);
    if (why == m_startOff)
        return;
    m_startOff = why;
    emit startOffChanged(why);
}

void SweepController::setStatus(const QString &sentence)
{
    m_status = sentence;
    emit statusChanged(sentence);
}

bool SweepController::start(const SweepSpec &spec, QString *error)
{
    QString sink;
    QString &why = error ? *error : sink;
    if (!m_startOff.isEmpty()) {
        why = m_startOff;
        return false;
    }
    SweepData sweep;
    sweep.id = newSweepId();
    sweep.spec = spec;
    sweep.created = QDateTime::currentDateTimeUtc();
    if (const SweepPlan plan = planSweep(sweep.spec); !plan.ok()) {
        why = QString::fromStdString(plan.error);
        return false;
    }
    return launch(sweep, &why);
}

bool SweepController::resume(const SweepData *shown, QString *error)
{
    QString sink;
    QString &why = error ? *error : sink;
    if (!m_startOff.isEmpty()) {
        why = m_startOff;
        return false;
    }
    if (!shown) {
        why = words().noneShown;
        return false;
    }
    const SweepData sweep =
        withJournaledRuns(*shown, SweepJournalFolder::of(m_journalDir)->journalPathFor(*shown));
    if (unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty()) {
        why = words().nothingLeft;
        return false;
    }
    return launch(sweep, &why);
}

bool SweepController::launch(const SweepData &sweep, QString *error)
{
    if (isRunning()) {
        *error = words().alreadyRunning;
        return false;
    }
    const RunnerLocation location = locateRunner();
    const auto commands =
        runnerCommandsPerGpu(m_template, m_runnerCount, location.found() ? location.path : QString(), error);
    if (!commands)
        return false;
    const SweepJournalFolder *folder = SweepJournalFolder::of(m_journalDir);
    SweepRun::Options options;
    options.runners = *commands;
    // Created (with the runs so far) and locked by the run; named by the plan, never by the id.
    options.journalPath = folder->journalPathFor(sweep);
    options.archiveDirectory = folder->archiveDirectory();
    if (m_slurm) {
        SlurmOptions slurm;
        slurm.gpusPerRunner = 1;
        options.slurm = slurm;
    }
    m_run = std::make_unique<SweepRun>(sweep, options);
    connect(m_run.get(), &SweepRun::runAnswered, this, [this](const RunRecord &run) {
        if (!m_run)
            return;
        // The new run alone (autosaved within a second): handing the session the whole sweep
        // again would copy every run it has at each answer. A session opened meanwhile lacks the
        // sweep: it gets it whole, once.
        if (m_session && !m_session->addSweepRun(m_run->sweep().id, run))
            m_session->setSweep(m_run->sweep());
        emit runningSweepChanged();
    });
    connect(m_run.get(), &SweepRun::finished, this, [this](bool cancelled) {
        if (m_launching)
            m_endedInLaunch = cancelled; // handled once start() has returned
        else
            onFinished(cancelled);
    });
    connect(m_run.get(), &SweepRun::journalError, this, &SweepController::setStatus);
    // "waiting for Slurm: Priority (job 12)" instead of a sweep that looks hung; Slurm's refusal.
    connect(m_run.get(), &SweepRun::schedulerStatusChanged, this, &SweepController::setStatus);
    connect(m_run.get(), &SweepRun::schedulerFailed, this, &SweepController::setStatus);
    connect(m_run.get(), &SweepRun::runnerStatusChanged, this,
            [this](int runner, bool available, const QString &why) {
                if (!available)
                    setStatus(tr("Runner %1: %2").arg(runner + 1).arg(why));
            });
    connect(m_run.get(), &SweepRun::progressChanged, this, &SweepController::progressChanged);
    m_launching = true;
    m_endedInLaunch.reset();
    const bool started = m_run->start(error);
    m_launching = false;
    if (!started) {
        m_run.reset();
        return false;
    }
    if (m_session) {
        // The session's copy of the runs, apart from the run's from here on: each then takes the
        // new runs one by one (sharing them, the first append would copy them all at an answer).
        SweepData held = m_run->sweep();
        held.runs.detach();
        m_session->setSweep(held, true);
    }
    setStatus(words().running.arg(m_run->pointsToRun()).arg(m_run->runnerCount()));
    emit runningChanged(true);
    if (m_endedInLaunch)
        onFinished(*m_endedInLaunch);
    return true;
}

void SweepController::cancel()
{
    if (m_run)
        m_run->cancel();
}

bool SweepController::isRunning() const
{
    return m_run && m_run->isRunning();
}

const SweepData *SweepController::runningSweep() const
{
    return isRunning() ? &m_run->sweep() : nullptr;
}

void SweepController::onFinished(bool cancelled)
{
    if (!m_run)
        return;
    const SweepData sweep = m_run->sweep();
    const int left = int(unfinishedPoints(planSweep(sweep.spec), sweep.runs).size());
    const double seconds = m_run->wallSeconds();
    // Not deleted from inside its own signal; a journal error it reports after this still reaches
    // the status line.
    m_run.release()->deleteLater();
    setStatus(cancelled || left > 0 ? words().stopped.arg(seconds, 0, 'f', 1).arg(left)
                                    : tr("Finished in %1 s.").arg(seconds, 0, 'f', 1));
    if (m_session)
        m_session->setSweep(sweep, true);
    emit sweepEnded(sweep);
    emit runningChanged(false);
}

SweepData SweepController::withJournaledRuns(const SweepData &sweep, const QString &journalPath)
{
    if (const auto journal = SweepJournal::read(journalPath);
        journal && journal->id == sweep.id && journal->runs.size() > sweep.runs.size())
        return *journal;
    return sweep;
}

QString SweepController::startOffReason(const QString &runnerTemplate, const QString &runningOff)
{
    QString why = runnerMissingReason(runnerTemplate);
    if (why.isEmpty() && !runningOff.isEmpty() && runnerTemplate.contains(QLatin1String("{runner}")))
        why = tr("Start is off: %1").arg(runningOff);
    return why;
}

QString SweepController::runnerMissingReason(const QString &runnerTemplate)
{
    if (!runnerTemplate.contains(QLatin1String("{runner}")))
        return {}; // ssh, srun or a script: whether it answers is for the run to find out
    const RunnerLocation location = locateRunner();
    if (location.found())
        return {};
    return tr("Start is off: there is no GPU runner on this machine (%1). A recorded sweep can still be "
              "shown. To measure, run GemmScope where gemmscope-runner is built for an NVIDIA GPU, or give "
              "a runner template that reaches one (ssh HOST gemmscope-runner).")
        .arg(location.whyNot);
}

} // namespace gemmscope
