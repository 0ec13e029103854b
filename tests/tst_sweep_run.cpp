// SweepRun against scripted stand-in runners (tests/support/stand_in_runner.h): the points of a sweep
// are sharded across two runners with each valid point run exactly once and no invalid one sent;
// each GPU gets its own cuBLAS baseline; a runner killed with SIGKILL mid-sweep and a sweep
// abandoned half-way (the application closed) lose no finished point, and resuming sends only the
// unfinished ones. Also the runner command templates (runner_command.h).
#include "runner_command.h"
#include "support/small_sweep_spec.h"
#include "support/stand_in_runner.h"
#include "sweep_run.h"

#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

QSet<QString> validKeys(const SweepPlan &plan, QSet<QString> *invalid = nullptr)
{
    QSet<QString> keys;
    for (const SweepPoint &p : plan.points) {
        QStringList parts;
        for (const auto &[name, value] : p.params)
            parts << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
        const QString key = QStringLiteral("final|") + parts.join(QLatin1Char(' '));
        (p.valid() ? keys : *invalid) << key;
    }
    return keys;
}

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines;
}

RunnerClient::Watchdog quickWatchdog()
{
    RunnerClient::Watchdog w;
    w.startupMs = 20000;
    w.silenceMarginMs = 20000;
    w.cancelGraceMs = 2000;
    return w;
}

} // namespace

class TestSweepRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void templatesSplitAndFillSafely_data();
    void templatesSplitAndFillSafely();
    void templatesRefuseWhatAShellWouldInterpret_data();
    void templatesRefuseWhatAShellWouldInterpret();
    void shardsAcrossTwoRunners();
    void runnerKilledMidSweepLosesNothing();
    void abandonedSweepResumesWithOnlyTheUnfinished();
    void journalSurvivesATornLastLine();

private:
    QTemporaryDir m_dir;
    QString m_script;
};

void TestSweepRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_script = test::standInRunnerPath();
}

void TestSweepRun::templatesSplitAndFillSafely_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("env");
    QTest::newRow("local") << "gemmscope-runner"
                           << ""
                           << ""
                           << "gemmscope-runner" << QStringList{} << "";
    QTest::newRow("per gpu") << "CUDA_VISIBLE_DEVICES={gpu} {runner} --cache-dir /tmp/c{gpu}"
                             << "1"
                             << ""
                             << "/opt/gs/gemmscope-runner" << QStringList{"--cache-dir", "/tmp/c1"}
                             << "CUDA_VISIBLE_DEVICES=1";
    QTest::newRow("ssh") << "ssh -p 2222 {host} gemmscope-runner"
                         << ""
                         << "user@node-7.lab"
                         << "ssh" << QStringList{"-p", "2222", "user@node-7.lab", "gemmscope-runner"} << "";
    QTest::newRow("srun") << "srun --gres=gpu:1 gemmscope-runner"
                          << ""
                          << ""
                          << "srun" << QStringList{"--gres=gpu:1", "gemmscope-runner"} << "";
    QTest::newRow("quotes") << "'/path with space/runner' \"--x=a \\\"b\\\"\" c\\ d"
                            << ""
                            << ""
                            << "/path with space/runner" << QStringList{"--x=a \"b\"", "c d"} << "";
    QTest::newRow("quoted metacharacters are literal") << "runner ';' '|'"
                                                       << ""
                                                       << ""
                                                       << "runner" << QStringList{";", "|"} << "";
}

void TestSweepRun::templatesSplitAndFillSafely()
{
    QFETCH(QString, text);
    QFETCH(QString, gpu);
    QFETCH(QString, host);
    QFETCH(QString, program);
    QFETCH(QStringList, arguments);
    QFETCH(QString, env);
    RunnerTemplateValues values;
    values.gpu = gpu;
    values.host = host;
    values.runner = QStringLiteral("/opt/gs/gemmscope-runner");
    QString error;
    const std::optional<RunnerCommand> c = parseRunnerTemplate(text, values, &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->program, program);
    QCOMPARE(c->arguments, arguments);
    QStringList envs;
    for (auto it = c->environment.cbegin(); it != c->environment.cend(); ++it)
        envs << it.key() + QLatin1Char('=') + it.value();
    QCOMPARE(envs.join(QLatin1Char(' ')), env);
    QCOMPARE(c->host, host);
}

