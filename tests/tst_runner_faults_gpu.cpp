// Faults survived on the GPU machine (docs/reliability.md): RunnerClient with the real
// gemmscope-runner on a GPU, through a device fault in the middle of a ladder, a kill -9 of the
// runner in the middle of a run, and a runner that hangs (SIGSTOP). Each time the run in flight
// fails with its own kind, the runner is restarted and the next run succeeds. Skips without a GPU.
#include "runner_client.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace gemmscope;

namespace {

RunRequest run(const char *preset, long long n, int budgetMs,
               protocol::RequestType type = protocol::RequestType::Run)
{
    RunRequest r;
    r.tag = kLadderTag;
    r.type = type;
    const Preset *p = findPreset(preset);
    r.config.stage = p->stage;
    r.config.params = p->params;
    r.config.presetKey = QString::fromLatin1(preset);
    r.config.size = {n, n, n};
    r.config.timing.budgetMs = budgetMs;
    // A noise target no run meets: each one times for its whole budget, so that the long ones are
    // still timing when the test kills or stops the runner (the default stops at 0.5 %).
    r.config.timing.maxNoisePct = 0.001;
    r.config.timing.counters = false;
    return r;
}

// The gemmscope-runner this process started (Linux: /proc/<pid>/stat names the parent).
pid_t runnerPid()
{
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        if (!isPid)
            continue;
        QFile stat(proc.filePath(entry + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const qsizetype close = text.lastIndexOf(')');
        const QByteArray name = text.mid(text.indexOf('(') + 1, close - text.indexOf('(') - 1);
        const QList<QByteArray> fields = text.mid(close + 2).split(' ');
        if (name.startsWith("gemmscope-runn") && fields.size() > 1 && fields[1].toInt() == getpid())
            return pid;
    }
    return 0;
}

} // namespace

class TestRunnerFaultsGpu : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        qRegisterMetaType<RunRecord>();
        m_runner = qEnvironmentVariable("GEMMSCOPE_RUNNER");
        if (m_runner.isEmpty() || !QFile::exists(m_runner))
            QSKIP("gemmscope-runner is not built (no CUDA Toolkit): GEMMSCOPE_RUNNER is not set");
    }

    void deviceFaultMidLadder()
    {
        RunnerClient client(m_runner);
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 60000);
        if (!status[0][0].toBool())
            QSKIP(qPrintable(QStringLiteral("No GPU: ") + status[0][1].toString()));
        const QString before = client.submit(run("worklog-3", 1024, 200));
        const QString fault = client.submit(run("worklog-3", 1024, 200, protocol::RequestType::Fault));
        const QString after = client.submit(run("worklog-2", 1024, 200));
        QTRY_COMPARE_WITH_TIMEOUT(results.count() + failed.count(), 3, 300000);
        QCOMPARE(failed.count(), 1);
        const RunRecord faulted = failed[0][0].value<RunRecord>();
        QCOMPARE(faulted.runId, fault);
        QCOMPARE(faulted.errorKind, QStringLiteral("device_fault"));
        qInfo("device fault: %s", qPrintable(faulted.errorMessage));
        QCOMPARE(results[0][0].value<RunRecord>().runId, before);
        QCOMPARE(results[1][0].value<RunRecord>().runId, after);
        QVERIFY(results[1][0].value<RunRecord>().registers > 0);
        QCOMPARE(status.count(), 2); // ready, and ready again from the restarted runner
    }

    void killMinus9MidRun()
    {
        RunnerClient client(m_runner);
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy progress(&client, &RunnerClient::progress);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 60000);
        if (!status[0][0].toBool())
            QSKIP("No GPU");
        const QString killed = client.submit(run("worklog-0", 4096, 20000)); // naive, 20 s of timing
        const QString after = client.submit(run("worklog-3", 1024, 200));
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(progress.cbegin(), progress.cend(),
                                             [](const QList<QVariant> &a) {
                                                 return a[1].value<protocol::ProgressPhase>() ==
                                                        protocol::ProgressPhase::Timing;
                                             }),
                                 300000);
        const pid_t pid = runnerPid();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid, SIGKILL), 0);
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 300000);
        QCOMPARE(failed.count(), 1);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, killed);
        QCOMPARE(record.errorKind, QStringLiteral("runner_crashed"));
        qInfo("kill -9: %s", qPrintable(record.errorMessage));
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

    void runnerHung()
    {
        RunnerClient client(m_runner);
        client.setWatchdog({.startupMs = 60000, .silenceMarginMs = 10000, .cancelGraceMs = 5000});
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy progress(&client, &RunnerClient::progress);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 60000);
        if (!status[0][0].toBool())
            QSKIP("No GPU");
        const QString hung = client.submit(run("worklog-3", 2048, 5000));
        const QString after = client.submit(run("worklog-3", 1024, 200));
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(progress.cbegin(), progress.cend(),
                                             [](const QList<QVariant> &a) {
                                                 return a[1].value<protocol::ProgressPhase>() ==
                                                        protocol::ProgressPhase::Timing;
                                             }),
                                 300000);
        const pid_t pid = runnerPid();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid, SIGSTOP), 0); // hangs: alive, silent
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, hung);
        QCOMPARE(record.errorKind, QStringLiteral("runner_timeout"));
        qInfo("hung runner: %s", qPrintable(record.errorMessage));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 300000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

private:
    QString m_runner;
};

QTEST_GUILESS_MAIN(TestRunnerFaultsGpu)
#include "tst_runner_faults_gpu.moc"
