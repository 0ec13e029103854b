// SweepController (app/core/sweep_controller.h) with no widget, on the stand-in runner
// (tests/support/stand_in_runner.h), as the Sweep views drive it: what cannot run is refused with
// a sentence (no runner, a plan the catalog refuses, nothing to resume); a sweep runs to completion
// into the session (there from its start) and its journal, which is archived; a second controller
// may not write a running sweep's journal (its lock); Cancel stops a sweep with its runs kept; a
// runner that dies mid-sweep loses nothing, one that never starts stops the sweep with its
// sentence; and Resume continues a sweep a crash left in the journal folder with only its
// unfinished points.
#include "session.h"
#include "support/scoped_env.h"
#include "support/small_sweep_spec.h"
#include "support/stand_in_runner.h"
#include "support/sweep_point_run.h"
#include "sweep_controller.h"
#include "sweep_journals.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

int validPoints(const SweepSpec &spec)
{
    return int(planSweep(spec).validPointCount());
}

// What a controller said, in order.
struct Heard {
    QList<bool> running;
    QStringList statuses;
    QList<SweepData> ended;
    int answers = 0;
    int lastAnswered = -1, lastTotal = -1;

    explicit Heard(SweepController &c)
    {
        QObject::connect(&c, &SweepControl::runningChanged, &c, [this](bool r) { running << r; });
        QObject::connect(&c, &SweepControl::statusChanged, &c, [this](const QString &s) { statuses << s; });
        QObject::connect(&c, &SweepControl::sweepEnded, &c, [this](const SweepData &s) { ended << s; });
        QObject::connect(&c, &SweepControl::runningSweepChanged, &c, [this] { ++answers; });
        QObject::connect(&c, &SweepControl::progressChanged, &c, [this](int answered, int total, double) {
            lastAnswered = answered;
            lastTotal = total;
        });
    }
};

// A session and its parameter-sweep controller, journaling in `dir`, its runners started from
// `runners` (`count` of them), heard from the start.
struct GridSweeps {
    Session session;
    SweepController control{&session, SweepKind::Grid};
    Heard heard{control};

    GridSweeps(const QString &dir, const QString &runners, int count)
    {
        control.setJournalDirectory(dir);
        control.setRunners(runners, count);
    }
};

} // namespace

class TestSweepController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void refusesWhatCannotRunWithASentence();
    void runsToCompletionIntoTheSessionAndItsJournal();
    void cancelStopsAndKeepsTheRuns();
    void runnerThatDiesMidSweepLosesNothing();
    void runnerThatNeverStartsStopsTheSweep();
    void resumesFromTheJournalACrashLeft();
    void sessionTakesEachAnswerAlone();
    void sessionOpenedMidSweepGetsItBackWhole();

private:
    QString folder(const char *name) const { return m_dir.filePath(QLatin1String(name)); }
    QString m_script;
    QTemporaryDir m_dir;
};

void TestSweepController::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the default journal folder is not the user's
    QVERIFY(m_dir.isValid());
    m_script = test::standInRunnerPath();
}