void TestSweepRun::templatesRefuseWhatAShellWouldInterpret_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("expected");
    QTest::newRow("command list") << "gemmscope-runner; rm -rf ~"
                                  << ""
                                  << "';' outside quotes";
    QTest::newRow("pipe") << "gemmscope-runner | tee log"
                          << ""
                          << "'|' outside quotes";
    QTest::newRow("variable") << "$HOME/gemmscope-runner"
                              << ""
                              << "'$' outside quotes";
    QTest::newRow("substitution") << "`which gemmscope-runner`"
                                  << ""
                                  << "'`' outside quotes";
    QTest::newRow("host as option") << "ssh {host} gemmscope-runner"
                                    << "-oProxyCommand=evil"
                                    << "not a host name";
    QTest::newRow("host with space") << "ssh {host} r"
                                     << "a b"
                                     << "not a host name";
    QTest::newRow("missing value") << "ssh {host} r"
                                   << ""
                                   << "no value was given";
    QTest::newRow("unknown placeholder") << "r {nope}"
                                         << ""
                                         << "knows {gpu}";
    QTest::newRow("unclosed quote") << "r 'abc"
                                    << ""
                                    << "without its closing";
    QTest::newRow("no program") << "A=1 B=2"
                                << ""
                                << "no program";
}

