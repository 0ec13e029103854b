// A session's runs read in pieces (session_runs_read.h): the same session as the one-document
// parse gives, for every session fixture; a damaged large file refused with a sentence naming
// where (a damage in any piece, and in the separators between pieces, which no piece's parser
// sees); the progress it reports; a cancelled read that returns nothing.
#include "file_open.h"
#include "profile_prescan.h"
#include "session.h"
#include "session_codec.h"
#include "session_runs_read.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSet>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>
#include <unistd.h>

using namespace gemmscope;

namespace {

const QString kLadder = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json");
const QString kDefaultSession =
    QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json");

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

// The same bytes with the root's "runs" named through an escape: the same JSON to the parser,
// but no list the prescan recognises, so parseSessionJson reads them as one document, as before.
QByteArray asOneDocument(QByteArray bytes)
{
    const qsizetype at = bytes.indexOf("\"runs\":");
    if (at < 0)
        qFatal("no runs list");
    return bytes.replace(at, 7, "\"\\u0072uns\":");
}

// A session of `count` runs, repeated from the ladder's under new ids, written compactly (as
// scripts/big-session.py writes it) or indented (as GemmScope saves).
QByteArray bigSession(int count, QJsonDocument::JsonFormat format = QJsonDocument::Compact)
{
    QJsonObject session = QJsonDocument::fromJson(fileBytes(kLadder)).object();
    const QJsonArray runs = session.value(QStringLiteral("runs")).toArray();
    QJsonArray many;
    for (int i = 0; i < count; ++i) {
        QJsonObject run = runs.at(i % runs.size()).toObject();
        run.insert(QStringLiteral("run_id"), QStringLiteral("big%1").arg(i));
        many.append(run);
    }
    session.insert(QStringLiteral("runs"), many);
    return QJsonDocument(session).toJson(format);
}

// Where run `index` of a compact big session begins (its '{').
qsizetype runBegin(const QByteArray &bytes, int index)
{
    const ProfilePrescan pass = leaveOutOversizedProfiles(bytes);
    if (!pass.runs || qsizetype(pass.runs->entries.size()) <= index)
        qFatal("run %d not found", index);
    return pass.runs->entries[size_t(index)].begin;
}

// The byte a refusal names ("... at byte 1234 ..."), or -1.
qsizetype namedByte(const QString &sentence)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("byte (\\d+)")).match(sentence);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace

