// RunnerTransport, the one way GemmScope's programs talk to a runner (RunnerClient, the bench, the
// compile job), driven synchronously as the bench drives it: events come out line by line, and a
// runner that hangs, writes a line without end or faults ends with its kind and sentence. The
// event-driven side is tst_runner_client's and tst_runner_watchdog's. Runner: the stand-in.
#include "runner_transport.h"
#include "support/stand_in_runner.h"

#include <QJsonArray>
#include <QtTest>

using namespace gemmscope;

namespace {

QJsonObject runJob(const QString &id, int seed)
{
    return {{"type", "run"},
            {"id", id},
            {"stage", "coalesced"},
            {"seed", seed},
            {"params", QJsonObject{{"BM", 64}, {"TM", 4}}},
            {"size", QJsonObject{{"m", 64}, {"n", 64}, {"k", 64}}}};
}

// The transport's events and its end, gathered as the bench gathers them.
struct Recorder {
    explicit Recorder(RunnerTransport &transport)
    {
        QObject::connect(&transport, &RunnerTransport::eventReceived,
                         [this](const QJsonObject &e, const DecodedEvent &typed) {
                             events << e.value("event").toString();
                             decoded << typed.event;
                         });
        QObject::connect(&transport, &RunnerTransport::ended, [this](const RunnerEnd &e) { end = e; });
    }
    // Waits (blocking) until `count` events came or the runner ended.
    void waitFor(RunnerTransport &transport, int count)
    {
        while (events.size() < count && transport.waitForOutput()) {
        }
    }
    QStringList events;
    QList<std::optional<protocol::Event>> decoded; // as the transport decoded each, once
    std::optional<RunnerEnd> end;
};

} // namespace

class TestRunnerTransport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
    }

    void eventsComeLineByLine()
    {
        RunnerTransport transport;
        Recorder seen(transport);
        transport.start(test::standInRunner());
        transport.send(runJob("r1", 1));
        seen.waitFor(transport, 2);
        QCOMPARE(seen.events, (QStringList{"ready", "result"}));
        transport.stop(5000);
        QVERIFY(!transport.isRunning());
        QVERIFY(!seen.end); // asked to stop: not an end to report
    }

    void blockingWatchdogStopsAHungRunner()
    {
        RunnerTransport transport;
        Recorder seen(transport);
        transport.start(test::standInRunner());
        seen.waitFor(transport, 1);
        transport.send(runJob("hang", 101));
        transport.watchSilence(300, protocol::ErrorKind::RunnerTimeout, QStringLiteral("silent too long"));
        seen.waitFor(transport, 2);
        QVERIFY(seen.end);
        QCOMPARE(seen.end->kind, protocol::ErrorKind::RunnerTimeout);
        QCOMPARE(seen.end->message, QStringLiteral("silent too long"));
        QVERIFY(seen.end->killed);
        QCOMPARE(seen.events, QStringList{"ready"});
    }

    void overlongLineIsAProtocolError()
    {
        RunnerTransport transport;
        transport.setMaxLineBytes(1 << 20);
        Recorder seen(transport);
        transport.start(test::standInRunner({{"FAKE_LINE_BYTES", QString::number(3 << 20)}}));
        transport.send(runJob("endless", 103));
        seen.waitFor(transport, 2);
        QVERIFY(seen.end);
        QCOMPARE(seen.end->kind, protocol::ErrorKind::ProtocolError);
        QVERIFY2(seen.end->message.contains(QStringLiteral("longer than 1 MiB")),
                 qPrintable(seen.end->message));
    }

    void deviceFaultEndsWithTheEventsSentence()
    {
        RunnerTransport transport;
        Recorder seen(transport);
        transport.start(test::standInRunner());
        transport.send({{"type", "fault"}, {"id", "f"}});
        seen.waitFor(transport, 3); // ready, the error, then the end
        QCOMPARE(seen.events, (QStringList{"ready", "error"}));
        QVERIFY(seen.end);
        QCOMPARE(seen.end->kind, protocol::ErrorKind::DeviceFault);
        QCOMPARE(seen.end->exitCode, RunnerTransport::kDeviceFaultExitCode);
        QVERIFY2(seen.end->message.contains(QStringLiteral("illegal memory access")),
                 qPrintable(seen.end->message));
    }

    // Each event comes decoded, once, with its JSON: the client reads the typed event, and the
    // transport read the device fault's kind and sentence from the same one.
    void eventsComeDecodedOnce()
    {
        RunnerTransport transport;
        Recorder seen(transport);
        transport.start(test::standInRunner());
        transport.send(runJob("r1", 1));
        transport.send({{"type", "fault"}, {"id", "f"}});
        seen.waitFor(transport, 4);
        QCOMPARE(seen.events, (QStringList{"ready", "result", "error"}));
        QVERIFY(seen.decoded[0] && std::holds_alternative<protocol::ReadyEvent>(*seen.decoded[0]));
        QVERIFY(seen.decoded[1] && std::holds_alternative<protocol::ResultEvent>(*seen.decoded[1]));
        QCOMPARE(std::get<protocol::ResultEvent>(*seen.decoded[1]).id, QStringLiteral("r1"));
        QVERIFY(seen.decoded[2] && std::holds_alternative<protocol::ErrorEvent>(*seen.decoded[2]));
        const auto &error = std::get<protocol::ErrorEvent>(*seen.decoded[2]);
        QCOMPARE(error.kind, protocol::ErrorKind::DeviceFault);
        QVERIFY(seen.end);
        QVERIFY2(seen.end->message.contains(error.message), qPrintable(seen.end->message));
    }

    // A relay that hands events on unread (the runner's profile child) has only errors decoded:
    // the transport needs their kind; a large profile is not decoded for nothing.
    void aRelayHasOnlyErrorsDecoded()
    {
        RunnerTransport transport;
        transport.setDecodeEvents(false);
        Recorder seen(transport);
        transport.start(test::standInRunner());
        transport.send(runJob("r1", 1));
        transport.send({{"type", "fault"}, {"id", "f"}});
        seen.waitFor(transport, 4);
        QCOMPARE(seen.events, (QStringList{"ready", "result", "error"}));
        QVERIFY(!seen.decoded[0] && !seen.decoded[1]);
        QVERIFY(seen.decoded[2] && std::holds_alternative<protocol::ErrorEvent>(*seen.decoded[2]));
        QVERIFY(seen.end);
        QCOMPARE(seen.end->kind, protocol::ErrorKind::DeviceFault);
    }

    void aRunnerThatCannotStartIsUnavailable()
    {
        RunnerTransport transport;
        Recorder seen(transport);
        RunnerCommand command;
        command.program = command.label = QStringLiteral("/nonexistent/gemmscope-runner");
        transport.start(command);
        seen.waitFor(transport, 1);
        QTRY_VERIFY(seen.end.has_value());
        QCOMPARE(seen.end->kind, protocol::ErrorKind::RunnerUnavailable);
        QVERIFY(seen.end->startFailed);
        QVERIFY2(seen.end->message.startsWith(
                     QStringLiteral("/nonexistent/gemmscope-runner could not be started")),
                 qPrintable(seen.end->message));
    }
};

QTEST_GUILESS_MAIN(TestRunnerTransport)
#include "tst_runner_transport.moc"