void TestSweepRun::templatesRefuseWhatAShellWouldInterpret()
{
    QFETCH(QString, text);
    QFETCH(QString, host);
    QFETCH(QString, expected);
    RunnerTemplateValues values;
    values.host = host;
    QString error;
    QVERIFY(!parseRunnerTemplate(text, values, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestSweepRun::shardsAcrossTwoRunners()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runners");
    const QString logA = m_dir.filePath("shard-a.log"), logB = m_dir.filePath("shard-b.log");
    SweepData sweep;
    sweep.id = newSweepId();
    sweep.spec = smallSweepSpec();
    SweepRun::Options options;
    options.window = 3;
    options.watchdog = quickWatchdog();
    options.journalPath = m_dir.filePath("shard.gsweep");
    options.runners << test::standInRunner({{"FAKE_LOG", logA},
                                            {"FAKE_GPU_UUID", "GPU-a"},
                                            {"FAKE_HOST", "hostA"},
                                            {"FAKE_DELAY_S", "0.02"}})
                    << test::standInRunner({{"FAKE_LOG", logB},
                                            {"FAKE_GPU_UUID", "GPU-b"},
                                            {"FAKE_HOST", "hostB"},
                                            {"FAKE_DELAY_S", "0.02"},
                                            {"FAKE_SLOWDOWN", "2"}});
    SweepRun run(sweep, options);
    QSignalSpy finished(&run, &SweepRun::finished);
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().first().toBool(), false);

    QSet<QString> invalid;
    const QSet<QString> valid = validKeys(run.plan(), &invalid);
    QVERIFY(!invalid.isEmpty());
    QStringList a = readLines(logA), b = readLines(logB);
    QCOMPARE(a.count(QStringLiteral("cublas_fp32|")), 1); // each GPU its own baseline, first
    QCOMPARE(b.count(QStringLiteral("cublas_fp32|")), 1);
    QCOMPARE(a.first(), QStringLiteral("cublas_fp32|"));
    a.removeAll(QStringLiteral("cublas_fp32|"));
    b.removeAll(QStringLiteral("cublas_fp32|"));
    QVERIFY2(!a.isEmpty() && !b.isEmpty(), "both runners took points");
    const QSet<QString> sa(a.begin(), a.end()), sb(b.begin(), b.end());
    QCOMPARE(sa.size(), a.size()); // no point twice
    QCOMPARE(sb.size(), b.size());
    QVERIFY(!sa.intersects(sb));
    QCOMPARE(sa + sb, valid); // every valid point, and no invalid one, reached a runner
    QVERIFY(!(sa + sb).intersects(invalid));

    // Every point has a finished run naming its host and GPU; ratios use that GPU's baseline.
    QCOMPARE(unfinishedPoints(run.plan(), run.sweep().runs).size(), 0);
    int onB = 0;
    for (const RunRecord &r : run.sweep().runs) {
        QVERIFY(r.host == QLatin1String("hostA") || r.host == QLatin1String("hostB"));
        QCOMPARE(r.gpuUuid,
                 r.host == QLatin1String("hostA") ? QStringLiteral("GPU-a") : QStringLiteral("GPU-b"));
        if (r.isOk() && r.stage != StageId::CublasFp32) {
            const std::optional<double> base = cublasMsOnSameGpu(run.sweep().runs, r);
            QVERIFY(base);
            QCOMPARE(*base, r.host == QLatin1String("hostA") ? 1.0 : 2.0);
            onB += r.host == QLatin1String("hostB");
        }
        if (r.params.value("BM") == 256)
            QCOMPARE(r.errorKind, QStringLiteral("wrong_result")); // finished, and shown as wrong
    }
    QVERIFY(onB > 0);
    // The journal holds what the sweep holds.
    const std::optional<SweepData> journal = SweepJournal::read(options.journalPath, &error);
    QVERIFY2(journal, qPrintable(error));
    QCOMPARE(journal->runs.size(), run.sweep().runs.size());
    QCOMPARE(journal->spec, sweep.spec);
}

void TestSweepRun::runnerKilledMidSweepLosesNothing()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runners");
    const QString log = m_dir.filePath("kill.log");
    SweepData sweep;
    sweep.id = newSweepId();
    sweep.spec = smallSweepSpec();
    SweepRun::Options options;
    options.window = 4;
    options.watchdog = quickWatchdog();
    options.journalPath = m_dir.filePath("kill.gsweep");
    options.runners << test::standInRunner(
        {{"FAKE_LOG", log}, {"FAKE_DIE_AFTER", "4"}, {"FAKE_STATE", m_dir.filePath("kill.state")}});
    SweepRun run(sweep, options);
    QSignalSpy finished(&run, &SweepRun::finished);
    QSignalSpy answered(&run, &SweepRun::runAnswered);
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    QVERIFY(finished.wait(60000));

    // The runner died with SIGKILL holding a point: that run failed as runner_crashed, the runner
    // was restarted, and the point was run again there.
    int crashed = 0;
    for (const RunRecord &r : run.sweep().runs)
        crashed += r.errorKind == QLatin1String("runner_crashed");
    QCOMPARE(crashed, 1);
    QCOMPARE(unfinishedPoints(run.plan(), run.sweep().runs).size(), 0);
    // No finished point was sent twice: only the one the kill interrupted (and the baseline, once per start).
    QStringList lines = readLines(log);
    lines.removeAll(QStringLiteral("cublas_fp32|"));
    const QSet<QString> distinct(lines.begin(), lines.end());
    QCOMPARE(lines.size(), distinct.size() + 1);
    const std::optional<SweepData> journal = SweepJournal::read(options.journalPath, &error);
    QVERIFY2(journal, qPrintable(error));
    QCOMPARE(journal->runs.size(), run.sweep().runs.size());
}

