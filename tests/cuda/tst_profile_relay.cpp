// The runner hands each `profile` job to a child process and relays its answer
// (docs/protocol.md "Profile"). Without a GPU the child's no_gpu answer comes back as the job's;
// a child that crashes, ends without an answer, stays silent, talks forever, floods, forges an
// event a profile never sends or lingers after its answer becomes one sentence and one final
// event, and the runner keeps serving; a device fault in the child ends the runner as the
// protocol says (status 3); the child never outlives the runner. Needs no GPU: the children here
// are stand-in scripts named with --profile-child.
#include "../support/runner_process.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>

namespace {

const QStringList kFinal{QStringLiteral("profile"), QStringLiteral("error"), QStringLiteral("compiled")};
const QStringList kAnswer{QStringLiteral("profile"), QStringLiteral("error")};

QByteArray profileLine(const char *id)
{
    return QByteArray(R"({"type":"profile","id":")") + id +
           R"(","stage":"naive","params":{"BX":16,"BY":16},"size":{"m":256,"n":256,"k":256}})";
}

// A stand-in child: a shell script that does `body` and nothing else.
QString script(const QTemporaryDir &dir, const char *name, const QByteArray &body)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n" + body + "\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QStringList childArguments(const QString &child, const QStringList &more = {})
{
    return QStringList{QStringLiteral("--profile-child"), child} + more;
}

QString eventOf(const QJsonObject &event)
{
    return event.value(QStringLiteral("event")).toString();
}

// Every event of job `id` until its first answer (profile or error), that answer last.
QList<QJsonObject> eventsUntilAnswer(RunnerProcess &runner, const QString &id, int timeoutMs = 120000)
{
    QList<QJsonObject> events;
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const QJsonObject event = runner.next(int(qMax<qint64>(1, deadline.remainingTime())));
        if (event.isEmpty())
            break;
        if (event.value(QStringLiteral("id")).toString() != id)
            continue;
        events << event;
        if (kAnswer.contains(eventOf(event)))
            break;
    }
    return events;
}

// Still a process that runs (a zombie, which a container's pid 1 may never reap, has ended).
bool processRuns(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && close + 2 < text.size() && text.at(close + 2) != 'Z';
}

} // namespace