void TestSweepController::refusesWhatCannotRunWithASentence()
{
    const test::ScopedEnv noRunner("GEMMSCOPE_RUNNER", "/nonexistent/gemmscope-runner");
    Session session;
    SweepController grid(&session, SweepKind::Grid);
    grid.setJournalDirectory(folder("refused"));
    QSignalSpy startOff(&grid, &SweepControl::startOffChanged);

    // {runner} without a runner here: Start is off, with the reason, and nothing starts.
    QCOMPARE(grid.runnerTemplate(), QStringLiteral("{runner}"));
    QVERIFY2(grid.startOffReason().contains(QStringLiteral("no GPU runner")) &&
                 grid.startOffReason().contains(QStringLiteral("/nonexistent/gemmscope-runner")),
             qPrintable(grid.startOffReason()));
    QString error;
    QVERIFY(!grid.start(smallSweepSpec(), &error));
    QCOMPARE(error, grid.startOffReason());
    QVERIFY(session.sweeps().isEmpty());

    // A template that reaches another machine is not held back, not even by the window's reason.
    grid.setRunners(QStringLiteral("ssh gpu-host gemmscope-runner"), 1);
    QVERIFY(grid.startOffReason().isEmpty());
    QCOMPARE(startOff.size(), 1);
    grid.setRunningOff(QStringLiteral("the runner found no NVIDIA GPU."));
    QVERIFY(grid.startOffReason().isEmpty());
    {
        const test::ScopedEnv someRunner("GEMMSCOPE_RUNNER",
                                         QCoreApplication::applicationFilePath().toLocal8Bit());
        grid.setRunners(QStringLiteral("{runner}"), 1);
        QCOMPARE(grid.startOffReason(), QStringLiteral("Start is off: the runner found no NVIDIA GPU."));
        grid.setRunningOff(QString());
        QVERIFY(grid.startOffReason().isEmpty());
    }

    // Planning: a spec the plan refuses is refused with the plan's sentence, before any runner.
    grid.setRunners(QStringLiteral("python3 /nonexistent/stand-in.py"), 1);
    SweepSpec bad = smallSweepSpec();
    bad.x.param = "XX";
    const SweepPlan plan = planSweep(bad);
    QVERIFY(!plan.ok());
    QVERIFY(!grid.start(bad, &error));
    QCOMPARE(error, QString::fromStdString(plan.error));
    QVERIFY(session.sweeps().isEmpty());
    QVERIFY(!grid.isRunning());
    QVERIFY(!QFileInfo::exists(folder("refused"))); // no journal, not even its folder

    // Resume: nothing shown, or nothing left.
    QVERIFY(!grid.resume(nullptr, &error));
    QCOMPARE(error, QStringLiteral("No sweep is shown to resume."));
    SweepController sizes(&session, SweepKind::Sizes);
    sizes.setRunners(grid.runnerTemplate(), 1);
    QVERIFY(!sizes.resume(nullptr, &error));
    QCOMPARE(error, QStringLiteral("No size sweep is shown to resume."));
    SweepData done;
    done.id = QStringLiteral("sweep-done");
    done.spec = smallSweepSpec();
    for (const SweepPoint &p : planSweep(done.spec).points) {
        if (!p.valid())
            continue;
        RunRecord r;
        r.runId = QStringLiteral("r%1").arg(done.runs.size());
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.medianMs = 1;
        done.runs << r;
    }
    QVERIFY(!grid.resume(&done, &error));
    QVERIFY2(error.contains(QStringLiteral("nothing to resume")), qPrintable(error));
    QVERIFY(!grid.isRunning());
}

void TestSweepController::runsToCompletionIntoTheSessionAndItsJournal()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    const QString dir = folder("complete");
    GridSweeps sweeps(dir, QStringLiteral("python3 ") + m_script, 2);
    auto &[session, grid, heard] = sweeps;
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QVERIFY(grid.isRunning());
    QCOMPARE(heard.running, QList<bool>{true});
    // In the session from its start, before any run answered: a crash now loses no sweep.
    QCOMPARE(session.sweeps().size(), 1);
    QVERIFY(grid.runningSweep());
    QCOMPARE(session.sweeps().first().id, grid.runningSweep()->id);
    const int valid = validPoints(smallSweepSpec());
    QCOMPARE(grid.status(), QStringLiteral("Running %1 parameter sets on 2 runner(s)…").arg(valid));
    // One sweep at a time.
    QVERIFY(!grid.start(smallSweepSpec(), &error));
    QCOMPARE(error, QStringLiteral("A sweep is already running."));

    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 30000);
    QCOMPARE(heard.running, (QList<bool>{true, false}));
    QVERIFY(!grid.runningSweep());
    QCOMPARE(heard.ended.size(), 1);
    QCOMPARE(session.sweeps().size(), 1);
    const SweepData &sweep = session.sweeps().first();
    QCOMPARE(sweep.runs.size(), heard.ended.first().runs.size());
    QCOMPARE(sweep.runs.size(), valid + 2); // and each runner's cuBLAS baseline
    QVERIFY(unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
    QCOMPARE(heard.answers, valid + 2); // the session took each run as it answered
    QCOMPARE(heard.lastAnswered, valid);
    QCOMPARE(heard.lastTotal, valid);
    QVERIFY2(grid.status().startsWith(QStringLiteral("Finished in ")), qPrintable(grid.status()));
    // Its journal, named by its plan, was archived once the session held the sweep.
    const auto journal = SweepJournal::read(
        journalArchiveDirectory(dir) + QLatin1Char('/') + sweepJournalFileName(sweep.spec), &error);
    QVERIFY2(journal, qPrintable(error));
    QCOMPARE(journal->id, sweep.id);
    QCOMPARE(journal->runs.size(), sweep.runs.size());
    QCOMPARE(QDir(dir).entryList({QStringLiteral("*.gsweep")}, QDir::Files), QStringList());
    QVERIFY(!QFileInfo::exists(dir + QLatin1Char('/') + sweepJournalFileName(sweep.spec) + ".lock"));
}