class TestSessionRunsRead : public QObject {
    Q_OBJECT
private slots:
    // Every session fixture, and large ones written both ways, reads to the same session in
    // pieces as in one document: saved again, byte for byte the same file.
    void piecesReadTheSameSessionAsOneDocument_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("runs");
        QTest::newRow("ladder fixture") << fileBytes(kLadder) << 23;
        QTest::newRow("default session") << fileBytes(kDefaultSession) << -1;
        QTest::newRow("1,000 runs, compact") << bigSession(1000) << 1000;
        QTest::newRow("600 runs, indented") << bigSession(600, QJsonDocument::Indented) << 600;
        QTest::newRow("no runs") << QByteArray("{\"format\":\"gemmscope-session\",\"version\":1,\"created\":"
                                               "\"2026-12-06T10:00:00Z\",\"runs\":[ ]}")
                                 << 0;
    }
    void piecesReadTheSameSessionAsOneDocument()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, runs);
        const ProfilePrescan pass = leaveOutOversizedProfiles(bytes);
        QVERIFY(pass.runs && pass.runs->closed); // read in pieces
        QVERIFY(!leaveOutOversizedProfiles(asOneDocument(bytes)).runs);
        ReadProgress progress;
        const SessionParse pieces = parseSessionJson(bytes, &progress);
        const SessionParse whole = parseSessionJson(asOneDocument(bytes));
        QVERIFY2(pieces.data, qPrintable(pieces.error));
        QVERIFY2(whole.data, qPrintable(whole.error));
        if (runs >= 0)
            QCOMPARE(pieces.data->runs.size(), runs);
        QVERIFY(!pieces.data->runs.isEmpty() || runs == 0);
        QCOMPARE(progress.runsTotal.load(), qint64(pieces.data->runs.size()));
        QCOMPARE(progress.runsRead.load(), qint64(pieces.data->runs.size()));
        QCOMPARE(pieces.data->notices, whole.data->notices);
        QCOMPARE(pieces.data->profiles.size(), whole.data->profiles.size());
        QCOMPARE(pieces.data->sweeps.size(), whole.data->sweeps.size());
        QCOMPARE(serializeSession(*pieces.data), serializeSession(*whole.data));
        for (qsizetype i = 0; i < pieces.data->runs.size(); ++i)
            QCOMPARE(toJson(pieces.data->runs[i]), toJson(whole.data->runs[i]));
    }

    // A large session as GemmScope saves it, read (in pieces) and saved again: the same bytes, the
    // runner's stored events (kept compactly, not decoded) included.
    void aSavedLargeSessionSavesAgainByteForByte()
    {
        const SessionParse first = parseSessionJson(bigSession(800));
        QVERIFY2(first.data, qPrintable(first.error));
        const QByteArray saved = serializeSession(*first.data);
        QVERIFY(saved.contains("\"ptxas_log\"")); // the stored events are in it
        const SessionParse again = parseSessionJson(saved, nullptr);
        QVERIFY2(again.data, qPrintable(again.error));
        QCOMPARE(again.data->runs.size(), 800);
        QCOMPARE(serializeSession(*again.data), saved);
    }

    // A session read from a file keeps its runs' stored events out of RAM (in a spool of the
    // process's own), every one of them: saved again after its file was overwritten, nothing is
    // lost, the same bytes.
    void aReadSessionKeepsItsEventsOutOfRam()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("big.json"));
        const QByteArray saved = serializeSession(*parseSessionJson(bigSession(600)).data);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(saved) == saved.size());
        file.close();
        const SessionParse read = readSessionFile(path);
        QVERIFY2(read.data, qPrintable(read.error));
        QCOMPARE(read.data->runs.size(), 600);
        for (const RunRecord &run : read.data->runs)
            QVERIFY(run.event.isSpooled());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate)); // overwritten: a save elsewhere
        file.close();
        QCOMPARE(serializeSession(*read.data), saved);
    }

    // A spooled event that cannot be read back (the disk under the spool failed; here its file is
    // cut short) makes a save refuse with a sentence and leave the file on disk as it was, rather
    // than write the runs without what their runners said.
    void aSaveRefusesWhereASpooledEventCannotBeRead()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("big.json"));
        const QByteArray saved = serializeSession(*parseSessionJson(bigSession(300)).data);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(saved) == saved.size());
        file.close();
        const SessionParse read = readSessionFile(path);
        QVERIFY2(read.data, qPrintable(read.error));
        QVERIFY(read.data->runs.first().event.isSpooled());
        // The spools this process holds, found by their unlinked names: "gemmscope-events-…" or,
        // made with O_TMPFILE, "#inode"; either way "(deleted)". Cutting another temporary file
        // of this test's own would harm nothing.
        const auto isSpoolFile = [](const QByteArray &target) {
            return target.endsWith(" (deleted)") &&
                   (target.contains("gemmscope-events-") || target.contains("/#"));
        };
        int cut = 0;
        for (const QString &fd :
             QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::AllEntries | QDir::System)) {
            char target[4096] = {};
            const QByteArray link = QByteArrayLiteral("/proc/self/fd/") + fd.toUtf8();
            if (::readlink(link.constData(), target, sizeof target - 1) > 0 &&
                isSpoolFile(QByteArray(target)))
                cut += ::ftruncate(fd.toInt(), 0) == 0 ? 1 : 0;
        }
        QVERIFY(cut > 0);
        QString error;
        QVERIFY(!writeSessionFile(path, *read.data, &error));
        QVERIFY2(error.contains(QStringLiteral("nothing was written")), qPrintable(error));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), saved);
    }

    // The texts that recur from run to run (GPU, host, origin, preset, the parameters' names) are
    // held once, not once a run: reading a large session, runs of one piece share them.
    void repeatedTextsAreHeldOnce()
    {
        const SessionParse parsed = parseSessionJson(bigSession(600), nullptr);
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        const RunRecord &a = parsed.data->runs[1], &b = parsed.data->runs[24]; // the same ladder run
        QCOMPARE(a.gpuName, b.gpuName);
        QVERIFY(!a.gpuName.isEmpty());
        QCOMPARE(a.gpuName.constData(), b.gpuName.constData());
        QCOMPARE(a.origin.constData(), b.origin.constData());
        QCOMPARE(a.presetKey.constData(), b.presetKey.constData());
        QVERIFY(!a.params.isEmpty());
        QCOMPARE(a.params.firstKey().constData(), b.params.firstKey().constData());
        QVERIFY(a.counters && !a.counters->metrics.isEmpty());
        QCOMPARE(a.counters->metrics.firstKey().constData(), b.counters->metrics.firstKey().constData());
    }

    // A large file damaged anywhere in its runs is refused with a sentence that says where; the
    // damages between two pieces (256 runs each) are found too, though no piece's parser sees them.
    void aDamagedLargeFileIsRefusedWithWhere_data()
    {
        QTest::addColumn<QByteArray>("damaged");
        QTest::addColumn<qsizetype>("near"); // the byte the sentence should name (-1: none)
        QTest::addColumn<QString>("says");
        const QByteArray good = bigSession(1000);
        const qsizetype late = runBegin(good, 900), boundary = runBegin(good, 512);
        QByteArray bytes = good;
        QTest::newRow("garbage inside a late run")
            << bytes.replace(late + 1, 1, "#") << late + 1 << QStringLiteral("not valid JSON");
        bytes = good;
        QTest::newRow("no comma between two pieces")
            << bytes.replace(boundary - 1, 1, " ") << boundary - 1 << QStringLiteral("one comma");
        bytes = good;
        QTest::newRow("two commas between two pieces")
            << bytes.insert(boundary, ",") << boundary << QStringLiteral("one comma");
        bytes = good;
        QTest::newRow("a comma before the first run")
            << bytes.insert(runBegin(good, 0), ",") << runBegin(good, 0) << QStringLiteral("one comma");
        bytes = good;
        const qsizetype last = good.indexOf("]", good.lastIndexOf("\"run_id\""));
        QTest::newRow("a comma after the last run")
            << bytes.insert(last, ",") << last << QStringLiteral("not valid");
        QTest::newRow("cut inside a run")
            << good.left(late + 500) << late + 500 << QStringLiteral("not valid JSON");
        QTest::newRow("cut after a run")
            << good.left(boundary) << boundary << QStringLiteral("not valid JSON");
        bytes = good;
        QTest::newRow("a run without its id")
            << bytes.replace("\"run_id\":\"big900\"", "\"run_ix\":\"big900\"") << qsizetype(-1)
            << QStringLiteral("run list is damaged");
        bytes = good;
        QTest::newRow("an id twice, pieces apart") << bytes.replace("\"big999\"", "\"big1\"") << qsizetype(-1)
                                                   << QStringLiteral("big1 appears twice");
    }
    void aDamagedLargeFileIsRefusedWithWhere()
    {
        QFETCH(QByteArray, damaged);
        QFETCH(qsizetype, near);
        QFETCH(QString, says);
        const SessionParse parsed = parseSessionJson(damaged);
        QVERIFY(!parsed.data);
        QVERIFY(!parsed.cancelled);
        QVERIFY2(parsed.error.contains(says), qPrintable(parsed.error));
        if (near >= 0) {
            const qsizetype named = namedByte(parsed.error);
            QVERIFY2(named >= near - 2 && named <= near + 2,
                     qPrintable(QStringLiteral("%1 (expected byte %2)").arg(parsed.error).arg(near)));
        }
        // Read in one document, the same file is refused too.
        QVERIFY(!parseSessionJson(asOneDocument(damaged)).data);
    }

    // Opened as the window opens it, a damaged large file changes nothing in the open session.
    void aDamagedLargeFileLosesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray good = bigSession(1000);
        QByteArray damaged = good;
        damaged.replace(runBegin(good, 700) + 1, 1, "\x01");
        const QString path = dir.filePath(QStringLiteral("big-damaged.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(damaged) == damaged.size());
        file.close();
        const OpenedFile opened = readGemmScopeFile(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.startsWith(QStringLiteral("big-damaged.json was not opened")),
                 qPrintable(opened.error));
        Session session;
        QString error;
        QVERIFY(session.open(kLadder, &error));
        QVERIFY(!session.open(path, &error));
        QVERIFY2(error.contains(QStringLiteral("not valid JSON")), qPrintable(error));
        QCOMPARE(session.runs().size(), 23);
        QCOMPARE(session.filePath(), QFileInfo(kLadder).absoluteFilePath());
    }

    // A read on the pool, as the window opens a file, reads its pieces on the pool's other thread
    // too (two on a 2-core machine), not on the waiting one alone: the first piece waits until
    // another thread starts one.
    void aReadOnThePoolReadsOnEveryThread()
    {
        QThreadPool *pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(2);
        const QByteArray bytes = bigSession(1024); // four pieces
        QMutex mutex;
        QSet<QThread *> readers;
        QSemaphore anotherReads;
        ReadProgress progress;
        progress.pieceStarts = [&](size_t firstRun) {
            {
                QMutexLocker lock(&mutex);
                readers.insert(QThread::currentThread());
                if (readers.size() > 1)
                    anotherReads.release();
            }
            if (firstRun == 0)
                anotherReads.tryAcquire(1, 10000);
        };
        const SessionParse parsed =
            QtConcurrent::run(pool, [&] { return parseSessionJson(bytes, &progress); }).result();
        pool->setMaxThreadCount(threads);
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QCOMPARE(parsed.data->runs.size(), 1024);
        QCOMPARE(readers.size(), 2);
    }

    // A read cancelled before or while it runs returns nothing and says nothing: the caller drops
    // it. Uncancelled, the same bytes read whole.
    void aCancelledReadReturnsNothing()
    {
        const QByteArray bytes = bigSession(1000);
        ReadProgress cancelled;
        cancelled.cancelled = true;
        const SessionParse parsed = parseSessionJson(bytes, &cancelled);
        QVERIFY(parsed.cancelled);
        QVERIFY(!parsed.data);
        QVERIFY(parsed.error.isEmpty());
        QCOMPARE(cancelled.runsRead.load(), qint64(0));
        // The one-document read stops as well.
        ReadProgress alsoCancelled;
        alsoCancelled.cancelled = true;
        QVERIFY(parseSessionJson(asOneDocument(bytes), &alsoCancelled).cancelled);
        ReadProgress running;
        const SessionParse whole = parseSessionJson(bytes, &running);
        QVERIFY(whole.data && !whole.cancelled);
        QCOMPARE(whole.data->runs.size(), 1000);
    }

    // The prescan finds the root's run list only: not "runs" in a string, a deeper member, or a
    // list named twice; it says where a truncated list stops.
    void thePrescanFindsOnlyTheRootsRunList()
    {
        const QByteArray tricky = "{\"title\":\"\\\"runs\\\":[1,2]\",\"x\":{\"runs\":[3]},\"runs\":[{\"a\":"
                                  "\"]\"} , 5,\"s\"],\"y\":1}";
        ProfilePrescan pass = leaveOutOversizedProfiles(tricky);
        QVERIFY(pass.runs && pass.runs->closed);
        QCOMPARE(pass.runs->entries.size(), size_t(3));
        QCOMPARE(
            tricky.mid(pass.runs->entries[0].begin, pass.runs->entries[0].end - pass.runs->entries[0].begin),
            QByteArray("{\"a\":\"]\"}"));
        QCOMPARE(tricky.at(pass.runs->entries[1].begin), '5');
        QCOMPARE(tricky.at(pass.runs->restBegin), ']');
        QVERIFY(!leaveOutOversizedProfiles("{\"runs\":[],\"runs\":[]}").runs);
        const QByteArray cut = "{\"runs\":[{\"a\":1},{\"b\":";
        pass = leaveOutOversizedProfiles(cut);
        QVERIFY(pass.runs && !pass.runs->closed);
        QCOMPARE(pass.runs->entries.size(), size_t(1));
        QCOMPARE(cut.mid(pass.runs->restBegin), QByteArray("{\"b\":"));
    }
};

QTEST_MAIN(TestSessionRunsRead)
#include "tst_session_runs_read.moc"
