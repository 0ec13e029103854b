// The runner hands each `profile` job to a child runner and relays its answer (issue 23;
// docs/protocol.md "Profile"). Without a GPU the child's no_gpu answer comes back as the job's;
// a child that crashes or ends without an answer becomes a sentence, and the runner keeps
// serving. Needs no GPU.
#include "../support/runner_process.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QStringList kFinal{QStringLiteral("profile"), QStringLiteral("error"), QStringLiteral("compiled")};

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
        QCOMPARE(ready.value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        runner.send(profileLine("p1"));
        const QJsonObject answer = runner.waitFor(
            QStringLiteral("p1"), {QStringLiteral("profile"), QStringLiteral("error")}, 120000);
        if (ready.value(QStringLiteral("gpu")).isNull()) {
            QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
            QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("no_gpu"));
        } else {
            QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("profile"));
        }
        QCOMPARE(answer.value(QStringLiteral("id")).toString(), QStringLiteral("p1"));
        // The runner still serves.
        runner.send(QByteArray(R"({"type":"compile","id":"c1","stage":"naive","arch":"sm_80"})"));
        QCOMPARE(
            runner.waitFor(QStringLiteral("c1"), kFinal, 120000).value(QStringLiteral("event")).toString(),
            QStringLiteral("compiled"));
    }

    void aChildThatFailsBecomesASentence_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("crash") << QByteArray("kill -SEGV $$") << QStringLiteral("crashed before it answered");
        QTest::newRow("silent exit") << QByteArray("exit 7")
                                     << QStringLiteral("ended (status 7) without an answer");
        QTest::newRow("garbage")
            << QByteArray("echo '<b>not json</b>'; echo '{\"event\":\"profile\",\"id\":\"other\"}'")
            << QStringLiteral("ended (status 0) without an answer");
    }
    void aChildThatFailsBecomesASentence()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RunnerProcess runner;
        runner.setEnv(QStringLiteral("GEMMSCOPE_PROFILE_CHILD"), script(dir, "child.sh", body));
        QCOMPARE(runner.start().value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        runner.send(profileLine("p2"));
        const QJsonObject answer = runner.waitFor(
            QStringLiteral("p2"), {QStringLiteral("profile"), QStringLiteral("error")}, 120000);
        QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        const QString message = answer.value(QStringLiteral("message")).toString();
        // Without a GPU the runner refuses before it starts a child: that is a sentence too.
        if (answer.value(QStringLiteral("kind")).toString() == QStringLiteral("no_gpu"))
            QSKIP("no GPU: the runner answers no_gpu before it starts a profiler process");
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("unaffected")));
        runner.send(QByteArray(R"({"type":"compile","id":"c2","stage":"naive","arch":"sm_80"})"));
        QCOMPARE(
            runner.waitFor(QStringLiteral("c2"), kFinal, 120000).value(QStringLiteral("event")).toString(),
            QStringLiteral("compiled"));
    }
};

QTEST_GUILESS_MAIN(TestProfileRelay)
#include "tst_profile_relay.moc"
