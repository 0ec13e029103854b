// Sweeps through a real Slurm cluster: the test starts its own one-node cluster (munged, slurmctld,
// slurmd on 127.0.0.1, tests/support/slurm_cluster.h) and runs sweeps whose runners are job steps
// of one allocation, the stand-in runner in each step (no GPU here). It checks what a cluster does
// to a sweep: queueing, cancel, a step that dies, a job that ends under the sweep, detached batch
// sweeps, and Slurm's refusals. Where the daemons cannot start the test FAILS with their log line.
// Every wait has a timeout; the cluster is stopped (jobs cancelled, daemons and steps killed by
// its own pid files) in cleanupTestCase and by the fixture's destructor.
#include "session.h"
#include "support/file_bytes.h"
#include "support/scoped_env.h"
#include "support/slurm_cluster.h"
#include "support/small_sweep_spec.h"
#include "support/stand_in_runner.h"
#include "sweep_controller.h"
#include "sweep_journals.h"
#include "sweep_run.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <csignal>

using namespace gemmscope;

namespace {

constexpr int kSweepTimeoutMs = 120000; // a busy 2-core machine; the sweeps take seconds

QString runSlurmTool(const QString &program, const QStringList &args, int *exitCode = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(2000);
    }
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromLocal8Bit(p.readAll()).trimmed();
}

// Every job the queue holds (pending, running or completing).
QStringList queuedJobs()
{
    return runSlurmTool(QStringLiteral("squeue"), {"-h", "-o", "%i"}).split('\n', Qt::SkipEmptyParts);
}

// The steps slurmd launched, from its own log ("launch task StepId=7.0").
QSet<QString> launchedSteps(const QString &slurmdLog)
{
    QFile f(slurmdLog);
    QSet<QString> steps;
    if (!f.open(QIODevice::ReadOnly))
        return steps;
    static const QRegularExpression step(QStringLiteral("launch task StepId=(\\d+\\.\\d+)"));
    for (auto it = step.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();)
        steps.insert(it.next().captured(1));
    return steps;
}

// A 64-point size sweep: cuBLAS and the worklog's eighth kernel at 32 sizes.
SweepData sizeSweep64(const QString &id)
{
    SweepData sweep;
    sweep.id = id;
    sweep.created = QDateTime::currentDateTimeUtc();
    SweepSpec &spec = sweep.spec;
    spec.kind = SweepKind::Sizes;
    const Preset *worklog = findPreset("worklog-8");
    spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}, {worklog->stage, worklog->params, worklog->key}};
    for (int i = 1; i <= 32; ++i)
        spec.sizes.push_back({256LL * i, 256LL * i, 256LL * i});
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    spec.budgetMs = 1;
    return sweep;
}

// How often each point has a finished run in the journal.
QMap<QString, int> finishedPerPoint(const QString &journal)
{
    QString error;
    const std::optional<SweepData> sweep = SweepJournal::read(journal, &error);
    QMap<QString, int> count;
    if (!sweep)
        return {{QStringLiteral("unreadable: ") + error, 1}};
    for (const RunRecord &r : sweep->runs)
        if (isFinishedRun(r))
            ++count[sweepRunKey(r)];
    return count;
}

QList<RunnerCommand> standIns(int count, const QMap<QString, QString> &environment = {})
{
    QList<RunnerCommand> runners;
    for (int i = 0; i < count; ++i)
        runners << test::standInRunner(environment);
    return runners;
}

SlurmOptions cpuSteps()
{
    SlurmOptions slurm;
    slurm.gpusPerRunner = 0; // the test cluster has no gpu gres
    slurm.jobName = QStringLiteral("gemmscope-test");
    return slurm;
}

} // namespace

class TestSweepSlurm : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sweepThroughFourStepsEqualsLocal();
    void pendingJobSaysWhyAndCancelLeavesNothing();
    void cancelWhileRunningLeavesNothing();
    void killedStepsPointsAreRunAgain();
    void jobEndedUnderTheSweepResumesOnlyMissing();
    void detachedSweepsFinishAloneAndMergeOnOpen();
    void badPartitionIsNamed();
    void clusterDownIsNamed();
    void wrongMungeKeyIsNamed();
    void sweepWorkspaceAsksForAGpuPerStep();
    void cleanup();
    void cleanupTestCase();