class TestProfileRelay : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
    }

    // The real child: on a machine without a GPU it answers no_gpu, relayed with the job's id;
    // with a GPU it profiles (tst_profile_gpu checks what).
    void theChildsAnswerIsTheJobs()
    {
        RunnerProcess runner;
        const QJsonObject ready = runner.start();
        QCOMPARE(eventOf(ready), QStringLiteral("ready"));
        runner.send(profileLine("p1"));
        const QJsonObject answer = runner.waitFor(QStringLiteral("p1"), kAnswer, 120000);
        if (ready.value(QStringLiteral("gpu")).isNull()) {
            QCOMPARE(eventOf(answer), QStringLiteral("error"));
            QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("no_gpu"));
        } else {
            QCOMPARE(eventOf(answer), QStringLiteral("profile"));
        }
        QCOMPARE(answer.value(QStringLiteral("id")).toString(), QStringLiteral("p1"));
        // The runner still serves.
        runner.send(QByteArray(R"({"type":"compile","id":"c1","stage":"naive","arch":"sm_80"})"));
        QCOMPARE(eventOf(runner.waitFor(QStringLiteral("c1"), kFinal, 120000)), QStringLiteral("compiled"));
    }

    void aChildThatFailsBecomesOneSentence_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("limits");
        QTest::addColumn<QString>("expected");
        QTest::newRow("crash") << QByteArray("kill -SEGV $$") << QStringList{}
                               << QStringLiteral("crashed before it answered");
        QTest::newRow("silent exit") << QByteArray("exit 7") << QStringList{}
                                     << QStringLiteral("ended (status 7) without an answer");
        QTest::newRow("garbage")
            << QByteArray("echo '<b>not json</b>'; echo '{\"event\":\"profile\",\"id\":\"other\"}'")
            << QStringList{} << QStringLiteral("ended (status 0) without an answer");
        // A child may not make up a measured run: a `result` is no profile's event.
        QTest::newRow("forged result")
            << QByteArray("echo '{\"event\":\"result\",\"id\":\"p2\",\"stage\":\"naive\",\"median_ms\":0.001,"
                          "\"gpu\":{\"name\":\"Forged GPU\"}}'; exec sleep 60")
            << QStringList{} << QStringLiteral("sent a `result` event, which a profile job never sends");
        QTest::newRow("unknown event")
            << QByteArray("echo '{\"event\":\"surprise\",\"id\":\"p2\"}'; exec sleep 60") << QStringList{}
            << QStringLiteral("an event of no known type");
        // Bytes without a newline are held only up to the protocol's line cap.
        QTest::newRow("flood without newlines") << QByteArray("yes x | tr -d '\\n'") << QStringList{}
                                                << QStringLiteral("a line longer than 64 MiB");
        QTest::newRow("silent") << QByteArray("exec sleep 60")
                                << QStringList{QStringLiteral("--profile-silence-ms"), QStringLiteral("1500")}
                                << QStringLiteral("said nothing for 1.5 s");
        QTest::newRow("chatters forever")
            << QByteArray("while :; do echo '{\"event\":\"progress\",\"id\":\"p2\",\"phase\":\"profile\","
                          "\"done\":1,\"total\":2}'; sleep 0.05; done")
            << QStringList{QStringLiteral("--profile-time-limit-ms"), QStringLiteral("2000")}
            << QStringLiteral("had not answered after 2 s");
    }
    void aChildThatFailsBecomesOneSentence()
    {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, limits);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RunnerProcess runner;
        QCOMPARE(eventOf(runner.start(childArguments(script(dir, "child.sh", body), limits))),
                 QStringLiteral("ready"));
        runner.send(profileLine("p2"));
        const QList<QJsonObject> events = eventsUntilAnswer(runner, QStringLiteral("p2"));
        QVERIFY(!events.isEmpty());
        for (const QJsonObject &event : events)
            QVERIFY2(eventOf(event) == QStringLiteral("error") ||
                         eventOf(event) == QStringLiteral("progress"),
                     qPrintable(QJsonDocument(event).toJson(QJsonDocument::Compact)));
        const QJsonObject answer = events.constLast();
        QCOMPARE(eventOf(answer), QStringLiteral("error"));
        const QString message = answer.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("unaffected")));
        // One final event, and the runner still serves.
        runner.send(QByteArray(R"({"type":"compile","id":"c2","stage":"naive","arch":"sm_80"})"));
        QCOMPARE(eventOf(runner.waitFor(QStringLiteral("c2"), kFinal, 120000)), QStringLiteral("compiled"));
        for (const QJsonObject &event : std::as_const(runner.skipped))
            QVERIFY2(event.value(QStringLiteral("id")).toString() != QStringLiteral("p2") ||
                         !kAnswer.contains(eventOf(event)),
                     "a second answer for the profile job");
    }

    // A child that answers and then does not exit is stopped after a grace period: the answer
    // stands, no second final event follows, and the next job is not held up for minutes.
    void aChildThatLingersAfterItsAnswerIsStopped()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pidFile = dir.filePath(QStringLiteral("pid"));
        RunnerProcess runner;
        QCOMPARE(
            eventOf(runner.start(childArguments(script(
                dir, "child.sh",
                "echo $$ > '" + pidFile.toUtf8() +
                    "'; echo "
                    "'{\"event\":\"error\",\"id\":\"p3\",\"kind\":\"invalid_config\",\"message\":\"no\"}'; "
                    "exec sleep 120")))),
            QStringLiteral("ready"));
        runner.send(profileLine("p3"));
        const QJsonObject answer = runner.waitFor(QStringLiteral("p3"), kAnswer, 60000);
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        QElapsedTimer held;
        held.start();
        runner.send(QByteArray(R"({"type":"compile","id":"c3","stage":"naive","arch":"sm_80"})"));
        QCOMPARE(eventOf(runner.waitFor(QStringLiteral("c3"), kFinal, 120000)), QStringLiteral("compiled"));
        // The protocol's grace is 5 s; the compile itself takes a few more on a busy machine.
        QVERIFY2(held.elapsed() < 90000, qPrintable(QString::number(held.elapsed())));
        for (const QJsonObject &event : std::as_const(runner.skipped))
            QVERIFY2(event.value(QStringLiteral("id")).toString() != QStringLiteral("p3"),
                     "a second answer for the profile job");
        QFile pid(pidFile);
        QVERIFY(pid.open(QIODevice::ReadOnly));
        QVERIFY(!processRuns(pid.readAll().trimmed().toLongLong()));
    }

    // A device fault in the child is one in the runner: its sentence is the job's answer and the
    // runner ends with status 3, so that its client starts a new one (and sends what waits).
    void aDeviceFaultInTheChildEndsTheRunner_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("with its event")
            << QByteArray("echo '{\"event\":\"error\",\"id\":\"p4\",\"kind\":\"device_fault\","
                          "\"message\":\"an illegal memory access\"}'; exit 3")
            << QStringLiteral("an illegal memory access");
        QTest::newRow("status 3 alone") << QByteArray("exit 3") << QStringLiteral("fault");
    }
    void aDeviceFaultInTheChildEndsTheRunner()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RunnerProcess runner;
        QCOMPARE(eventOf(runner.start(childArguments(script(dir, "child.sh", body)))),
                 QStringLiteral("ready"));
        runner.send(profileLine("p4"));
        const QJsonObject answer = runner.waitFor(QStringLiteral("p4"), kAnswer, 60000);
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("device_fault"));
        QVERIFY2(answer.value(QStringLiteral("message")).toString().contains(expected),
                 qPrintable(answer.value(QStringLiteral("message")).toString()));
        QVERIFY(runner.process.waitForFinished(30000));
        QCOMPARE(runner.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(runner.process.exitCode(), 3);
    }

    // A runner killed while its child profiles takes the child with it: nothing is left holding
    // a CUDA context.
    void theChildDiesWithTheRunner()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pidFile = dir.filePath(QStringLiteral("pid"));
        RunnerProcess runner;
        QCOMPARE(eventOf(runner.start(childArguments(
                     script(dir, "child.sh", "echo $$ > '" + pidFile.toUtf8() + "'; exec sleep 120")))),
                 QStringLiteral("ready"));
        runner.send(profileLine("p5"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile(pidFile).size() > 0, 60000);
        QFile file(pidFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const qint64 child = file.readAll().trimmed().toLongLong();
        QVERIFY(child > 0);
        QVERIFY(processRuns(child));
        ::kill(pid_t(runner.process.processId()), SIGKILL);
        QVERIFY(runner.process.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!processRuns(child), 30000);
    }
};

QTEST_GUILESS_MAIN(TestProfileRelay)
#include "tst_profile_relay.moc"
