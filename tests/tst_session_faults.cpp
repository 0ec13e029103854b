// A session under environment faults: saving over a session on a full disk leaves the
// old file byte-identical and says why; an autosave that cannot be written is reported with a
// sentence (once on stderr too), retried at the next change, and the session says its runs are
// saved nowhere; a link planted at the autosave's name is never followed; a bench file is never
// saved over by its own import; pipes and devices are refused as session files.
#include "file_write.h"
#include "session.h"
#include "support/fs_faults.h"
#include "support/stored_ceilings.h"
#include "support/warning_count.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::testing;

namespace {

RunRecord measuredRun(const QString &id)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.presetKey = QStringLiteral("worklog-3");
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = 1024;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = 2.0;
    r.count = 5;
    r.tflops = 1.07;
    r.gpuName = QStringLiteral("NVIDIA H200");
    r.gpuArch = QStringLiteral("sm_90");
    // A long message: each run is a few KiB, so a handful fills a 64 KiB file system.
    r.errorMessage = QString(3000, QLatin1Char('m'));
    return r;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const char *kBench = R"({"format":"gemmscope-bench","version":1,"gpu":{"name":"Fake GPU","arch":"sm_90"},
"size":{"m":64,"n":64,"k":64},"rows":[{"preset":null,"stage":"cublas_fp32","params":{},
"event":{"event":"result","id":"b1","stage":"cublas_fp32","params":{},"size":{"m":64,"n":64,"k":64},
"timing":{"median_ms":1.0,"p20_ms":0.9,"p80_ms":1.1,"count":5},"tflops":1.0,
"verify":{"rel_error":1e-7,"tolerance":1e-5,"passed":true}}}]})";

} // namespace