void TestSweepController::cancelStopsAndKeepsTheRuns()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    const QString dir = folder("cancel");
    GridSweeps sweeps(dir, QStringLiteral("FAKE_DELAY_S=0.2 python3 ") + m_script, 1);
    auto &[session, grid, heard] = sweeps;
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(heard.answers >= 2, 30000); // the baseline and a point
    // Another window's controller on the same folder may not write the running sweep's journal.
    SweepController other(&session, SweepKind::Grid);
    other.setJournalDirectory(dir);
    other.setRunners(grid.runnerTemplate(), 1);
    const SweepData running = *grid.runningSweep();
    QVERIFY(!other.resume(&running, &error));
    QVERIFY2(error.contains(QStringLiteral("being resumed in another window of this GemmScope")),
             qPrintable(error));
    QVERIFY(!other.isRunning());
    grid.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 30000);
    QCOMPARE(heard.running, (QList<bool>{true, false}));
    QVERIFY2(grid.status().startsWith(QStringLiteral("Stopped after ")) &&
                 grid.status().contains(QStringLiteral("parameter sets not run yet (Resume continues)")),
             qPrintable(grid.status()));
    const SweepData &sweep = session.sweeps().first();
    QVERIFY(!unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
    QVERIFY(finishedRunsByKey(sweep.runs).size() >= 1);
    // The journal stays in the folder, for Resume, with every run the session has.
    const QString path = dir + QLatin1Char('/') + sweepJournalFileName(sweep.spec);
    const auto journal = SweepJournal::read(path, &error);
    QVERIFY2(journal, qPrintable(error));
    QCOMPARE(journal->runs.size(), sweep.runs.size());
    QVERIFY(!QFileInfo::exists(path + ".lock")); // and it is free again
}

void TestSweepController::runnerThatDiesMidSweepLosesNothing()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    const QString log = folder("killed.log");
    GridSweeps sweeps(folder("killed"),
                      QStringLiteral("FAKE_LOG=%1 FAKE_DIE_AFTER=4 FAKE_STATE=%2 python3 %3")
                          .arg(log, folder("killed.state"), m_script),
                      1);
    auto &[session, grid, heard] = sweeps;
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 60000);
    // SIGKILL while it held a point: that run failed as runner_crashed, the runner was started again
    // and the point run there; the sweep finished.
    const SweepData &sweep = session.sweeps().first();
    int crashed = 0;
    for (const RunRecord &r : sweep.runs)
        crashed += r.errorKind == QLatin1String("runner_crashed");
    QCOMPARE(crashed, 1);
    QVERIFY(unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
    QVERIFY2(grid.status().startsWith(QStringLiteral("Finished in ")), qPrintable(grid.status()));
    QCOMPARE(heard.ended.size(), 1);
    QCOMPARE(heard.ended.first().runs.size(), sweep.runs.size());
    // Only the point the kill interrupted reached a runner twice.
    QStringList lines = readLines(log);
    lines.removeAll(QStringLiteral("cublas_fp32|"));
    const QSet<QString> distinct(lines.begin(), lines.end());
    QCOMPARE(lines.size(), distinct.size() + 1);
}

void TestSweepController::runnerThatNeverStartsStopsTheSweep()
{
    Session session;
    SweepController sizes(&session, SweepKind::Sizes);
    sizes.setJournalDirectory(folder("never"));
    sizes.setRunners(QStringLiteral("/nonexistent/gemmscope-runner"), 1);
    Heard heard(sizes);
    SweepSpec spec;
    spec.kind = SweepKind::Sizes;
    spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}};
    spec.sizes = {{256, 256, 256}, {512, 512, 512}};
    spec.stage = StageId::CublasFp32;
    spec.size = spec.sizes.front();
    QString error;
    QVERIFY2(sizes.start(spec, &error), qPrintable(error)); // whether it answers is for the run to find out
    QTRY_VERIFY_WITH_TIMEOUT(!sizes.isRunning(), 30000);
    QCOMPARE(heard.running, (QList<bool>{true, false}));
    // Its sentence reached the status line, then that the sweep stopped with what is left.
    const QStringList runnerDown = heard.statuses.filter(QStringLiteral("Runner 1: "));
    QVERIFY2(!runnerDown.isEmpty(), qPrintable(heard.statuses.join(QLatin1Char('\n'))));
    QVERIFY2(runnerDown.first().contains(QStringLiteral("/nonexistent/gemmscope-runner")),
             qPrintable(runnerDown.first()));
    QVERIFY2(sizes.status().startsWith(QStringLiteral("Stopped after ")) &&
                 sizes.status().contains(QStringLiteral("2 runs not done yet")),
             qPrintable(sizes.status()));
    // The sweep is in the session, each point failed with a kind: nothing to show, but Resume may go on.
    QCOMPARE(session.sweeps().size(), 1);
    for (const RunRecord &r : session.sweeps().first().runs)
        QVERIFY2(r.status == RunStatus::Failed && !r.errorKind.isEmpty(), qPrintable(r.errorKind));
}