void TestSweepRun::abandonedSweepResumesWithOnlyTheUnfinished()
{
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runners");
    const QString journalPath = m_dir.filePath("resume.gsweep");
    const QString firstLog = m_dir.filePath("resume-1.log"), secondLog = m_dir.filePath("resume-2.log");
    SweepData sweep;
    sweep.id = newSweepId();
    sweep.spec = smallSweepSpec();
    SweepRun::Options options;
    options.window = 2;
    options.watchdog = quickWatchdog();
    options.journalPath = journalPath;
    options.runners << test::standInRunner({{"FAKE_LOG", firstLog}, {"FAKE_DELAY_S", "0.1"}});
    int finishedBefore = 0;
    {
        // The application closes half-way: the SweepRun (and its runner) goes away mid-sweep.
        SweepRun run(sweep, options);
        QSignalSpy answered(&run, &SweepRun::runAnswered);
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(answered.size() >= 5, 30000);
        finishedBefore = int(finishedRunsByKey(run.sweep().runs).size());
    }
    QString error;
    QStringList problems;
    std::optional<SweepData> saved = SweepJournal::read(journalPath, &error, &problems);
    QVERIFY2(saved, qPrintable(error));
    QVERIFY(problems.isEmpty());
    QVERIFY(int(finishedRunsByKey(saved->runs).size()) >= finishedBefore); // nothing lost
    const SweepPlan plan = planSweep(saved->spec);
    const QList<int> left = unfinishedPoints(plan, saved->runs);
    QVERIFY(!left.isEmpty());

    // Restarting resumes: only the unfinished points reach the runner.
    options.runners = {test::standInRunner({{"FAKE_LOG", secondLog}})};
    SweepRun resumed(*saved, options);
    QSignalSpy finished(&resumed, &SweepRun::finished);
    QVERIFY2(resumed.start(&error), qPrintable(error));
    QCOMPARE(resumed.pointsToRun(), int(left.size()));
    QVERIFY(finished.wait(60000));
    QStringList second = readLines(secondLog);
    second.removeAll(QStringLiteral("cublas_fp32|"));
    QCOMPARE(second.size(), left.size());
    const QHash<QString, const RunRecord *> finishedFirst = finishedRunsByKey(saved->runs);
    for (const QString &line : second)
        for (auto it = finishedFirst.cbegin(); it != finishedFirst.cend(); ++it)
            QVERIFY2(!it.key().startsWith(line + QLatin1Char('|')), qPrintable(line));
    const std::optional<SweepData> whole = SweepJournal::read(journalPath, &error);
    QVERIFY(whole);
    QCOMPARE(unfinishedPoints(plan, whole->runs).size(), 0);
}

void TestSweepRun::journalSurvivesATornLastLine()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-torn");
    sweep.spec = smallSweepSpec();
    RunRecord r;
    r.runId = QStringLiteral("j1");
    r.stage = stageIdOf(QStringLiteral("final"));
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = 512;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = 1.5;
    r.count = 3;
    r.tflops = 0.1;
    r.host = QStringLiteral("h");
    r.gpuUuid = QStringLiteral("GPU-x");
    const QString path = m_dir.filePath("torn.gsweep");
    SweepJournal journal;
    QVERIFY(journal.create(path, sweep));
    QVERIFY(journal.append(r));
    journal.close();
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write("{\"run\":{\"id\":\"j2\",\"sta"); // kill -9 in the middle of a write
    f.close();
    QString error;
    QStringList problems;
    const std::optional<SweepData> read = SweepJournal::read(path, &error, &problems);
    QVERIFY2(read, qPrintable(error));
    QCOMPARE(read->runs.size(), 1);
    QCOMPARE(read->runs.first().host, QStringLiteral("h"));
    QCOMPARE(read->runs.first().gpuUuid, QStringLiteral("GPU-x"));
    QCOMPARE(problems.size(), 1);
    // Appending after the torn line starts a fresh line: the next run is readable.
    QVERIFY(journal.openForAppend(path));
    r.runId = QStringLiteral("j3");
    QVERIFY(journal.append(r));
    journal.close();
    QCOMPARE(SweepJournal::read(path)->runs.size(), 2);
}

QTEST_GUILESS_MAIN(TestSweepRun)
#include "tst_sweep_run.moc"
