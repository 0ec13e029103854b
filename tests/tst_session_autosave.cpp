// Keeping a session on disk while the window runs (session_autosave.h): what an autosave offers
// after a crash, a lock held by a live process against a stale one, what recovery could not read,
// and the writer that keeps a running sweep's progress off the UI thread.
#include "session.h"
#include "stage_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <ctime>

using namespace gemmscope;

namespace {

RunRecord measuredRun(const QString &id, double ms = 0.5)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = 512;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = ms;
    r.count = 5;
    r.tflops = 0.5;
    r.gpuName = QStringLiteral("NVIDIA H200");
    return r;
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// An autosave as a session would write it, shadowing `savedFile`.
void writeAutosave(const QString &path, const QList<RunRecord> &runs, const QString &savedFile = {})
{
    SessionData data;
    data.runs = runs;
    writeFile(path, serializeSession(data, savedFile));
}

// A lock file as QLockFile writes it, but naming the process `pid` called `name`.
void writeLockOf(const QString &lockPath, qint64 pid, const QString &name)
{
    QByteArray contents;
    {
        QLockFile lock(lockPath);
        QVERIFY(lock.tryLock(0));
        QFile f(lockPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        contents = f.readAll();
    }
    QList<QByteArray> lines = contents.split('\n');
    QVERIFY(lines.size() >= 3);
    lines[0] = QByteArray::number(pid);
    lines[1] = name.toUtf8();
    writeFile(lockPath, lines.join('\n'));
}

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

class TestSessionAutosave : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
    }

    void autosaveOffersOnlyUnsavedMeasuredRuns()
    {
        const QString autosave = m_dir->filePath("app/autosave.json");
        {
            Session session;
            session.setAutosavePath(autosave);
            QCOMPARE(readAutosaveForRecovery(autosave).unsavedRuns, 0);
            RunRecord queued = measuredRun("q");
            queued.status = RunStatus::Queued;
            session.addOrUpdate(queued);
            QVERIFY2(!QFile::exists(autosave), "a queued run is not a finished result");
            session.addOrUpdate(measuredRun("a", 3.0)); // finished: autosaved at once
            QVERIFY(QFile::exists(autosave));
        } // the application "crashes" here: nothing was saved to a file
        const auto recovered = readAutosaveForRecovery(autosave);
        QCOMPARE(recovered.unsavedRuns, 1);
        QVERIFY(recovered.problems.isEmpty());
        QVERIFY(std::any_of(recovered.data->runs.begin(), recovered.data->runs.end(),
                            [](const RunRecord &r) { return r.runId == "a" && r.isOk(); }));

        // Once saved to a file the autosave holds nothing new.
        Session session;
        session.setAutosavePath(autosave);
        session.replace(*recovered.data, {});
        QString error;
        QVERIFY(session.saveAs(m_dir->filePath("saved.json"), &error));
        QCOMPARE(readAutosaveForRecovery(autosave).unsavedRuns, 0);
        // A new measured run after saving is offered again.
        session.addOrUpdate(measuredRun("c", 4.0));
        QCOMPARE(readAutosaveForRecovery(autosave).unsavedRuns, 1);
        removeAutosave(autosave);
        QCOMPARE(readAutosaveForRecovery(autosave).unsavedRuns, 0);
    }

    void publishedDataIsNotOfferedForRecovery()
    {
        const QString autosave = m_dir->filePath("autosave.json");
        Session session;
        session.setAutosavePath(autosave);
        RunRecord published = measuredRun("w", 100);
        published.origin = QStringLiteral("worklog");
        session.addOrUpdate(published);
        QVERIFY(QFile::exists(autosave));
        QCOMPARE(readAutosaveForRecovery(autosave).unsavedRuns, 0);
    }

    // A user's custom kernel is written at once, and comes back with the recovered session.
    void customKernelsAreAutosavedAndRecovered()
    {
        const QString autosave = m_dir->filePath("autosave-k.json");
        {
            Session session;
            session.setAutosavePath(autosave);
            session.setCustomKernel({"// my kernel", "mine.cuh", "tiled_2d"});
            QVERIFY(session.isModified());
        }
        const AutosaveRecovery recovered = readAutosaveForRecovery(autosave);
        QVERIFY(recovered.data);
        QCOMPARE(recovered.data->customKernels.size(), size_t(1));
        QCOMPARE(recovered.data->customKernels[0].fileName, std::string("mine.cuh"));
        Session adopted;
        adopted.adoptRecovered({*recovered.data, *recovered.data});
        QCOMPARE(adopted.customKernels().size(), size_t(1)); // the same kernel in two autosaves: once
    }

