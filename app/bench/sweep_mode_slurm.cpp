// gemmscope-bench --sweep --slurm --detach and --sweep-status: a sweep that runs as a Slurm batch
// job while nothing of GemmScope runs on this machine, and what it has done so far.
#include "sweep_mode.h"

#include "sweep_journals.h"
#include "sweep_record.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

namespace gemmscope::bench {

namespace {

void say(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stdout);
    std::fflush(stdout);
}

void complain(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

// A word for sh, quoted: nothing in it is expanded.
QString shellWord(const QString &word)
{
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// The bench's arguments for the job: the same sweep, without --detach and --journal (the job's
// journal is given at its end).
QStringList jobArguments(const QStringList &benchArguments)
{
    QStringList kept;
    for (int i = 0; i < benchArguments.size(); ++i) {
        const QString &a = benchArguments[i];
        if (a == QLatin1String("--detach") || a.startsWith(QLatin1String("--journal=")))
            continue;
        if (a == QLatin1String("--journal")) {
            ++i; // and its value
            continue;
        }
        kept << a;
    }
    return kept;
}

QString detachedJournalName(const QString &jobId)
{
    return QStringLiteral("slurm-%1.gsweep").arg(jobId);
}

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1); // async-signal-safe
}

} // namespace

std::unique_ptr<QObject> cancelOnSignals(std::function<void()> cancel)
{
    auto owner = std::make_unique<QObject>();
    if (g_signalPipe[0] < 0 && ::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return owner;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, owner.get());
    QObject::connect(notifier, &QSocketNotifier::activated, owner.get(), [cancel = std::move(cancel)] {
        char byte;
        [[maybe_unused]] const ssize_t n = ::read(g_signalPipe[0], &byte, 1);
        complain(
            QStringLiteral("Cancelling: the Slurm job is cancelled, every answered run is in the journal."));
        cancel();
    });
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    QObject::connect(owner.get(), &QObject::destroyed, [] {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    });
    return owner;
}

QString detachedJournalDirectory()
{
    // The GUI's QStandardPaths::AppDataLocation (organization and application "GemmScope") +
    // "sweeps": the folder its Sweep tab scans at start.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("GemmScope/GemmScope/sweeps"));
}

int submitDetachedSweep(const SweepBenchOptions &options, int runners, const QStringList &benchArguments)
{
    const SlurmOptions &slurm = *options.slurm;
    const QString directory = detachedJournalDirectory();
    if (!QDir().mkpath(directory)) {
        complain(QStringLiteral("Could not make the journal folder %1.").arg(directory));
        return 1;
    }
    // The journal's name holds the job's id, which the job knows and this process learns only from
    // sbatch: so it is named by the job itself, and two detached sweeps never share one.
    const QString journal = !options.journalPath.isEmpty()
                                ? shellWord(QFileInfo(options.journalPath).absoluteFilePath())
                                : shellWord(QDir(directory).filePath(QStringLiteral("slurm-"))) +
                                      QStringLiteral("\"$SLURM_JOB_ID\"'.gsweep'");
    QStringList words{shellWord(QCoreApplication::applicationFilePath())};
    for (const QString &a : jobArguments(benchArguments))
        words << shellWord(a);
    words << QStringLiteral("--journal") << journal;
    const QByteArray script = QStringLiteral("#!/bin/sh\n"
                                             "# A GemmScope sweep: its runners are steps of this job.\n"
                                             "exec %1\n")
                                  .arg(words.join(QLatin1Char(' ')))
                                  .toUtf8();
    QStringList args{
        QStringLiteral("--parsable"), QStringLiteral("--job-name=%1").arg(slurm.jobName),
        QStringLiteral("--ntasks=%1").arg(runners),
        QStringLiteral("--output=%1").arg(QDir(directory).filePath(QStringLiteral("slurm-%j.log")))};
    if (!slurm.partition.isEmpty())
        args << QStringLiteral("--partition=%1").arg(slurm.partition);
    if (slurm.gpusPerRunner > 0)
        args << QStringLiteral("--gpus-per-task=%1").arg(slurm.gpusPerRunner);
    if (!slurm.timeLimit.isEmpty())
        args << QStringLiteral("--time=%1").arg(slurm.timeLimit);
    QProcess sbatch;
    sbatch.start(QStringLiteral("sbatch"), args); // the script on its stdin
    if (!sbatch.waitForStarted(10000)) {
        complain(QStringLiteral("sbatch could not be started: Slurm's client commands are missing here "
                                "(Debian: apt-get install slurm-client munge)."));
        return 1;
    }
    sbatch.write(script);
    sbatch.closeWriteChannel();
    if (!sbatch.waitForFinished(60000)) {
        sbatch.kill();
        sbatch.waitForFinished(1000);
    }
    const QString output = QString::fromLocal8Bit(sbatch.readAllStandardOutput()).trimmed();
    const QString jobId = output.section(QLatin1Char(';'), 0, 0);
    bool numeric = false;
    jobId.toLongLong(&numeric);
    if (sbatch.exitStatus() != QProcess::NormalExit || sbatch.exitCode() != 0 || !numeric) {
        complain(slurmFailureSentence(QStringLiteral("sbatch"),
                                      QString::fromLocal8Bit(sbatch.readAllStandardError())));
        return 1;
    }
    const QString journalPath = !options.journalPath.isEmpty()
                                    ? QFileInfo(options.journalPath).absoluteFilePath()
                                    : QDir(directory).filePath(detachedJournalName(jobId));
    say(QStringLiteral("Submitted Slurm job %1").arg(jobId));
    say(QStringLiteral("Journal: %1").arg(journalPath));
    say(QStringLiteral("Progress: gemmscope-bench --sweep-status %1; GemmScope merges the journal when "
                       "it starts.")
            .arg(jobId));
    return 0;
}

