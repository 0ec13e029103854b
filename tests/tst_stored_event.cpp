// StoredEvent: the runner's final event of a run, decoded once for the views, written back to a
// session exactly as it came: a newer runner's fields, damaged fields and numbers as they were
// written stay, and an edited typed field is written as edited.
#include "stored_event.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gemmscope;

namespace {

QJsonObject resultEvent()
{
    return {{"event", "result"},
            {"id", "r1"},
            {"stage", "coalesced"},
            {"params", QJsonObject{{"BM", 64}}},
            {"size", QJsonObject{{"m", 1024}, {"n", 1024}, {"k", 1024}}},
            {"timing", QJsonObject{{"median_ms", 1.25},
                                   {"p20_ms", 1.2},
                                   {"p80_ms", 1.3},
                                   {"min_ms", 1.1},
                                   {"count", 40},
                                   {"warmup", 2},
                                   {"flush_l2", false}}},
            {"verify", QJsonObject{{"reference", "cublas_fp32"}, {"passed", true}, {"rel_error", 1e-6}}},
            {"counters", QJsonObject{{"dram_read_bytes", 3e9}, {"flops", 2.1e9}}}};
}

// Every object stored under "raw" (a session's run events, a sweep file's cells) in `value`.
void collectStoredEvents(const QJsonValue &value, QList<QJsonObject> &out)
{
    if (value.isArray()) {
        for (const QJsonValue &v : value.toArray())
            collectStoredEvents(v, out);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key() == QLatin1String("raw") && it.value().isObject())
                out << it.value().toObject();
            else
                collectStoredEvents(it.value(), out);
        }
    }
}

} // namespace

class TestStoredEvent : public QObject {
    Q_OBJECT
private slots:
    void aResultIsDecodedOnceAndWrittenAsItCame()
    {
        const QJsonObject received = resultEvent();
        const StoredEvent stored = StoredEvent::fromSession(received);
        QVERIFY(stored.result());
        QVERIFY(!stored.error());
        QCOMPARE(stored.result()->timing.warmup, std::optional<int>(2));
        QVERIFY(stored.result()->counters);
        QCOMPARE(stored.toJson(), received);
    }

    // What a newer runner adds, a field of another type and one the codec would write otherwise:
    // none of it is typed, all of it is saved again.
    void whatIsNotTypedIsKeptAsItCame_data()
    {
        QTest::addColumn<QJsonObject>("received");
        QJsonObject newer = resultEvent();
        newer.insert("energy_j", 12.5);
        QTest::newRow("a newer runner's field") << newer;
        QJsonObject nested = resultEvent();
        QJsonObject timing = nested.value("timing").toObject();
        timing.insert("outliers", QJsonArray{3, 7});
        nested.insert("timing", timing);
        QTest::newRow("a newer field inside timing") << nested;
        QJsonObject damaged = resultEvent();
        damaged.insert("tflops", "fast");
        damaged.insert("counters", QJsonObject{{"flops", "<b>many</b>"}});
        QTest::newRow("fields of another type") << damaged;
        QJsonObject sparse = resultEvent();
        sparse.remove("verify");
        sparse.remove("params");
        QTest::newRow("fields left out") << sparse;
        QTest::newRow("no event type") << QJsonObject{{"counters", QJsonObject{{"flops", 1e9}}}};
        QTest::newRow("an error") << QJsonObject{
            {"event", "error"}, {"id", "r2"}, {"kind", "launch_error"}, {"message", "No."}};
        QTest::newRow("an error of a newer kind")
            << QJsonObject{{"event", "error"}, {"id", "r3"}, {"kind", "solar_flare"}, {"message", "Hm."}};
    }
    void whatIsNotTypedIsKeptAsItCame()
    {
        QFETCH(QJsonObject, received);
        QCOMPARE(StoredEvent::fromSession(received).toJson(), received);
    }

