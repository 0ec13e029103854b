// The journal folder (app/core/sweep_journals.h) and the journal's own guards: a
// journal's name comes from its sweep's plan, never from an id read from a file, whatever the
// order of the plan's values; one writer per journal (a second window or process is refused with
// the holder's pid and host); the folder is read once, in a worker thread, and finished journals
// are archived; a journal stops at its size limit and refuses special files and symlinks.
#include "runner_command.h"
#include "session.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/small_sweep_spec.h"
#include "support/sweep_point_run.h"
#include "sweep_journals.h"
#include "sweep_run.h"
#include "sweep_view.h"

#include <QDir>
#include <QLockFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>
#include <QtTest>
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

// The scripted stand-in runner (tests/support/stand_in_runner.py).
#include "support/stand_in_runner.h"
static QString standInScript(const QString &)
{
    return gemmscope::test::standInRunnerPath();
}

using namespace gemmscope;

namespace {

RunRecord finishedRun(const SweepPoint &p, int n)
{
    RunRecord r;
    r.runId = QStringLiteral("run-%1").arg(n);
    test::setPointConfiguration(r, p);
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = 1.0 + n % 7;
    r.count = 5;
    r.tflops = p.size.tflopsAt(r.medianMs);
    r.host = QStringLiteral("fakehost");
    r.gpuUuid = QStringLiteral("GPU-fake-0");
    return r;
}

// The small sweep with its first `answered` valid points finished.
SweepData smallSweep(const QString &id, int answered)
{
    SweepData sweep;
    sweep.id = id;
    sweep.spec = smallSweepSpec();
    sweep.created = QDateTime::currentDateTimeUtc();
    const SweepPlan plan = planSweep(sweep.spec);
    int n = 0;
    for (const SweepPoint &p : plan.points)
        if (p.valid() && n < answered)
            sweep.runs << finishedRun(p, n++);
    return sweep;
}

// The small sweep finished, its runs repeated up to `lines` of journal: a long journal to read.
SweepData longFinishedSweep(const QString &id, int lines)
{
    SweepData sweep = smallSweep(id, 1000);
    const QList<RunRecord> once = sweep.runs;
    while (sweep.runs.size() < lines)
        sweep.runs += once;
    return sweep;
}

// Each file of `dir` (journals, lock files) by name, with its bytes.
QHash<QString, QByteArray> contentsOf(const QString &dir)
{
    QHash<QString, QByteArray> out;
    for (const QString &name : QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden)) {
        QFile f(QDir(dir).filePath(name));
        if (f.open(QIODevice::ReadOnly))
            out.insert(name, f.readAll());
    }
    return out;
}

int validPoints(const SweepSpec &spec)
{
    return int(planSweep(spec).validPointCount());
}

RunnerCommand standIn(const QString &script, const QMap<QString, QString> &env = {})
{
    RunnerCommand c;
    c.program = QStringLiteral("python3");
    c.arguments = {script};
    c.environment = env;
    c.label = QStringLiteral("stand-in");
    return c;
}

QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden, QDir::Name);
}

} // namespace