int printSweepStatus(const QString &jobId, const QString &journalPath)
{
    bool numeric = false;
    jobId.toLongLong(&numeric);
    if (!numeric) {
        complain(QStringLiteral("--sweep-status takes a Slurm job id (a number), not \"%1\".").arg(jobId));
        return 1;
    }
    QString path = journalPath;
    if (path.isEmpty()) {
        const QDir folder(detachedJournalDirectory());
        path = folder.filePath(detachedJournalName(jobId));
        if (!QFileInfo::exists(path)) {
            // Finished and merged: the GUI moved it into the archive.
            const QDir archive(journalArchiveDirectory(folder.path()));
            const QStringList moved =
                archive.entryList({QStringLiteral("slurm-%1*.gsweep").arg(jobId)}, QDir::Files);
            if (!moved.isEmpty())
                path = archive.filePath(moved.first());
        }
    }
    QString error;
    const std::optional<SlurmJobState> state = slurmJobState(jobId, 10000, &error);
    if (!error.isEmpty()) {
        complain(error);
        return 1;
    }
    say(state ? QStringLiteral("Slurm job %1: %2%3")
                    .arg(jobId, state->state,
                         state->reason.isEmpty() || state->reason == QLatin1String("None")
                             ? QString()
                             : QStringLiteral(" (waiting for Slurm: %1)").arg(state->reason))
              : QStringLiteral("Slurm job %1: no longer in the queue.").arg(jobId));
    if (!QFileInfo::exists(path)) {
        say(QStringLiteral("Journal %1: not written yet.").arg(path));
        return state ? 0 : 3;
    }
    const std::optional<SweepData> sweep = SweepJournal::read(path, &error);
    if (!sweep) {
        complain(error);
        return 1;
    }
    const SweepPlan plan = planSweep(sweep->spec);
    const int valid = int(plan.validPointCount());
    const int left = plan.ok() ? int(unfinishedPoints(plan, sweep->runs).size()) : valid;
    say(QStringLiteral("Journal %1: %2 of %3 points answered (%4).")
            .arg(path)
            .arg(valid - left)
            .arg(valid)
            .arg(sweep->title()));
    if (!state && left > 0)
        say(QStringLiteral("The job ended with %1 points left: run the same sweep with --journal %2 to "
                           "resume.")
                .arg(left)
                .arg(path));
    return !state && left > 0 ? 3 : 0;
}

} // namespace gemmscope::bench