    // A running sweep's progress is autosaved once a second. Written on the UI thread, a session of
    // 10,000 sweep runs held it ~0.7 s at each: the event loop stalled longer the longer the sweep.
    // Now a worker writes a copy; this thread's CPU time for it is a small part of what writing
    // the same session here takes (CPU time: what other processes do on the machine does not count).
    void sweepProgressIsAutosavedOffThisThread()
    {
        const QString autosave = m_dir->filePath("autosave.json");
        Session session;
        session.setAutosavePath(autosave);
        SweepData sweep;
        sweep.id = QStringLiteral("sweep-progress");
        sweep.spec.kind = SweepKind::Sizes;
        sweep.spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}};
        sweep.spec.sizes = {{1024, 2048, 512}};
        sweep.spec.stage = StageId::CublasFp32;
        sweep.spec.size = sweep.spec.sizes.front();
        sweep.created = QDateTime::currentDateTimeUtc();
        for (int i = 0; i < 10000; ++i)
            sweep.runs << measuredRun(QStringLiteral("s%1").arg(i), 1.0 + i % 7);
        const double beforeStart = threadCpuMs();
        session.setSweep(sweep, true); // a sweep started: autosaved at once, here
        const double here = threadCpuMs() - beforeStart;
        QVERIFY(QFile::remove(autosave)); // to see the next one land

        const double beforeProgress = threadCpuMs();
        QVERIFY(session.addSweepRun(sweep.id, measuredRun(QStringLiteral("s-new"), 3.0))); // within a second
        QVERIFY(QTest::qWaitFor([&] { return QFile::exists(autosave); }, 30000));
        const double progress = threadCpuMs() - beforeProgress;
        qInfo("this thread's CPU: %.1f ms for an autosave written here, %.1f ms for a progress autosave",
              here, progress);
        QVERIFY2(progress < here / 4,
                 qPrintable(QStringLiteral("%1 ms of this thread's CPU for the progress autosave, %2 ms for "
                                           "one written here")
                                .arg(progress, 0, 'f', 1)
                                .arg(here, 0, 'f', 1)));
        const SessionParse back = readSessionFile(autosave);
        QVERIFY2(back.data, qPrintable(back.error));
        QCOMPARE(back.data->sweeps.first().runs.size(), sweep.runs.size() + 1);
        QVERIFY(session.autosaveError().isEmpty());

        // An autosave written here after it never loses to an older copy the worker still writes.
        QVERIFY(session.addSweepRun(sweep.id, measuredRun(QStringLiteral("s-newer"), 3.0)));
        QTest::qWait(1100); // the worker's copy is being written now
        session.addOrUpdate(measuredRun(QStringLiteral("ladder"), 2.0)); // a finished run: at once, here
        const SessionParse last = readSessionFile(autosave);
        QVERIFY2(last.data, qPrintable(last.error));
        QCOMPARE(last.data->sweeps.first().runs.size(), sweep.runs.size() + 2);
        QCOMPARE(last.data->runs.size(), 1);
        QTest::qWait(100); // the worker's answer, heard after: stale, it changes nothing
        QVERIFY(session.autosaveError().isEmpty());
        QCOMPARE(readSessionFile(autosave).data->runs.size(), 1);
    }

    void endedInstanceIsOfferedOnceAndClaimed()
    {
        const QString dir = m_dir->path();
        QString endedPath;
        {
            AutosaveSlot slot(dir);
            QVERIFY2(slot.isValid(), qPrintable(slot.error()));
            endedPath = slot.path();
            Session session;
            session.setAutosavePath(slot.path());
            session.addOrUpdate(measuredRun(QStringLiteral("r1")));
            // While it runs, its autosave is nobody's to offer.
            AutosaveSlot other(dir);
            QVERIFY(AutosaveSlot::orphans(dir, other.path()).isEmpty());
        } // the instance ends without saving to a file
        AutosaveSlot own(dir);
        const QList<AutosaveRecovery> found = AutosaveSlot::orphans(dir, own.path());
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].path, endedPath);
        QCOMPARE(found[0].unsavedRuns, 1);
        QVERIFY(found[0].problems.isEmpty());
        // Claimed while it is offered: a second instance starting now does not offer it too.
        AutosaveSlot other(dir);
        QVERIFY(AutosaveSlot::orphans(dir, other.path()).isEmpty());
    }

    // The lock of another process that still runs keeps its autosave; once that process has
    // ended, its lock is stale and the autosave is offered.
    void aLiveProcessKeepsItsAutosaveAStaleLockDoesNot()
    {
        const QString dir = m_dir->path();
        const QString path = QDir(dir).filePath(QStringLiteral("autosave-other.json"));
        writeAutosave(path, {measuredRun(QStringLiteral("c1"))});
        QProcess live;
        live.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(live.waitForStarted());
        writeLockOf(path + QStringLiteral(".lock"), live.processId(), QStringLiteral("sleep"));
        QVERIFY(AutosaveSlot::orphans(dir).isEmpty());
        QVERIFY(QFile::exists(path)); // kept for its owner, not tidied away

        live.kill();
        QVERIFY(live.waitForFinished());
        const QList<AutosaveRecovery> found = AutosaveSlot::orphans(dir);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].path, path);
        QCOMPARE(found[0].unsavedRuns, 1);
    }

    void crashedInstanceIsOffered()
    {
        const QString dir = m_dir->path();
        const QString path = QDir(dir).filePath(QStringLiteral("autosave-crashed.json"));
        writeAutosave(path, {measuredRun(QStringLiteral("c1"))});
        // A lock as the crashed instance left it: QLockFile's own format, with the pid of a
        // process that has ended.
        QProcess ended;
        ended.start(QStringLiteral("true"), {});
        QVERIFY(ended.waitForStarted());
        const qint64 deadPid = ended.processId();
        QVERIFY(ended.waitForFinished());
        writeLockOf(path + QStringLiteral(".lock"), deadPid, QCoreApplication::applicationName());
        const QList<AutosaveRecovery> found = AutosaveSlot::orphans(dir);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].unsavedRuns, 1);
    }

    // The single autosave.json of older versions is an orphan like any other.
    void legacyAutosaveIsOffered()
    {
        writeAutosave(m_dir->filePath(QStringLiteral("autosave.json")), {measuredRun(QStringLiteral("old"))});
        const QList<AutosaveRecovery> found = AutosaveSlot::orphans(m_dir->path());
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].data->runs.size(), 1);
    }

    // One run load refuses must not make recovery silently return nothing.
    void recoverySaysWhatItCouldNotRecover()
    {
        const QString path = m_dir->filePath(QStringLiteral("autosave-damaged.json"));
        SessionData data;
        data.runs = {measuredRun("good1"), measuredRun("bad"), measuredRun("good2"), measuredRun("good1")};
        QJsonObject root = QJsonDocument::fromJson(serializeSession(data)).object();
        QJsonArray runs = root.value(QStringLiteral("runs")).toArray();
        QJsonObject bad = runs[1].toObject();
        bad.insert(QStringLiteral("timing"), QJsonObject{{"median_ms", 0}}); // what import used to accept
        runs[1] = bad;
        root.insert(QStringLiteral("runs"), runs);
        writeFile(path, QJsonDocument(root).toJson());
        const AutosaveRecovery recovery = readAutosaveForRecovery(path);
        QVERIFY(recovery.data);
        QCOMPARE(recovery.data->runs.size(), 2);
        QCOMPARE(recovery.unsavedRuns, 2);
        QVERIFY(recovery.damaged);
        QCOMPARE(recovery.problems.size(), 2);
        QVERIFY2(recovery.problems[0].contains(QStringLiteral("Run 2")) &&
                     recovery.problems[0].contains(QStringLiteral("no positive median")),
                 qPrintable(recovery.problems[0]));
        QCOMPARE(recovery.problems[1],
                 QStringLiteral("Run 4 of the autosave autosave-damaged.json could not be "
                                "recovered: its id good1 appears twice."));
    }

    void unreadableAutosaveIsNamed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("truncated") << QByteArray("{\"format\":\"gemmscope-session\",\"ver")
                                   << "not valid JSON";
        QTest::newRow("other format") << QByteArray("{\"format\":\"x\",\"version\":1,\"runs\":[]}")
                                      << "not a version 1 GemmScope session";
        QTest::newRow("version 1.5") << QByteArray(
                                            "{\"format\":\"gemmscope-session\",\"version\":1.5,\"runs\":[]}")
                                     << "version 1.5";
    }
    void unreadableAutosaveIsNamed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const QString path = m_dir->filePath(QStringLiteral("autosave-x.json"));
        writeFile(path, bytes);
        const AutosaveRecovery recovery = readAutosaveForRecovery(path);
        QVERIFY(!recovery.data);
        QVERIFY(recovery.damaged);
        QCOMPARE(recovery.problems.size(), 1);
        QVERIFY2(recovery.problems[0].contains(says), qPrintable(recovery.problems[0]));
        QVERIFY(recovery.problems[0].contains(QStringLiteral("autosave-x.json")));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestSessionAutosave)
#include "tst_session_autosave.moc"