void TestSweepController::resumesFromTheJournalACrashLeft()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    // kill -9 of the GUI: the session never saw the sweep; its journal holds three finished points.
    const QString dir = folder("crashed");
    QVERIFY(QDir().mkpath(dir));
    SweepData crashed;
    crashed.id = QStringLiteral("sweep-crashed");
    crashed.spec = smallSweepSpec();
    crashed.created = QDateTime::currentDateTimeUtc();
    for (const SweepPoint &p : planSweep(crashed.spec).points) {
        if (!p.valid() || crashed.runs.size() == 3)
            continue;
        RunRecord r;
        r.runId = QStringLiteral("c%1").arg(crashed.runs.size());
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.medianMs = 0.5;
        r.count = 5;
        crashed.runs << r;
    }
    SweepJournal journal;
    QString error;
    QVERIFY2(journal.create(dir + QLatin1Char('/') + sweepJournalFileName(crashed.spec), crashed, &error),
             qPrintable(error));
    journal.close();

    Session session;
    SweepController grid(&session, SweepKind::Grid);
    Heard heard(grid);
    grid.setJournalDirectory(dir);
    QTRY_COMPARE(session.sweeps().size(), 1); // the folder is read in a worker thread
    QCOMPARE(session.sweeps().first().runs.size(), 3);
    QVERIFY2(grid.status().startsWith(QStringLiteral("1 unfinished sweep(s) found in %1").arg(dir)),
             qPrintable(grid.status()));

    // The shown copy is older than the journal (one run): Resume takes the journal's three.
    SweepData stale = session.sweeps().first();
    stale.runs.resize(1);
    const QString log = folder("resume.log");
    grid.setRunners(QStringLiteral("FAKE_LOG=%1 python3 %2").arg(log, m_script), 1);
    QVERIFY2(grid.resume(&stale, &error), qPrintable(error));
    const int left = validPoints(crashed.spec) - 3;
    QCOMPARE(grid.status(), QStringLiteral("Running %1 parameter sets on 1 runner(s)…").arg(left));
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 30000);
    QStringList sent = readLines(log);
    sent.removeAll(QStringLiteral("cublas_fp32|"));
    QCOMPARE(sent.size(), left); // only the unfinished points reached the runner
    const SweepData &sweep = session.sweeps().first();
    QCOMPARE(sweep.id, crashed.id);
    QVERIFY(unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
    QVERIFY(QFileInfo::exists(journalArchiveDirectory(dir) + QLatin1Char('/') +
                              sweepJournalFileName(crashed.spec)));
}

// The session takes each answer alone. Handed the whole sweep at every answer, it copied every run
// the sweep had so far (the longer the sweep, the longer each answer held the event loop; a size
// sweep of 5,000 sizes stalled it 0.8 s). Now it is handed the sweep whole when it starts and when
// it ends; between, it holds every run answered so far, in order.
void TestSweepController::sessionTakesEachAnswerAlone()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    GridSweeps sweeps(folder("alone"), QStringLiteral("python3 ") + m_script, 1);
    auto &[session, grid, heard] = sweeps;
    QSignalSpy handedWhole(&session, &Session::sweepsChanged);
    int behind = 0; // answers after which the session's sweep was not the running one
    connect(&grid, &SweepControl::runningSweepChanged, this, [&] {
        const SweepData *running = grid.runningSweep();
        if (!running || session.sweeps().size() != 1 || session.sweeps().first().id != running->id ||
            session.sweeps().first().runs.size() != running->runs.size() ||
            session.sweeps().first().runs.last().runId != running->runs.last().runId)
            ++behind;
    });
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 30000);
    QCOMPARE(heard.answers, validPoints(smallSweepSpec()) + 1); // and the runner's baseline
    QCOMPARE(behind, 0);
    QCOMPARE(handedWhole.count(), 2); // its start and its end
    QCOMPARE(session.sweeps().first().runs.size(), heard.ended.first().runs.size());
    QVERIFY(session.isModified()); // each answer reached the session (and its autosave)
}

// A session opened while a sweep runs lacks it: the next answer gives it the sweep whole.
void TestSweepController::sessionOpenedMidSweepGetsItBackWhole()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    GridSweeps sweeps(folder("reopened"), QStringLiteral("python3 ") + m_script, 1);
    auto &[session, grid, heard] = sweeps;
    bool cleared = false;
    connect(&grid, &SweepControl::runningSweepChanged, this, [&] {
        if (!cleared && heard.answers == 2) { // File > New between two answers
            cleared = true;
            session.clear();
        }
    });
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), 30000);
    QVERIFY(cleared);
    QCOMPARE(session.sweeps().size(), 1);
    QCOMPARE(session.sweeps().first().runs.size(), heard.ended.first().runs.size());
    QVERIFY(unfinishedPoints(planSweep(smallSweepSpec()), session.sweeps().first().runs).isEmpty());
}

QTEST_MAIN(TestSweepController)
#include "tst_sweep_controller.moc"
