// RunnerClient against runners that misbehave (issue 11): one that never says `ready`, hangs in a
// job, ignores a cancel, is killed by a signal, writes a line without end, or speaks a protocol
// version that is not an integer. Each time the job ends with a kind of its own, the runner is
// restarted and the queue goes on. The runners are scripted stand-ins (python3), as in
// tst_runner_client.cpp.
#include "runner_client.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

// How the scripted runner misbehaves on a run, chosen by the request's seed (the protocol's request
// types are typed; the seed reaches the runner as it is).
enum Misbehaviour { Answer = 1, Hang = 101, SigKill = 102, EndlessLine = 103 };

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

// MODE and STATE are filled in per test. STATE counts the starts, so "first" modes misbehave once.
const char *kScript = R"PY(
import json, os, signal, sys, time
MODE = "@MODE@"
STATE = "@STATE@"
def out(o):
    sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
starts = 0
try:
    starts = int(open(STATE).read())
except Exception:
    pass
open(STATE, "w").write(str(starts + 1))
if MODE == "silent_first_start" and starts == 0:
    time.sleep(3600)
protocol = 1
if MODE == "protocol_fraction":
    protocol = 1.5
if MODE == "protocol_string":
    protocol = "1"
out({"event": "ready", "protocol": protocol, "runner": "fake", "gpu": {"name": "Fake GPU", "arch": "sm_90", "sms": 4}})
for line in sys.stdin:
    req = json.loads(line)
    t = req.get("type")
    if t == "quit":
        break
    if t in ("cancel", "ceilings"):
        continue
    seed = req.get("seed", 1)
    if seed == 101:
        time.sleep(3600)
    if seed == 102:
        os.kill(os.getpid(), signal.SIGKILL)
    if seed == 103:
        n = int(os.environ.get("FAKE_LINE_BYTES", "0")) or (64 * 1024 * 1024 + 1)
        chunk = "x" * (1 << 20)
        while n > 0:
            sys.stdout.write(chunk[:min(n, len(chunk))]); n -= len(chunk)
        sys.stdout.flush()
        time.sleep(3600)
    out({"event": "result", "id": req["id"], "stage": req["stage"], "params": req["params"], "size": req["size"],
         "gpu": {"name": "Fake GPU", "arch": "sm_90"},
         "timing": {"median_ms": 1.0, "p20_ms": 0.9, "p80_ms": 1.1, "min_ms": 0.8, "count": 5},
         "tflops": 0.03, "verify": {"rel_error": 1e-7, "tolerance": 1e-5, "passed": True},
         "compiled": {"registers": 40}, "timestamp": "2026-01-01T00:00:00Z"})
)PY";

} // namespace

class TestRunnerWatchdog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qRegisterMetaType<RunRecord>();
        QVERIFY(m_dir.isValid());
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runners");
    }

    // Defect 4: a runner that never sent `ready` left every job queued forever.
    void startupTimeoutRestartsTheRunner()
    {
        RunnerClient client(script(QStringLiteral("silent_first_start")));
        client.setWatchdog({.startupMs = 1000, .silenceMarginMs = 60000, .cancelGraceMs = 1000});
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.submit(request());
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(failed.count(), 0); // the job was waiting, not running: it simply runs later
        QCOMPARE(status.count(), 1);
        QCOMPARE(status[0][0].toBool(), true);
        QCOMPARE(starts(), 2);
    }

    // Defect 4: a job whose runner goes silent beyond its budget plus the margin.
    void silentJobTimesOutAndQueueGoesOn()
    {
        RunnerClient client(script(QStringLiteral("normal")));
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
        RunnerClient client(script(QStringLiteral("normal")));
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
        RunnerClient client(script(QStringLiteral("normal")));
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
        qputenv("FAKE_LINE_BYTES", QByteArray::number(lineBytes));
        RunnerClient client(script(QStringLiteral("normal")));
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
        qunsetenv("FAKE_LINE_BYTES");
    }

    // Defect 12: protocol 1.5 or "1" was reported as "protocol 0".
    void protocolVersionSaysWhatWasReceived_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("said");
        QTest::newRow("1.5") << "protocol_fraction"
                             << "speaks protocol 1.5,";
        QTest::newRow("\"1\"") << "protocol_string"
                               << "speaks protocol \"1\",";
    }
    void protocolVersionSaysWhatWasReceived()
    {
        QFETCH(QString, mode);
        QFETCH(QString, said);
        RunnerClient client(script(mode));
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 10000);
        QCOMPARE(status[0][0].toBool(), false);
        QVERIFY2(status[0][1].toString().contains(said), qPrintable(status[0][1].toString()));
    }

private:
    // A stand-in runner for `mode`, with a fresh start counter.
    QString script(const QString &mode)
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        const QString path = m_dir.filePath(QStringLiteral("runner-%1-%2").arg(mode).arg(++m_scripts));
        m_state = path + QStringLiteral(".starts");
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QStringLiteral("#!%1\n").arg(python).toUtf8());
        f.write(QByteArray(kScript).replace("@MODE@", mode.toUtf8()).replace("@STATE@", m_state.toUtf8()));
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
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