class TestSweepJournals : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_script = standInScript(m_dir.path());
    }

    // Item 4: --x-values 128,64 and 64,128 are one sweep, and one journal.
    void journalNameComesFromThePlanWhateverTheOrder()
    {
        SweepSpec a = smallSweepSpec();
        SweepSpec b = a;
        std::reverse(b.x.values.begin(), b.x.values.end());
        b.y.values.push_back(b.y.values.front()); // a repeated value too
        QVERIFY(!(a == b));
        QVERIFY(isSameSweep(a, b));
        QCOMPARE(sweepJournalFileName(a), sweepJournalFileName(b));
        QVERIFY(QRegularExpression(QStringLiteral("^sweep-[0-9a-f]{24}\\.gsweep$"))
                    .match(sweepJournalFileName(a))
                    .hasMatch());
        SweepSpec other = a;
        other.budgetMs += 1;
        QVERIFY(!isSameSweep(a, other));
        QVERIFY(sweepJournalFileName(a) != sweepJournalFileName(other));
        // Size sweeps: the same sizes and series in another order.
        SweepSpec sizes;
        sizes.kind = SweepKind::Sizes;
        sizes.series = {{StageId::CublasFp32, {}, "cublas_fp32"}, {StageId::Final, {{"BM", 128}}, "x"}};
        sizes.sizes = {{512, 512, 512}, {256, 256, 256}};
        SweepSpec sizes2 = sizes;
        std::reverse(sizes2.series.begin(), sizes2.series.end());
        std::reverse(sizes2.sizes.begin(), sizes2.sizes.end());
        QVERIFY(isSameSweep(sizes, sizes2));
        QCOMPARE(sweepJournalFileName(sizes), sweepJournalFileName(sizes2));
    }

    // Item 3: a sweep's id from a session file ("../../x") never becomes a path: Resume journals
    // inside the journal folder.
    void hostileIdNeverBecomesAPath()
    {
        if (m_script.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        const QString base = m_dir.filePath("hostile");
        const QString journals = base + QStringLiteral("/a/b/sweeps");
        QVERIFY(QDir().mkpath(journals));
        Session session;
        SweepData sweep = smallSweep(QStringLiteral("../../../escaped"), 3);
        session.setSweep(sweep);
        test::ControlledSweepView view(&session);
        view.setJournalDirectory(journals);
        view.setRunnerTemplate(QStringLiteral("python3 ") + m_script, 1);
        view.showSweep(sweep);
        QString error;
        QVERIFY2(view.resume(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 30000);
        // Nothing outside the folder: the old code wrote <journals>/../../../escaped.gsweep.
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/escaped.gsweep")));
        QCOMPARE(filesIn(base), QStringList());
        // The finished journal was archived inside the folder, under its plan's name.
        const QStringList archived = filesIn(journalArchiveDirectory(journals));
        QCOMPARE(archived, QStringList{sweepJournalFileName(sweep.spec)});
        const auto journal =
            SweepJournal::read(journalArchiveDirectory(journals) + "/" + archived.first(), &error);
        QVERIFY2(journal, qPrintable(error));
        QCOMPARE(journal->id, sweep.id); // the id is data in the file, never its name
        QCOMPARE(int(journal->runs.size()), validPoints(sweep.spec) + 1); // + the cuBLAS baseline
    }

    // Item 4: a second window on the same journal is refused with a sentence and damages nothing.
    void secondWindowOnTheSameJournalIsRefused()
    {
        if (m_script.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        const QString path = m_dir.filePath("two-windows.gsweep");
        SweepData sweep = smallSweep(QStringLiteral("sweep-two"), 2);
        SweepRun::Options options;
        options.journalPath = path;
        options.window = 1;
        options.runners << standIn(m_script, {{"FAKE_DELAY_S", "0.2"}});
        SweepRun first(sweep, options);
        QString error;
        QVERIFY2(first.start(&error), qPrintable(error));
        QSignalSpy answered(&first, &SweepRun::runAnswered);
        QVERIFY(answered.wait(30000));
        const QByteArray before = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();

        SweepRun second(sweep, options); // the other window, same sweep, same journal
        QVERIFY(!second.start(&error));
        QVERIFY2(error.contains(QStringLiteral("being resumed in another window of this GemmScope")) &&
                     error.contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(error));
        QVERIFY(!second.isRunning());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().startsWith(before)); // not truncated, nothing written by the second
        first.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!first.isRunning(), 30000);
        const auto journal = SweepJournal::read(path, &error);
        QVERIFY2(journal, qPrintable(error));
        QCOMPARE(journal->runs.size(), first.sweep().runs.size()); // every line intact, none twice

        // Once the first has stopped, the sweep may be resumed again.
        SweepRun third(first.sweep(), options);
        QVERIFY2(third.start(&error), qPrintable(error));
        third.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!third.isRunning(), 30000);
    }

    // Another process, on another host, holds the journal: its pid and host are named.
    void journalHeldByAnotherProcessNamesIt()
    {
        const QString path = m_dir.filePath("other-host.gsweep");
        QFile lock(path + QStringLiteral(".lock"));
        QVERIFY(lock.open(QIODevice::WriteOnly));
        lock.write("4242\ngemmscope\nnode-7.lab\n"); // what QLockFile writes: pid, application, host
        lock.close();
        SweepRun::Options options;
        options.journalPath = path;
        options.runners << standIn(QStringLiteral("/nonexistent"));
        SweepRun run(smallSweep(QStringLiteral("sweep-other"), 0), options);
        QString error;
        QVERIFY(!run.start(&error));
        QVERIFY2(
            error.contains(QStringLiteral("This sweep is being resumed by another GemmScope (pid 4242 on "
                                          "host node-7.lab)")),
            qPrintable(error));
        QVERIFY(!QFileInfo::exists(path)); // no journal was made
    }

    // Item 5: the folder is read in a worker thread, once, whoever asks; finished journals are
    // archived so that the next start reads only the unfinished one.
    void folderIsReadOnceOffTheUiThreadAndFinishedJournalsAreArchived()
    {
        const QString dir = m_dir.filePath("startup");
        QVERIFY(QDir().mkpath(dir));
        SweepJournal journal;
        QString error;
        for (int i = 0; i < 3; ++i) { // finished sweeps, journaled under their old id names
            SweepData done = smallSweep(QStringLiteral("sweep-done-%1").arg(i), 1000);
            done.spec.budgetMs = 10 + i;
            QVERIFY2(journal.create(dir + QStringLiteral("/sweep-done-%1.gsweep").arg(i), done, &error),
                     qPrintable(error));
        }
        const SweepData open = smallSweep(QStringLiteral("sweep-open"), 3);
        QVERIFY(journal.create(dir + "/" + sweepJournalFileName(open.spec), open, &error));
        journal.close();

        Session session;
        test::ControlledSweepView grid(&session);
        test::ControlledSizeSweepView sizes(&session);
        // What the window does: both views, then again after it recovered an autosave.
        grid.setJournalDirectory(dir);
        sizes.setJournalDirectory(dir);
        grid.setJournalDirectory(dir);
        sizes.setJournalDirectory(dir);
        // Nothing was read on this thread: the session is untouched until the scan answers.
        QCOMPARE(session.sweeps().size(), 0);
        SweepJournalFolder *folder = SweepJournalFolder::of(dir);
        QTRY_VERIFY_WITH_TIMEOUT(folder->isScanned(), 30000);
        QCOMPARE(folder->scan().journalsRead, 4); // each journal once
        QCOMPARE(session.sweeps().size(), 1);
        QCOMPARE(session.sweeps().first().id, open.id);
        QCOMPARE(grid.shownSweep()->id, open.id);
        QCOMPARE(filesIn(dir), QStringList{sweepJournalFileName(open.spec)});
        QCOMPARE(filesIn(journalArchiveDirectory(dir)).size(), 3);
        QCOMPARE(folder->scan().archived.size(), 3);
        // The next start reads only the unfinished one.
        const JournalFolderScan again = scanJournalFolder(dir);
        QCOMPARE(again.journalsRead, 1);
        QCOMPARE(again.unfinished.size(), 1);
        // Resume of the offered sweep appends to the journal the scan found.
        QCOMPARE(folder->journalPathFor(open), QDir(dir).filePath(sweepJournalFileName(open.spec)));
    }

    // A session that holds a sweep with fewer runs than its archived (finished) journal is
    // brought up to date: the application ended between the last run and the autosave.
    void finishedJournalCompletesTheSessionsSweep()
    {
        const QString dir = m_dir.filePath("fold");
        QVERIFY(QDir().mkpath(dir));
        const SweepData done = smallSweep(QStringLiteral("sweep-fold"), 1000);
        SweepJournal journal;
        QVERIFY(journal.create(dir + "/" + sweepJournalFileName(done.spec), done));
        journal.close();
        Session session;
        session.setSweep(smallSweep(done.id, 2)); // what the autosave held
        const JournalScan applied = applyJournalScan(session, scanJournalFolder(dir));
        QCOMPARE(applied.loaded, QStringList{done.id});
        QCOMPARE(session.sweeps().first().runs.size(), done.runs.size());
        QCOMPARE(filesIn(dir), QStringList());
    }

    // Item 6: a journal has a size limit; past it the sweep stops with a sentence, nothing lost.
    void journalStopsAtItsLimit()
    {
        const QString path = m_dir.filePath("limit.gsweep");
        SweepData sweep = smallSweep(QStringLiteral("sweep-limit"), 0);
        SweepJournal journal;
        journal.setMaxBytes(4096);
        QString error;
        QVERIFY2(journal.create(path, sweep, &error), qPrintable(error));
        const SweepPlan plan = planSweep(sweep.spec);
        int written = 0;
        for (int i = 0; i < 100 && journal.append(finishedRun(plan.points[0], i), &error); ++i)
            ++written;
        QVERIFY(written > 0 && written < 100);
        QVERIFY(journal.isFull());
        QVERIFY2(error.contains(QStringLiteral("reached its limit")), qPrintable(error));
        journal.close();
        QVERIFY(QFileInfo(path).size() <= 4096);
        const auto read = SweepJournal::read(path, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(int(read->runs.size()), written); // every line before the limit is whole
        QCOMPARE(kMaxJournalBytes, 512LL * 1024 * 1024);
    }

    // A journal write that fails (an injected "disk full": RLIMIT_FSIZE just past the journal's
    // size) stops the sweep with the sentence; every run the journal holds is whole.
    void journalWriteFailureStopsTheSweep()
    {
        if (m_script.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        const QString path = m_dir.filePath("full.gsweep");
        SweepRun::Options options;
        options.journalPath = path;
        options.window = 1;
        options.runners << standIn(m_script, {{"FAKE_DELAY_S", "0.05"}});
        SweepRun run(smallSweep(QStringLiteral("sweep-full"), 0), options);
        QSignalSpy answered(&run, &SweepRun::runAnswered);
        QSignalSpy errors(&run, &SweepRun::journalError);
        QSignalSpy finished(&run, &SweepRun::finished);
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(answered.size() >= 2, 30000);
        rlimit old{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        rlimit full = old;
        full.rlim_cur = rlim_t(QFileInfo(path).size() + 16);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &full), 0);
        const bool ended = finished.wait(30000);
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY(ended);
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.first().first().toString().contains(
                     QStringLiteral("Could not write to the sweep journal")),
                 qPrintable(errors.first().first().toString()));
        QCOMPARE(finished.first().first().toBool(), true); // stopped, not run on unjournaled
        QVERIFY(!unfinishedPoints(run.plan(), run.sweep().runs).isEmpty());
        QStringList problems;
        const auto journal = SweepJournal::read(path, &error, &problems);
        QVERIFY2(journal, qPrintable(error));
        QVERIFY(journal->runs.size() >= 2);
        QVERIFY(journal->runs.size() < run.sweep().runs.size());
    }

    // A FIFO, a device or a symlink at a journal's name: refused at once, never followed.
    void journalRefusesSpecialFilesAndSymlinks()
    {
        const QString fifo = m_dir.filePath("fifo.gsweep");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString target = m_dir.filePath("elsewhere.txt");
        const QString link = m_dir.filePath("link.gsweep");
        QVERIFY(QFile::link(target, link));
        const SweepData sweep = smallSweep(QStringLiteral("sweep-special"), 1);
        for (const QString &path : {fifo, link, QStringLiteral("/dev/null")}) {
            SweepJournal journal;
            QString error;
            QVERIFY(!journal.create(path, sweep, &error)); // the old code blocked on the FIFO
            QVERIFY2(error.contains(QStringLiteral("not a regular file")) ||
                         error.contains(QStringLiteral("symbolic link")),
                     qPrintable(error));
            QVERIFY(!journal.openForAppend(path, &error));
            QVERIFY(!SweepJournal::read(path, &error));
        }
        QVERIFY(!QFileInfo::exists(target)); // the link was not followed
        QVERIFY(QFileInfo(fifo).isFile() == false);
    }

    // Item 6: runners started per sweep are bounded, and a host given to a template without
    // {host} is refused (it would start a local runner per host).
    void runnerPoolIsBounded()
    {
        RunnerTemplateValues values;
        values.host = QStringLiteral("node-1");
        values.runner = QStringLiteral("/opt/gemmscope-runner");
        QString error;
        QVERIFY(!parseRunnerTemplate(QStringLiteral("{runner}"), values, &error));
        QVERIFY2(error.contains(QStringLiteral("has no {host}")), qPrintable(error));
        QVERIFY(parseRunnerTemplate(QStringLiteral("ssh {host} gemmscope-runner"), values, &error));
        QVERIFY(!runnerCommandsPerGpu(QStringLiteral("{runner}"), kMaxRunnersPerSweep + 1,
                                      QStringLiteral("/opt/r"), &error));
        QVERIFY2(error.contains(QStringLiteral("at most 256")), qPrintable(error));
        QVERIFY(runnerCommandsPerGpu(QStringLiteral("{runner}"), 4, QStringLiteral("/opt/r"), &error));
        SweepRun::Options options;
        for (int i = 0; i <= kMaxRunnersPerSweep; ++i)
            options.runners << standIn(QStringLiteral("/nonexistent"));
        SweepRun run(smallSweep(QStringLiteral("sweep-many"), 0), options);
        QVERIFY(!run.start(&error));
        QVERIFY2(error.contains(QStringLiteral("would start 257 runners")), qPrintable(error));
        QCOMPARE(run.runnerCount(), 0); // none was started
    }

    // The bench: the same sweep with its values in another order resumes its journal (it was
    // "another sweep"); --hosts with a template without {host} and --json onto the journal are
    // refused before anything starts.
    void benchRecognisesTheSameSweepAndRefusesBadPools()
    {
        const QString bench = qEnvironmentVariable("GEMMSCOPE_BENCH");
        if (bench.isEmpty() || m_script.isEmpty())
            QSKIP("gemmscope-bench (GEMMSCOPE_BENCH) and python3 are needed");
        const QString journal = m_dir.filePath("bench.gsweep");
        const auto run = [&](const QString &xValues, const QStringList &more) {
            QProcess p;
            p.start(bench, QStringList{"--sweep", "--stage", "final", "--x", "BM", "--y", "TM", "--x-values",
                                       xValues, "--y-values", "2,4", "--fixed", "BN=64,BK=8,TN=4", "--size",
                                       "256x256x256", "--budget-ms", "5", "--journal", journal} +
                               more);
            if (!p.waitForFinished(60000))
                p.kill();
            p.waitForFinished();
            return std::make_pair(p.exitCode(),
                                  QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()));
        };
        const QStringList standInRunner{"--runner-template", QStringLiteral("python3 ") + m_script};
        const auto first = run(QStringLiteral("64,128"), standInRunner);
        QVERIFY2(first.first == 0, qPrintable(first.second));
        const auto again = run(QStringLiteral("128,64,64"), standInRunner);
        QVERIFY2(again.second.contains(QStringLiteral("Resuming")) &&
                     !again.second.contains(QStringLiteral("holds another sweep")),
                 qPrintable(again.second));
        QVERIFY2(again.first == 0, qPrintable(again.second));

        QStringList hosts;
        for (int i = 0; i < 100; ++i)
            hosts << QStringLiteral("node-%1").arg(i);
        const auto local = run(QStringLiteral("64"), {"--hosts", hosts.join(QLatin1Char(','))});
        QCOMPARE(local.first, 1);
        QVERIFY2(local.second.contains(QStringLiteral("has no {host}")), qPrintable(local.second));
        const auto tooMany =
            run(QStringLiteral("64"), {"--hosts", hosts.join(QLatin1Char(',')), "--runners", "3",
                                       "--runner-template", QStringLiteral("ssh {host} gemmscope-runner")});
        QCOMPARE(tooMany.first, 1);
        QVERIFY2(tooMany.second.contains(QStringLiteral("would start 300 runners")),
                 qPrintable(tooMany.second));
        const auto onto = run(QStringLiteral("64"), standInRunner + QStringList{"--json", journal});
        QCOMPARE(onto.first, 1);
        QVERIFY2(onto.second.contains(QStringLiteral("also one of the files being read")),
                 qPrintable(onto.second));
        QVERIFY(SweepJournal::read(journal)); // still the journal
    }

    // The scan asks whether to stop before each line of a journal and between journals; told to,
    // it ends there: nothing half moved, the journal it was reading left where it was.
    void folderScanStopsInsideAJournalAndBetweenThem()
    {
        const QString dir = m_dir.filePath("stops");
        const QString archive = journalArchiveDirectory(dir);
        QVERIFY(QDir().mkpath(dir));
        constexpr int kLines = 2000;
        SweepJournal journal;
        for (int i = 0; i < 3; ++i)
            QVERIFY(journal.create(dir + QStringLiteral("/sweep-stops-%1.gsweep").arg(i),
                                   longFinishedSweep(QStringLiteral("sweep-stops-%1").arg(i), kLines)));
        journal.close();
        const QHash<QString, QByteArray> written = contentsOf(dir);

        // Told at the 10th line of the first journal: asked no more, nothing read whole or moved.
        int asked = 0;
        const JournalFolderScan inside = scanJournalFolder(dir, [&] { return ++asked >= 10; });
        QVERIFY(inside.stopped);
        QCOMPARE(asked, 10);
        QCOMPARE(inside.journalsRead, 0);
        QVERIFY(inside.archived.isEmpty() && inside.unfinished.isEmpty() && inside.problems.isEmpty());
        QCOMPARE(contentsOf(dir), written);

        // Told once the first journal is in the archive: it stops before the second.
        const JournalFolderScan between = scanJournalFolder(dir, [&] { return !filesIn(archive).isEmpty(); });
        QVERIFY(between.stopped);
        QCOMPARE(between.journalsRead, 1);
        QCOMPARE(between.archived.size(), 1);
        QCOMPARE(filesIn(dir).size(), 2); // two journals, no lock file
        const QString moved = filesIn(archive).value(0);
        QCOMPARE(contentsOf(archive).value(moved), written.value(moved)); // whole

        // Never told: asked before every line of the two left.
        asked = 0;
        const JournalFolderScan whole = scanJournalFolder(dir, [&] { return ++asked < 0; });
        QVERIFY(!whole.stopped);
        QCOMPARE(whole.journalsRead, 2);
        QVERIFY2(asked >= 2 * kLines, qPrintable(QString::number(asked)));
        QCOMPARE(filesIn(dir), QStringList());
    }

    // Closing the window quits the event loop; the application object then waits for its worker
    // threads. A scan of a large folder must stop there, not keep the process alive until it has
    // read the last journal (it lingered ~25 s). Last: it ends an event loop of the application.
    void quittingStopsTheFolderScan()
    {
        const QString dir = m_dir.filePath("quit");
        const QString archive = journalArchiveDirectory(dir);
        QVERIFY(QDir().mkpath(dir));
        constexpr int kJournals = 16;
        SweepJournal journal;
        for (int i = 0; i < kJournals; ++i) // finished: a scan that reads one moves it to the archive
            QVERIFY(journal.create(dir + QStringLiteral("/sweep-quit-%1.gsweep").arg(i),
                                   longFinishedSweep(QStringLiteral("sweep-quit-%1").arg(i), 3000)));
        journal.close();
        const QHash<QString, QByteArray> written = contentsOf(dir);

        SweepJournalFolder *folder = SweepJournalFolder::of(dir);
        int answered = 0;
        folder->whenScanned(this, [&](const JournalFolderScan &) { ++answered; });
        QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        QCoreApplication::exec(); // quit() ends it as the last window's close does: aboutToQuit
        QThreadPool::globalInstance()->waitForDone(); // what the application's destructor does
        QCoreApplication::processEvents();
        // Stopped before it had read them all (it reads them in about a second here): the rest wait
        // in the folder for the next start, and a part of the folder is offered to no one.
        const QHash<QString, QByteArray> left = contentsOf(dir);
        QVERIFY2(!left.isEmpty(), "the scan read every journal after the application quit");
        QCOMPARE(answered, 0);
        QVERIFY(!folder->isScanned());
        // Nothing lost or cut: each journal whole, in the folder or in the archive; no lock file.
        QHash<QString, QByteArray> now = contentsOf(archive);
        now.insert(left);
        QCOMPARE(now, written);

        // The next scan reads the folder whole and answers.
        QTRY_VERIFY_WITH_TIMEOUT(!folder->isScanning(), 10000); // the stopped scan's end was heard
        folder->rescan();
        QTRY_VERIFY_WITH_TIMEOUT(answered == 1, 60000);
        QVERIFY(!folder->scan().stopped);
        QCOMPARE(filesIn(dir), QStringList());
        QCOMPARE(filesIn(archive).size(), kJournals);
    }

private:
    QTemporaryDir m_dir;
    QString m_script;
};

QTEST_MAIN(TestSweepJournals)
#include "tst_sweep_journals.moc"