    // The recorded sessions and sweep files (real runners' events, old and new): each stored event
    // comes back exactly as it was written.
    void recordedSessionsKeepEveryStoredEvent()
    {
        QList<QJsonObject> stored;
        QDirIterator it(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded"), {QStringLiteral("*.json")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            collectStoredEvents(QJsonDocument::fromJson(file.readAll()).object(), stored);
        }
        QVERIFY2(stored.size() > 50, qPrintable(QString::number(stored.size())));
        for (const QJsonObject &event : std::as_const(stored)) {
            const QJsonObject back = StoredEvent::fromSession(event).toJson();
            QCOMPARE(back, event);
            // As text too: an integer stays an integer and a decimal a decimal, as they were written.
            QCOMPARE(QJsonDocument(back).toJson(QJsonDocument::Compact),
                     QJsonDocument(event).toJson(QJsonDocument::Compact));
        }
    }

    // Events moved to a spool (a session's, read from a file) keep only where their bytes are:
    // each reads back as it came, typed and whole, copies included, and equals the same event in
    // RAM. An edit brings the edited event back to RAM.
    void spooledEventsReadBackAsTheyCame()
    {
        QJsonObject other = resultEvent();
        other.insert("id", "r9");
        other.insert("energy_j", 12.5);
        const QJsonObject error{
            {"event", "error"}, {"id", "r2"}, {"kind", "launch_error"}, {"message", "No."}};
        StoredEvent a = StoredEvent::fromSession(resultEvent()), b = StoredEvent::fromSession(error),
                    c = StoredEvent::fromSession(other), none;
        const StoredEvent inRam = a;
        StoredEvent::moveToSpool({&a, &b, &c, &none}, EventSpool::create());
        QVERIFY(a.isSpooled() && b.isSpooled() && c.isSpooled());
        QVERIFY(!inRam.isSpooled() && !none.isSpooled() && none.isEmpty());
        QCOMPARE(a.toJson(), resultEvent());
        QCOMPARE(b.toJson(), error);
        QCOMPARE(c.toJson(), other);
        QCOMPARE(b.error()->kind, protocol::ErrorKind::LaunchError);
        QCOMPARE(c.result()->id, QStringLiteral("r9"));
        QVERIFY(a == inRam);
        QVERIFY(!(a == c));
        const StoredEvent copy = c;
        QCOMPARE(copy.toJson(), other);
        protocol::ResultEvent edited = *c.result();
        edited.tflops = 99.0;
        c.setResult(edited);
        QVERIFY(!c.isSpooled());
        QCOMPARE(c.result()->tflops, std::optional<double>(99.0));
        QCOMPARE(copy.toJson(), other);
    }

    // Without a spool (none could be made) the events stay in RAM, whole.
    void withoutASpoolEventsStayInRam()
    {
        StoredEvent a = StoredEvent::fromSession(resultEvent());
        StoredEvent::moveToSpool({&a}, nullptr);
        QVERIFY(!a.isSpooled());
        QCOMPARE(a.toJson(), resultEvent());
    }

    void anErrorIsTypedAsAnError()
    {
        const StoredEvent stored = StoredEvent::fromSession(
            {{"event", "error"}, {"id", "r2"}, {"kind", "wrong_result"}, {"message", "Differs."}});
        QVERIFY(!stored.result());
        QVERIFY(stored.error());
        QCOMPARE(stored.error()->kind, protocol::ErrorKind::WrongResult);
    }

    // A field changed through the typed result is written as changed, even where the received
    // one was kept as it came; the others stay as they came.
    void anEditedFieldIsWrittenAsEdited()
    {
        QJsonObject received = resultEvent();
        received.insert("counters", QJsonObject{{"flops", "many"}}); // kept as it came
        received.insert("energy_j", 12.5);
        StoredEvent stored = StoredEvent::fromSession(received);
        protocol::ResultEvent result = *stored.result();
        result.counters.reset();
        stored.setResult(result);
        QJsonObject expected = received;
        expected.remove("counters");
        QCOMPARE(stored.toJson(), expected);
    }

    void noneIsEmpty()
    {
        QVERIFY(StoredEvent().isEmpty());
        QVERIFY(StoredEvent::fromSession({}).isEmpty());
        QCOMPARE(StoredEvent().toJson(), QJsonObject());
        QVERIFY(!StoredEvent(protocol::ErrorEvent{}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStoredEvent)
#include "tst_stored_event.moc"
