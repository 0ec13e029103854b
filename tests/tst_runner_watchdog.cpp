// RunnerClient against runners that misbehave: one that never says `ready`, hangs in a
// job, ignores a cancel, is killed by a signal, writes a line without end, or speaks a protocol
// version that is not an integer. Each time the job ends with a kind of its own, the runner is
// restarted and the queue goes on. The runner is the scripted stand-in
// (tests/support/stand_in_runner.py), as in tst_runner_client.cpp.
#include "runner_client.h"
#include "support/stand_in_runner.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

// How the stand-in misbehaves on a run, chosen by the request's seed (the protocol's request types
// are typed; the seed reaches the runner as it is).
enum Misbehaviour { Answer = 1, Hang = 101, SigKill = 102, EndlessLine = 103, FaultWithoutExit = 104 };

RunRequest request(Misbehaviour how = Answer, int budgetMs = 100)
{
    RunRequest r;
    r.tag = kLadderTag;
    r.seed = how;
    r.config.stage = StageId::Coalesced;
    r.config.params = defaultParams(StageId::Coalesced);
    r.config.size = {256, 256, 256};
    r.config.timing.budgetMs = budgetMs;
    return r;
}

RunRequest profile(Misbehaviour how)
{
    RunRequest r = profileRequest(request().config);
    r.seed = how;
    return r;
}

} // namespace

