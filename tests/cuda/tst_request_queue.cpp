// The runner's queue of requests is bounded in bytes: a client that writes 50 MB
// requests faster than they run made the runner hold gigabytes; now the requests waiting hold at
// most kMaxQueuedRequestBytes, and one past it is answered with a protocol_error and a sentence.
#include "event_sink.h"
#include "job_queue.h"
#include "runner_service.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <mutex>

using namespace gemmscope::runner;

namespace {

class CapturingSink : public EventSink {
public:
    void send(const QJsonObject &event) override
    {
        std::lock_guard lock(m_mutex);
        events.append(event);
    }
    QList<QJsonObject> events;

private:
    std::mutex m_mutex;
};

QueuedJob job(const QString &id, qint64 bytes)
{
    QueuedJob j;
    j.id = id;
    j.requestBytes = bytes;
    return j;
}

// A `run` request line of about `bytes` bytes (a long unknown field pads it).
QByteArray bigRequest(const QString &id, qint64 bytes)
{
    QJsonObject o{{"type", "run"}, {"id", id}, {"stage", "naive"}};
    o.insert(QStringLiteral("padding"), QString(bytes, QLatin1Char('x')));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestRequestQueue : public QObject {
    Q_OBJECT
private slots:
    void queueCountsTheBytesItHolds()
    {
        JobQueue queue;
        const qint64 mib = 1024 * 1024;
        QVERIFY(queue.hasRoomFor(kMaxQueuedRequestBytes)); // one always fits an empty queue
        queue.push(job("a", 40 * mib));
        QCOMPARE(queue.queuedBytes(), 40 * mib);
        QVERIFY(queue.hasRoomFor(24 * mib));
        QVERIFY(!queue.hasRoomFor(25 * mib));
        queue.push(job("b", 10 * mib));
        QueuedJob removed;
        QCOMPARE(queue.cancel("b", &removed), JobQueue::CancelOutcome::RemovedQueued);
        QCOMPARE(queue.queuedBytes(), 40 * mib);
        QVERIFY(queue.takeNext()); // running: no longer waiting
        QCOMPARE(queue.queuedBytes(), 0);
        queue.push(job("c", 5 * mib));
        queue.close(true);
        QCOMPARE(queue.queuedBytes(), 0);
    }

    // Nothing drains the queue here (no GPU worker): the second 40 MB request is refused.
    void requestsPastTheBoundAreRefusedWithASentence()
    {
        QTemporaryDir cache;
        CapturingSink sink;
        RunnerService service(cache.path(), sink);
        const qint64 size = 40LL * 1024 * 1024;
        service.handleLine(bigRequest("first", size));
        QVERIFY(sink.events.isEmpty()); // queued
        service.handleLine(bigRequest("second", size));
        QCOMPARE(sink.events.size(), 1);
        const QJsonObject refusal = sink.events.first();
        QCOMPARE(refusal.value("event").toString(), QStringLiteral("error"));
        QCOMPARE(refusal.value("id").toString(), QStringLiteral("second"));
        QCOMPARE(refusal.value("kind").toString(), QStringLiteral("protocol_error"));
        const QString message = refusal.value("message").toString();
        QVERIFY2(message.contains(QStringLiteral("at most 64 MiB")) && message.endsWith(QLatin1Char('.')),
                 qPrintable(message));
        // Small requests still fit beside the first.
        service.handleLine(R"({"type":"run","id":"small","stage":"naive"})");
        QCOMPARE(sink.events.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRequestQueue)
#include "tst_request_queue.moc"