class TestSessionFaults : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
        simulateFullDiskAfter(-1);
    }
    void cleanup() { simulateFullDiskAfter(-1); }

    // Save over an existing session, then again once the disk is full (injected: any user).
    void saveOnAFullDiskKeepsTheOldFile()
    {
        const QString path = m_dir->filePath(QStringLiteral("day.json"));
        checkSaveOnFullDisk(path, [] { simulateFullDiskAfter(4096); });
    }

    // The same on a real full file system, where the test may mount one (root, as CI runs).
    void saveOnAFullFileSystemKeepsTheOldFile()
    {
        GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, m_dir->path(), "saveOnAFullDiskKeepsTheOldFile");
        const QString mount = fs.path();
        checkSaveOnFullDisk(QDir(mount).filePath(QStringLiteral("day.json")), [&] { fillUp(mount); });
    }

    // One page left and a session under 16 KiB: QSaveFile wrote 4 KiB, renamed it over the old
    // session and returned true (QTBUG-75077: "Wrote 4 runs", exit 0).
    void saveWithOnePageLeftKeepsTheOldFile()
    {
        GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, m_dir->path(), "saveOnAFullDiskKeepsTheOldFile");
        const QString mount = fs.path();
        checkSaveOnFullDisk(
            QDir(mount).filePath(QStringLiteral("day.json")), [&] { fillUp(mount, 4096); }, 10);
    }

    void failingAutosaveIsReportedAndRetried()
    {
        Session session;
        const QString autosave = m_dir->filePath(QStringLiteral("autosave-1-0001.json"));
        session.setAutosavePath(autosave);
        QSignalSpy failed(&session, &Session::autosaveFailed);
        QSignalSpy restored(&session, &Session::autosaveRestored);
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QCOMPARE(failed.count(), 0);
        QVERIFY(!session.runsSavedNowhere()); // in the autosave
        const QByteArray good = readAll(autosave);

        simulateFullDiskAfter(1024);
        session.addOrUpdate(measuredRun(QStringLiteral("r2")));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("the disk is full")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("tries again")), qPrintable(message));
        QCOMPARE(session.autosaveError(), message);
        QVERIFY(session.runsSavedNowhere());
        QCOMPARE(readAll(autosave), good); // the last good autosave is kept whole
        session.addOrUpdate(measuredRun(QStringLiteral("r3")));
        QCOMPARE(failed.count(), 1); // said once, not at every run

        simulateFullDiskAfter(-1);
        session.setCeilings(QStringLiteral("NVIDIA H200"), test::storedCeilings(60.0, 0, {})); // any change
        QCOMPARE(restored.count(), 1);
        QVERIFY(session.autosaveError().isEmpty());
        QVERIFY(!session.runsSavedNowhere());
        const SessionParse back = readSessionFile(autosave);
        QVERIFY2(back.data, qPrintable(back.error));
        QCOMPARE(back.data->runs.size(), 3);
    }

    // The same failure, retried at every finished run and every 30 s, printed its line 45 times in
    // 12 s: it is said once per failure, and again when a failure follows a recovery.
    void aFailingAutosaveIsSaidOnceOnStderr()
    {
        Session session;
        session.setAutosavePath(m_dir->filePath(QStringLiteral("autosave-1-0004.json")));
        session.addOrUpdate(measuredRun(QStringLiteral("r0"))); // a good autosave first
        const WarningCount warnings(QStringLiteral("autosave failed"));

        simulateFullDiskAfter(1024);
        for (int i = 1; i <= 45; ++i)
            session.addOrUpdate(measuredRun(QStringLiteral("r%1").arg(i)));
        QCOMPARE(warnings.lines().size(), 1);
        QVERIFY2(warnings.lines().value(0).contains(QStringLiteral("the disk is full")),
                 qPrintable(warnings.lines().value(0)));

        simulateFullDiskAfter(-1);
        session.addOrUpdate(measuredRun(QStringLiteral("r46"))); // it works again
        QCOMPARE(warnings.lines().size(), 1);
        simulateFullDiskAfter(1024);
        for (int i = 47; i <= 60; ++i)
            session.addOrUpdate(measuredRun(QStringLiteral("r%1").arg(i)));
        QCOMPARE(warnings.lines().size(), 2); // a new failure after the recovery: said again
    }

    void readOnlyDataFolderIsReported()
    {
        const QString folder = m_dir->filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(folder));
        std::unique_ptr<SmallFileSystem> fs;
        if (isRoot()) {
            fs = std::make_unique<SmallFileSystem>(folder, QStringLiteral("64k"), true);
            if (!fs->mounted())
                QSKIP("root, but mount is not allowed here");
        } else {
            QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        }
        Session session;
        session.setAutosavePath(QDir(folder).filePath(QStringLiteral("autosave-1-0002.json")));
        QSignalSpy failed(&session, &Session::autosaveFailed);
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QFile::setPermissions(folder,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().first().toString().contains(isRoot() ? QStringLiteral("read-only")
                                                                     : QStringLiteral("permission denied")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(session.runsSavedNowhere());
    }

    void noAutosaveAtAllIsReported()
    {
        Session session;
        QSignalSpy failed(&session, &Session::autosaveFailed);
        session.setAutosaveUnavailable(QStringLiteral("Could not create the autosave folder /x."));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!session.runsSavedNowhere()); // nothing measured yet
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QVERIFY(session.runsSavedNowhere());
        QVERIFY(session.saveAs(m_dir->filePath(QStringLiteral("kept.json")), nullptr));
        QVERIFY(!session.runsSavedNowhere());
    }

    void aLinkPlantedAtTheAutosaveIsNotFollowed()
    {
        const QString victim = m_dir->filePath(QStringLiteral("victim.json"));
        const QString autosave = m_dir->filePath(QStringLiteral("autosave-1-0003.json"));
        QVERIFY(QFile::link(victim, autosave)); // dangling
        Session session;
        session.setAutosavePath(autosave);
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QVERIFY2(!QFileInfo::exists(victim), "the autosave was written through the planted link");
        QCOMPARE(fileType(autosave), mode_t(S_IFREG));
        QVERIFY(readSessionFile(autosave).data);
    }

    void anAutosaveSlotSkipsADanglingLink()
    {
        // Every name the slot could choose for this process is a dangling link: it takes none.
        const QString folder = m_dir->filePath(QStringLiteral("slots"));
        const QString victim = m_dir->filePath(QStringLiteral("victim.json"));
        QVERIFY(QDir().mkpath(folder));
        // 65,536 links: quick in memory, slow on a busy disk.
        SmallFileSystem memory(folder, QStringLiteral("64m"));
        if (!memory.mounted())
            QSKIP("needs a tmpfs (root); aLinkPlantedAtTheAutosaveIsNotFollowed covers the write");
        const QByteArray target = QFile::encodeName(victim);
        const QByteArray prefix = QFile::encodeName(folder) + "/autosave-" +
                                  QByteArray::number(QCoreApplication::applicationPid()) + "-";
        for (int n = 0; n < 0x10000; ++n) {
            const QByteArray name = prefix + QByteArray::number(n, 16).rightJustified(4, '0') + ".json";
            QCOMPARE(::symlink(target.constData(), name.constData()), 0);
        }
        AutosaveSlot slot(folder);
        QVERIFY(!slot.isValid());
        QVERIFY(!slot.error().isEmpty());
        Session session;
        session.setAutosavePath(slot.path());
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QVERIFY(!QFileInfo::exists(victim));
    }

    void importedBenchIsNeverSavedOver()
    {
        const QString bench = m_dir->filePath(QStringLiteral("bench.json"));
        {
            QFile f(bench);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kBench);
        }
        Session session;
        QString error;
        QVERIFY2(session.importBench(bench, &error), qPrintable(error));
        QVERIFY(!session.saveAs(bench, &error));
        QVERIFY2(error.contains(QStringLiteral("files being read")), qPrintable(error));
        QCOMPARE(readAll(bench), QByteArray(kBench));
        QVERIFY2(session.saveAs(m_dir->filePath(QStringLiteral("session.json")), &error), qPrintable(error));
    }

    void pipesAndDevicesAreNotSessionFiles_data()
    {
        QTest::addColumn<bool>("device");
        QTest::newRow("fifo") << false;
        QTest::newRow("device node") << true;
    }
    void pipesAndDevicesAreNotSessionFiles()
    {
        QFETCH(bool, device);
        const QString path = m_dir->filePath(QStringLiteral("out.json"));
        if (device ? !makeNullDevice(path) : !makeFifo(path))
            QSKIP("mknod needs root");
        const mode_t type = fileType(path);
        Session session;
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QString error;
        QVERIFY(!session.saveAs(path, &error)); // returns at once: a FIFO never blocks it
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        QCOMPARE(fileType(path), type);
    }

private:
    template <typename MakeFull>
    void checkSaveOnFullDisk(const QString &path, MakeFull makeFull, int runs = 30)
    {
        Session session;
        session.addOrUpdate(measuredRun(QStringLiteral("r1")));
        QString error;
        QVERIFY2(session.saveAs(path, &error), qPrintable(error));
        const QByteArray old = readAll(path);
        QVERIFY(!old.isEmpty());
        for (int i = 2; i < runs; ++i)
            session.addOrUpdate(measuredRun(QStringLiteral("r%1").arg(i)));
        if (runs == 10) { // the QTBUG-75077 case: more than the free page, less than QSaveFile's buffer
            const qsizetype bytes = serializeSession(session.data()).size();
            QVERIFY2(bytes > 4096 && bytes < 16384, qPrintable(QString::number(bytes)));
        }
        makeFull();
        QVERIFY(!session.save(&error));
        QVERIFY2(error.contains(QStringLiteral("the disk is full")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("unchanged")), qPrintable(error));
        QCOMPARE(readAll(path), old); // byte-identical
        QVERIFY(session.isModified());
        QVERIFY(session.runsSavedNowhere()); // no autosave here either
    }

    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestSessionFaults)
#include "tst_session_faults.moc"