class TestRunnerWatchdog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qRegisterMetaType<RunRecord>();
        QVERIFY(m_dir.isValid());
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runners");
    }

    // Defect 4: a runner that never sent `ready` left every job queued forever.
    void startupTimeoutRestartsTheRunner()
    {
        RunnerClient client;
        client.setCommand(standIn({{"FAKE_SILENT_STARTS", "1"}})); // the first start never says ready
        // The limit is every start's: the second one, a Python stand-in on a busy 2-core machine,
        // must say ready within it too (1 s failed there), so it is generous.
        client.setWatchdog({.startupMs = 10000, .silenceMarginMs = 60000, .cancelGraceMs = 1000});
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 90000);
        QCOMPARE(failed.count(), 0); // the job was waiting, not running: it simply runs later
        QCOMPARE(status.count(), 1);
        QCOMPARE(status[0][0].toBool(), true);
        QCOMPARE(starts(), 2);
    }

    // Defect 4: a job whose runner goes silent beyond its budget plus the margin.
    void silentJobTimesOutAndQueueGoesOn()
    {
        RunnerClient client;
        client.setCommand(standIn());
        client.setWatchdog({.startupMs = 10000, .silenceMarginMs = 1000, .cancelGraceMs = 1000});
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        const QString hung = client.submit(request(Hang, 500));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 20000);
        QCOMPARE(failed.count(), 1);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, hung);
        QCOMPARE(record.errorKind, QStringLiteral("runner_timeout"));
        QVERIFY2(record.errorMessage.contains(QStringLiteral("sent nothing for 1.5 s")),
                 qPrintable(record.errorMessage));
        QVERIFY(record.errorMessage.contains(QStringLiteral("restarted")));
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
        QCOMPARE(starts(), 2);
    }

    // Defect 4: Cancel of a hung job only sent the protocol cancel, which a hung runner never reads.
    void cancelOfHungJobKillsTheRunner()
    {
        RunnerClient client;
        client.setCommand(standIn());
        client.setWatchdog({.startupMs = 10000, .silenceMarginMs = 600000, .cancelGraceMs = 500});
        QSignalSpy started(&client, &RunnerClient::runStarted);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        const QString hung = client.submit(request(Hang));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        client.cancel(hung);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, hung);
        QCOMPARE(record.errorKind, QStringLiteral("cancelled"));
        QVERIFY(record.errorMessage.contains(QStringLiteral("did not stop")));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 10000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

    // Defect 4: a runner killed by a signal (kill -9, the OOM killer) is not a device fault.
    void killedRunnerIsNotADeviceFault()
    {
        RunnerClient client;
        client.setCommand(standIn());
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        const QString killed = client.submit(request(SigKill));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(failed.count(), 1);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, killed);
        QCOMPARE(record.errorKind, QStringLiteral("runner_crashed"));
        QVERIFY(record.errorMessage.contains(QStringLiteral("signal")));
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

    // Defect 5: a line without end was buffered without limit (1 GB took > 300 s and 3 GB of memory).
    void overlongLineIsAProtocolError_data()
    {
        QTest::addColumn<qlonglong>("capBytes"); // 0: the real cap, 64 MiB
        QTest::addColumn<qlonglong>("lineBytes");
        QTest::newRow("lowered cap") << qlonglong(1 << 20) << qlonglong(3 << 20);
        QTest::newRow("64 MiB + 1") << 0LL << qlonglong(RunnerClient::kMaxLineBytes + 1);
    }
    void overlongLineIsAProtocolError()
    {
        QFETCH(qlonglong, capBytes);
        QFETCH(qlonglong, lineBytes);
        RunnerClient client;
        client.setCommand(standIn({{"FAKE_LINE_BYTES", QString::number(lineBytes)}}));
        RunnerClient::Watchdog limits;
        if (capBytes > 0)
            limits.maxLineBytes = capBytes;
        client.setWatchdog(limits);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        const QString endless = client.submit(request(EndlessLine));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.runId, endless);
        QCOMPARE(record.errorKind, QStringLiteral("protocol_error"));
        QVERIFY2(record.errorMessage.contains(QStringLiteral("longer than")),
                 qPrintable(record.errorMessage));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

    // A silent profile is timed by the protocol's limit for a profile child (plus the margin), not
    // by the run's timing budget, and its sentence names the profile.
    void silentProfileIsTimedAsAProfile()
    {
        RunnerClient client;
        client.setCommand(standIn());
        client.setWatchdog(
            {.startupMs = 10000, .silenceMarginMs = 500, .cancelGraceMs = 1000, .profileSilenceMs = 1000});
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::profileFailed);
        const QString hung = client.submit(profile(Hang));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QCOMPARE(failed[0][0].toString(), hung);
        QCOMPARE(failed[0][1].toString(), QStringLiteral("runner_timeout"));
        const QString message = failed[0][2].toString();
        QVERIFY2(message.contains(QStringLiteral("sent nothing for 1.5 s while it profiled")),
                 qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("budget")), qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
    }

    // A runner that reports a device fault must end (status 3); one that does not is stopped, so
    // that what waits behind the profile is sent to a new runner instead of never.
    void deviceFaultWithoutExitIsStoppedAndTheQueueGoesOn()
    {
        RunnerClient client;
        client.setCommand(standIn());
        client.setWatchdog({.startupMs = 10000,
                            .silenceMarginMs = 600000,
                            .cancelGraceMs = 1000,
                            .profileSilenceMs = 600000,
                            .faultExitMs = 1000});
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy runFailed(&client, &RunnerClient::runFailed);
        QSignalSpy failed(&client, &RunnerClient::profileFailed);
        const QString faulted = client.submit(profile(FaultWithoutExit));
        const QString after = client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 15000);
        QCOMPARE(failed[0][0].toString(), faulted);
        QCOMPARE(failed[0][1].toString(), QStringLiteral("device_fault"));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 20000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
        QCOMPARE(runFailed.count(), 0); // the run waited; it never ran on the faulted runner
        QCOMPARE(starts(), 2);
    }

    // Defect 12: protocol 1.5 or "1" was reported as "protocol 0".
    void protocolVersionSaysWhatWasReceived_data()
    {
        QTest::addColumn<QString>("version"); // what the stand-in's ready says, as JSON text
        QTest::addColumn<QString>("said");
        QTest::newRow("1.5") << "1.5"
                             << "speaks protocol 1.5,";
        QTest::newRow("\"1\"") << "\"1\""
                               << "speaks protocol \"1\",";
    }
    void protocolVersionSaysWhatWasReceived()
    {
        QFETCH(QString, version);
        QFETCH(QString, said);
        RunnerClient client;
        client.setCommand(standIn({{"FAKE_PROTOCOL", version}}));
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 10000);
        QCOMPARE(status[0][0].toBool(), false);
        QVERIFY2(status[0][1].toString().contains(said), qPrintable(status[0][1].toString()));
    }

private:
    // The stand-in with `environment` and a fresh start counter (FAKE_STARTS, read by starts()).
    RunnerCommand standIn(QMap<QString, QString> environment = {})
    {
        m_state = m_dir.filePath(QStringLiteral("runner-%1.starts").arg(++m_scripts));
        environment.insert(QStringLiteral("FAKE_STARTS"), m_state);
        return test::standInRunner(environment);
    }
    int starts() const
    {
        QFile f(m_state);
        return f.open(QIODevice::ReadOnly) ? f.readAll().toInt() : 0;
    }
    QTemporaryDir m_dir;
    QString m_state;
    int m_scripts = 0;
};

QTEST_GUILESS_MAIN(TestRunnerWatchdog)
#include "tst_runner_watchdog.moc"