private:
    // Runs a sweep to its end; the finished() argument (stopped).
    bool runToEnd(SweepRun &run);
    QString failureOf(const SlurmOptions &slurm);
    // The cluster's slurm.conf with `pattern` replaced, written as `name` in the test's folder;
    // empty where it could not be read or written.
    QString confWith(const QString &name, const QRegularExpression &pattern, const QString &replacement);

    test::SlurmCluster m_cluster;
    QTemporaryDir m_dir;
    std::unique_ptr<test::ScopedEnv> m_conf;
};

void TestSweepSlurm::initTestCase()
{
    if (test::standInRunnerPath().isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    QVERIFY(m_dir.isValid());
    qunsetenv("SLURM_JOB_ID"); // a sweep inside an allocation would use it instead of its own
    QString why;
    QVERIFY2(m_cluster.start(&why),
             qPrintable(QStringLiteral("the test's Slurm cluster did not start: ") + why));
    qInfo("the one-node cluster started in %.1f s", m_cluster.startSeconds());
    m_conf = std::make_unique<test::ScopedEnv>("SLURM_CONF", m_cluster.conf().toLocal8Bit());
}

bool TestSweepSlurm::runToEnd(SweepRun &run)
{
    QSignalSpy finished(&run, &SweepRun::finished);
    QString error;
    if (!run.start(&error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    if (!finished.wait(kSweepTimeoutMs) && finished.isEmpty())
        return false;
    return finished.first().first().toBool();
}

void TestSweepSlurm::sweepThroughFourStepsEqualsLocal()
{
    const SweepData sweep = sizeSweep64(QStringLiteral("sweep-slurm-64"));
    const SweepPlan plan = planSweep(sweep.spec);
    QCOMPARE(int(plan.validPointCount()), 64);

    SweepRun::Options local;
    local.runners = standIns(4);
    local.window = 2;
    local.journalPath = m_dir.filePath(QStringLiteral("local.gsweep"));
    SweepRun localRun(sweep, local);
    QCOMPARE(runToEnd(localRun), false);

    const QSet<QString> stepsBefore = launchedSteps(m_cluster.logFile(QStringLiteral("slurmd")));
    SweepRun::Options slurm = local;
    slurm.journalPath = m_dir.filePath(QStringLiteral("slurm.gsweep"));
    slurm.slurm = cpuSteps();
    SweepRun slurmRun(sweep, slurm);
    QSignalSpy status(&slurmRun, &SweepRun::schedulerStatusChanged);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(runToEnd(slurmRun), false);
    qInfo("64 points through 4 job steps: %.1f s", clock.elapsed() / 1000.0);

    const QString job = slurmRun.slurmJobId();
    QVERIFY(!job.isEmpty());
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last().first().toString().contains(job), qPrintable(status.last().first().toString()));
    // Four steps of that job ran the runners (slurmd's own log says so).
    const QSet<QString> steps = launchedSteps(m_cluster.logFile(QStringLiteral("slurmd"))) - stepsBefore;
    int ofJob = 0;
    for (const QString &s : steps)
        ofJob += s.startsWith(job + QLatin1Char('.'));
    QCOMPARE(ofJob, 4);
    // The same points as a local sweep's journal, each once.
    const QMap<QString, int> viaSlurm = finishedPerPoint(slurm.journalPath);
    QCOMPARE(viaSlurm.size(), 64);
    QCOMPARE(viaSlurm, finishedPerPoint(local.journalPath));
    for (int n : viaSlurm)
        QCOMPARE(n, 1);
    QTRY_VERIFY_WITH_TIMEOUT(queuedJobs().isEmpty(), 20000); // the allocation was given back
}

void TestSweepSlurm::pendingJobSaysWhyAndCancelLeavesNothing()
{
    // Every CPU of the node taken: the sweep's allocation waits in the queue.
    const QString blocker =
        runSlurmTool(QStringLiteral("sbatch"),
                     {"--parsable", "--ntasks=16", "--job-name=blocker",
                      "--output=" + m_dir.filePath(QStringLiteral("blocker.out")), "--wrap", "sleep 300"});
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+$")).match(blocker).hasMatch(), qPrintable(blocker));
    SweepRun::Options options;
    options.runners = standIns(2);
    options.slurm = cpuSteps();
    SweepRun run(sizeSweep64(QStringLiteral("sweep-slurm-pending")), options);
    QSignalSpy status(&run, &SweepRun::schedulerStatusChanged);
    QSignalSpy finished(&run, &SweepRun::finished);
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    // squeue's reason, asked every two seconds: "Resources" (or "Priority" behind another job).
    const QRegularExpression waiting(
        QStringLiteral("^waiting for Slurm: (Resources|Priority) \\(job \\d+\\)$"));
    QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && waiting.match(status.last().first().toString()).hasMatch(),
                             30000);
    const QString job = run.slurmJobId();
    QVERIFY(queuedJobs().contains(job));
    run.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QCOMPARE(finished.first().first().toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(!queuedJobs().contains(job), 20000);
    runSlurmTool(QStringLiteral("scancel"), {blocker});
    QTRY_VERIFY_WITH_TIMEOUT(queuedJobs().isEmpty(), 20000);
}

void TestSweepSlurm::cancelWhileRunningLeavesNothing()
{
    SweepRun::Options options;
    options.runners = standIns(2, {{"FAKE_DELAY_S", "0.2"}});
    options.window = 2;
    options.slurm = cpuSteps();
    options.journalPath = m_dir.filePath(QStringLiteral("cancel.gsweep"));
    SweepRun run(sizeSweep64(QStringLiteral("sweep-slurm-cancel")), options);
    QSignalSpy finished(&run, &SweepRun::finished);
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(run.pointsAnswered() >= 4, 60000);
    const QString job = run.slurmJobId();
    QVERIFY(queuedJobs().contains(job));
    run.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QCOMPARE(finished.first().first().toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(queuedJobs().isEmpty(), 20000); // no job, no step behind
    QVERIFY(runSlurmTool(QStringLiteral("squeue"), {"-h", "-s"}).isEmpty());
    const QMap<QString, int> answered = finishedPerPoint(options.journalPath);
    QVERIFY(answered.size() >= 4 && answered.size() < 64); // nothing finished was lost
}

void TestSweepSlurm::killedStepsPointsAreRunAgain()
{
    // Runner 0's stand-in kills itself (SIGKILL) in its step after 6 results; runner 1's step is
    // killed from outside by Slurm (scancel JOB.STEP) once the sweep is under way.
    const QString state = m_dir.filePath(QStringLiteral("die.state"));
    SweepRun::Options options;
    options.runners =
        standIns(1, {{"FAKE_DIE_AFTER", "6"}, {"FAKE_STATE", state}, {"FAKE_DELAY_S", "0.05"}}) +
        standIns(2, {{"FAKE_DELAY_S", "0.05"}});
    options.window = 2;
    // Two deaths, each under up to `window` points: on a busy machine a point re-sent after the
    // first can be in the step the second kills. Three attempts outlast both, so every point must
    // finish; the default two would rightly give up on such a point as one that crashes runners.
    options.attemptsPerPoint = 3;
    options.slurm = cpuSteps();
    options.journalPath = m_dir.filePath(QStringLiteral("killed.gsweep"));
    SweepRun run(sizeSweep64(QStringLiteral("sweep-slurm-killed")), options);
    QSignalSpy finished(&run, &SweepRun::finished);
    int crashed = 0;
    connect(&run, &SweepRun::runAnswered, this,
            [&](const RunRecord &r, int) { crashed += r.errorKind == QLatin1String("runner_crashed"); });
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(run.pointsAnswered() >= 10, 60000);
    const QString job = run.slurmJobId();
    const QStringList steps = runSlurmTool(QStringLiteral("squeue"), {"-h", "-s", "-j", job, "-o", "%i"})
                                  .split('\n', Qt::SkipEmptyParts);
    QVERIFY2(!steps.isEmpty(), "no step of the sweep's job in squeue");
    runSlurmTool(QStringLiteral("scancel"), {steps.last()});
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kSweepTimeoutMs);
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(crashed >= 1, "no runner's step died under a point");
    // Every point finished, each once: the dead steps' points were run again, none twice.
    const QMap<QString, int> answered = finishedPerPoint(options.journalPath);
    QCOMPARE(answered.size(), 64);
    for (auto it = answered.begin(); it != answered.end(); ++it)
        QVERIFY2(it.value() == 1, qPrintable(it.key()));
    QTRY_VERIFY_WITH_TIMEOUT(queuedJobs().isEmpty(), 20000);
}

void TestSweepSlurm::jobEndedUnderTheSweepResumesOnlyMissing()
{
    // The job ends under the sweep as at its time limit (Slurm kills every step, the job is gone):
    // the sweep stops with what it answered, and Resume sends only the points it lacks.
    SweepRun::Options options;
    options.runners = standIns(2, {{"FAKE_DELAY_S", "0.1"}});
    options.window = 2;
    options.slurm = cpuSteps();
    options.journalPath = m_dir.filePath(QStringLiteral("ended.gsweep"));
    SweepData sweep = sizeSweep64(QStringLiteral("sweep-slurm-ended"));
    {
        SweepRun run(sweep, options);
        QSignalSpy finished(&run, &SweepRun::finished);
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(run.pointsAnswered() >= 6, 60000);
        runSlurmTool(QStringLiteral("scancel"), {run.slurmJobId()});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kSweepTimeoutMs);
        QCOMPARE(finished.first().first().toBool(), true); // stopped: its runners are gone
    }
    const int before = finishedPerPoint(options.journalPath).size();
    QVERIFY(before >= 6 && before < 64);
    const QString log = m_dir.filePath(QStringLiteral("resume.log"));
    options.runners = standIns(2, {{"FAKE_LOG", log}});
    QString error;
    std::optional<SweepData> saved = SweepJournal::read(options.journalPath, &error);
    QVERIFY2(saved, qPrintable(error));
    SweepRun resume(*saved, options);
    QCOMPARE(runToEnd(resume), false);
    QFile sent(log);
    QVERIFY(sent.open(QIODevice::ReadOnly));
    QCOMPARE(int(QString::fromUtf8(sent.readAll()).split('\n', Qt::SkipEmptyParts).size()), 64 - before);
    const QMap<QString, int> answered = finishedPerPoint(options.journalPath);
    QCOMPARE(answered.size(), 64);
    for (int n : answered)
        QCOMPARE(n, 1);
}

void TestSweepSlurm::detachedSweepsFinishAloneAndMergeOnOpen()
{
    const QString bench = qEnvironmentVariable("GEMMSCOPE_BENCH");
    QVERIFY2(QFileInfo(bench).isExecutable(),
             "GEMMSCOPE_BENCH names no gemmscope-bench (tests/CMakeLists.txt)");
    const test::ScopedEnv data("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    // Two different sweeps at once, each its own batch job and journal.
    QStringList jobs, journals;
    for (const QString &x : {QStringLiteral("32,64"), QStringLiteral("64,128")}) {
        int code = -1;
        const QString out =
            runSlurmTool(bench,
                         {"--sweep",
                          "--x",
                          "BM",
                          "--y",
                          "BN",
                          "--x-values",
                          x,
                          "--y-values",
                          "32,64",
                          "--fixed",
                          "BK=8,TM=4,TN=4",
                          "--size",
                          "1024x1024x1024",
                          "--budget-ms",
                          "1",
                          "--runner-template",
                          QStringLiteral("FAKE_DELAY_S=0.1 python3 %1").arg(test::standInRunnerPath()),
                          "--slurm",
                          "--runners",
                          "2",
                          "--gpus-per-runner",
                          "0",
                          "--detach"},
                         &code);
        QVERIFY2(code == 0, qPrintable(out));
        const QRegularExpressionMatch job =
            QRegularExpression(QStringLiteral("Submitted Slurm job (\\d+)")).match(out);
        const QRegularExpressionMatch journal =
            QRegularExpression(QStringLiteral("Journal: (.+)")).match(out);
        QVERIFY2(job.hasMatch() && journal.hasMatch(), qPrintable(out));
        jobs << job.captured(1);
        journals << journal.captured(1).trimmed();
    }
    QVERIFY(journals[0] != journals[1]);
    // The bench that submitted them has ended (runSlurmTool waited for it): the jobs run alone.
    QTRY_VERIFY_WITH_TIMEOUT(queuedJobs().isEmpty(), kSweepTimeoutMs);
    for (int i = 0; i < 2; ++i) {
        QVERIFY2(QFileInfo::exists(journals[i]), qPrintable(journals[i]));
        QString error;
        const std::optional<SweepData> done = SweepJournal::read(journals[i], &error);
        QVERIFY2(done, qPrintable(error));
        QVERIFY(unfinishedPoints(planSweep(done->spec), done->runs).isEmpty());
        int code = -1;
        const QString status = runSlurmTool(bench, {"--sweep-status", jobs[i]}, &code);
        QVERIFY2(code == 0 && status.contains(QStringLiteral("4 of 4 points answered")), qPrintable(status));
    }
    // Opening GemmScope: its journal scan puts both finished sweeps into the session.
    const QString folder = QFileInfo(journals[0]).absolutePath();
    const JournalFolderScan scan = scanJournalFolder(folder);
    Session session;
    const JournalScan applied = applyJournalScan(session, scan);
    QCOMPARE(int(applied.loaded.size()), 2);
    QCOMPARE(int(session.sweeps().size()), 2);
    for (const SweepData &s : session.sweeps())
        QCOMPARE(int(s.runs.size()), 4 + 2); // and the two steps' cuBLAS baselines
}

QString TestSweepSlurm::confWith(const QString &name, const QRegularExpression &pattern,
                                 const QString &replacement)
{
    const QByteArray conf = test::readAll(m_cluster.conf());
    if (conf.isEmpty())
        return {};
    const QString path = m_dir.filePath(name);
    return test::writeAll(path, QString::fromUtf8(conf).replace(pattern, replacement).toUtf8()) ? path
                                                                                                : QString();
}

QString TestSweepSlurm::failureOf(const SlurmOptions &slurm)
{
    SweepRun::Options options;
    options.runners = standIns(2);
    options.slurm = slurm;
    options.journalPath =
        m_dir.filePath(QStringLiteral("refused-%1.gsweep").arg(QTest::currentTestFunction()));
    SweepRun run(sizeSweep64(QStringLiteral("sweep-slurm-refused")), options);
    QSignalSpy failed(&run, &SweepRun::schedulerFailed);
    QSignalSpy finished(&run, &SweepRun::finished);
    QString error;
    if (!run.start(&error))
        return QStringLiteral("start() refused: ") + error;
    if (!finished.wait(60000) && finished.isEmpty())
        return QStringLiteral("no end");
    if (!finished.first().first().toBool() || failed.size() != 1)
        return QStringLiteral("not stopped with one sentence");
    if (run.sweep().runs.size() != 0)
        return QStringLiteral("runs were lost to a refusal");
    return failed.first().first().toString();
}

void TestSweepSlurm::badPartitionIsNamed()
{
    SlurmOptions slurm = cpuSteps();
    slurm.partition = QStringLiteral("nope");
    const QString sentence = failureOf(slurm);
    QVERIFY2(sentence.contains(QStringLiteral("partition does not exist")) &&
                 sentence.contains(QStringLiteral("invalid partition specified: nope")),
             qPrintable(sentence));
    QVERIFY(queuedJobs().isEmpty());
}

void TestSweepSlurm::clusterDownIsNamed()
{
    // The same cluster's configuration with its controller's port where nothing listens.
    const QString down =
        confWith(QStringLiteral("down.conf"), QRegularExpression(QStringLiteral("SlurmctldPort=\\d+")),
                 QStringLiteral("SlurmctldPort=1"));
    QVERIFY(!down.isEmpty());
    const test::ScopedEnv env("SLURM_CONF", down.toLocal8Bit());
    const QString sentence = failureOf(cpuSteps());
    QVERIFY2(sentence.contains(QStringLiteral("controller (slurmctld) does not answer")) &&
                 sentence.contains(QStringLiteral("Unable to contact slurm controller")),
             qPrintable(sentence));
}

void TestSweepSlurm::wrongMungeKeyIsNamed()
{
    // A second munged with a key of its own: this client's credentials are not the cluster's.
    const QString d = m_dir.filePath(QStringLiteral("munge2"));
    QVERIFY(QDir().mkpath(d));
    QFile::setPermissions(d, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QByteArray bytes(1024, '\0');
    for (char &b : bytes)
        b = char(QRandomGenerator::global()->generate());
    QVERIFY(test::writeAll(d + QStringLiteral("/key"), bytes));
    QFile::setPermissions(d + QStringLiteral("/key"), QFile::ReadOwner);
    int code = -1;
    const QString started =
        runSlurmTool(QStringLiteral("munged"),
                     {"--key-file=" + d + "/key", "--socket=" + d + "/socket", "--pid-file=" + d + "/pid",
                      "--log-file=" + d + "/log", "--seed-file=" + d + "/seed", "--force"},
                     &code);
    QVERIFY2(code == 0, qPrintable(started));
    const QString wrong =
        confWith(QStringLiteral("wrong-key.conf"), QRegularExpression(QStringLiteral("AuthInfo=socket=\\S+")),
                 QStringLiteral("AuthInfo=socket=%1/socket").arg(d));
    QVERIFY(!wrong.isEmpty());
    QString sentence;
    {
        const test::ScopedEnv env("SLURM_CONF", wrong.toLocal8Bit());
        sentence = failureOf(cpuSteps());
    }
    QFile pid(d + QStringLiteral("/pid")); // this test's munged, by its own pid file
    if (pid.open(QIODevice::ReadOnly))
        ::kill(pid.readAll().trimmed().toInt(), SIGTERM);
    QVERIFY2(sentence.contains(QStringLiteral("munge authentication failed")) &&
                 sentence.contains(QStringLiteral("Slurm said:")),
             qPrintable(sentence));
}

// The Sweep workspace's "Runners: Slurm" drives the same run through its controller: with the box
// ticked each step asks for a GPU of its own, and this cluster, which has none, refuses it in
// Slurm's words before any point is sent; nothing stays in the queue.
void TestSweepSlurm::sweepWorkspaceAsksForAGpuPerStep()
{
    Session session;
    SweepController grid(&session, SweepKind::Grid);
    grid.setJournalDirectory(m_dir.filePath(QStringLiteral("workspace")));
    grid.setRunners(QStringLiteral("python3 ") + test::standInRunnerPath(), 2);
    grid.setSlurm(true);

    QSignalSpy statuses(&grid, &SweepControl::statusChanged);
    QString error;
    QVERIFY2(grid.start(smallSweepSpec(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isRunning(), kSweepTimeoutMs);
    QStringList said;
    for (const QList<QVariant> &s : statuses)
        said << s.first().toString();
    const QString refusal = said.filter(QStringLiteral("salloc failed")).value(0);
    QVERIFY2(refusal.contains(QStringLiteral("what a runner asks for (CPUs or GPUs)")) &&
                 refusal.contains(QStringLiteral("Invalid generic resource (gres) specification")),
             qPrintable(said.join(QLatin1Char('\n'))));
    QVERIFY(queuedJobs().isEmpty());
    QCOMPARE(session.sweeps().size(), 1); // kept, with nothing run: Resume sends every point
    QCOMPARE(session.sweeps().first().runs.size(), 0);
}

void TestSweepSlurm::cleanup()
{
    // Whatever a failed test left in the queue goes before the next one starts.
    const QStringList left = queuedJobs();
    if (!left.isEmpty())
        runSlurmTool(QStringLiteral("scancel"), left);
}

void TestSweepSlurm::cleanupTestCase()
{
    m_conf.reset();
    m_cluster.stop();
}

QTEST_MAIN(TestSweepSlurm)
#include "tst_sweep_slurm.moc"
