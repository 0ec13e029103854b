// Autosave in the window: every instance writes its own locked autosave, and at start every
// orphaned one is offered, never a running instance's and never the embedded data, without
// blocking the window; nothing a file names (a FIFO, /dev/zero) can block or abort the start. The
// autosave's own parts (recovery, locks, the writer) are tst_session_autosave's.
#include "app_resources.h"
#include "main_window.h"
#include "session.h"

#include <QAbstractButton>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace gemmscope;

namespace {

RunRecord measuredRun(const QString &id)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = 512;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = 0.5;
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

bool makeFifo(const QString &path)
{
#ifdef Q_OS_UNIX
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
#else
    Q_UNUSED(path);
    return false;
#endif
}

// Opens the FIFO for writing and closes it: a reader blocked in open() or read() goes on.
void unblockFifo(const QString &path)
{
#ifdef Q_OS_UNIX
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
        ::close(fd);
#else
    Q_UNUSED(path);
#endif
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        initResources();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GemmScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_autosave"));
    }
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
    }

    // Defect 3: both windows wrote the one autosave.json; B offered A's runs while A ran.
    void twoWindowsNeverShareAnAutosave()
    {
        const QDir appData(AutosaveSlot::defaultDirectory());
        for (const QString &old : appData.entryList({QStringLiteral("autosave*")}, QDir::Files))
            QFile::remove(appData.filePath(old)); // what an earlier run of this test left
        MainWindow::Options options;
        options.startRunner = false;
        options.restoreSettings = false; // and no autosavePath: each window its own slot
        MainWindow a(options), b(options);
        const QString pathA = a.session()->autosaveFile(), pathB = b.session()->autosaveFile();
        QVERIFY(!pathA.isEmpty());
        QVERIFY(!pathB.isEmpty());
        QVERIFY(pathA != pathB);
        a.session()->addOrUpdate(measuredRun(QStringLiteral("a1")));
        b.session()->addOrUpdate(measuredRun(QStringLiteral("b1")));
        QVERIFY(QFile::exists(pathA));
        QVERIFY(QFile::exists(pathB));
        // While both run, neither sees the other's autosave as recoverable.
        const QString dir = QFileInfo(pathA).absolutePath();
        QVERIFY(AutosaveSlot::orphans(dir, pathA).isEmpty());
        QVERIFY(AutosaveSlot::orphans(dir, pathB).isEmpty());
        QFile::remove(pathA);
        QFile::remove(pathB);
    }

    // Defect 3: "recover 23 runs" for an autosave of the embedded published and recorded data.
    void embeddedRunsAreNeverCountedAsRecovered()
    {
        Session defaults;
        QString error;
        QVERIFY2(defaults.loadDefault(&error), qPrintable(error));
        QList<RunRecord> runs = defaults.runs();
        QVERIFY(runs.size() > 10);
        const QString onlyDefaults = m_dir->filePath(QStringLiteral("autosave-defaults.json"));
        writeAutosave(onlyDefaults, runs);
        QCOMPARE(Session::recoverableAutosave(onlyDefaults).unsavedRuns, 0);
        runs << measuredRun(QStringLiteral("new"));
        const QString withOne = m_dir->filePath(QStringLiteral("autosave-one.json"));
        writeAutosave(withOne, runs);
        QCOMPARE(Session::recoverableAutosave(withOne).unsavedRuns, 1);
        // Nothing to offer: not offered, and tidied away.
        const QList<AutosaveRecovery> found = AutosaveSlot::orphans(m_dir->path());
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].path, withOne);
        QVERIFY(!QFile::exists(onlyDefaults));
    }

    // Defect 10: `saved_file` was opened blindly: a FIFO blocked the start, /dev/zero aborted it.
    void savedFileThatIsAFifoNeverBlocks()
    {
#ifndef Q_OS_UNIX
        QSKIP("FIFOs are a POSIX matter");
#endif
        const QString fifo = m_dir->filePath(QStringLiteral("saved.json"));
        QVERIFY(makeFifo(fifo));
        const QString path = m_dir->filePath(QStringLiteral("autosave-fifo.json"));
        writeAutosave(path, {measuredRun(QStringLiteral("f1"))}, fifo);
        QFuture<AutosaveRecovery> future =
            QtConcurrent::run([path] { return Session::recoverableAutosave(path); });
        QElapsedTimer timer;
        timer.start();
        while (!future.isFinished() && timer.elapsed() < 5000)
            QTest::qWait(20);
        if (!future.isFinished()) {
            unblockFifo(fifo);
            future.waitForFinished();
            QFAIL("Recovery blocked on a FIFO named as the saved file.");
        }
        const AutosaveRecovery recovery = future.result();
        QCOMPARE(recovery.unsavedRuns, 1); // the saved file cannot be compared: the run is offered
        QCOMPARE(recovery.problems.size(), 1);
        QVERIFY2(recovery.problems[0].contains(QStringLiteral("not a regular file")),
                 qPrintable(recovery.problems[0]));
        QVERIFY(!recovery.damaged);
    }

    void savedFileThatIsADeviceIsRefused_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("/dev/zero") << "/dev/zero";
        QTest::newRow("/dev/urandom") << "/dev/urandom";
        QTest::newRow("a folder") << "/";
    }
    void savedFileThatIsADeviceIsRefused()
    {
        QFETCH(QString, device);
        if (!QFileInfo::exists(device))
            QSKIP("no such device here");
        const QString path = m_dir->filePath(QStringLiteral("autosave-dev.json"));
        writeAutosave(path, {measuredRun(QStringLiteral("d1"))}, device);
        QElapsedTimer timer;
        timer.start();
        const AutosaveRecovery recovery = Session::recoverableAutosave(path);
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(recovery.unsavedRuns, 1);
        QVERIFY(recovery.problems.join(' ').contains(QStringLiteral("not a regular file")));
    }

    void sessionFilesMustBeRegularFiles()
    {
#ifndef Q_OS_UNIX
        QSKIP("FIFOs and /dev are POSIX matters");
#endif
        const QString fifo = m_dir->filePath(QStringLiteral("pipe.json"));
        QVERIFY(makeFifo(fifo));
        for (const QString &path : {fifo, QStringLiteral("/dev/zero")}) {
            QElapsedTimer timer;
            timer.start();
            const SessionParse parsed = readSessionFile(path);
            QVERIFY(timer.elapsed() < 2000);
            QVERIFY(!parsed.data);
            QVERIFY2(parsed.error.contains(QStringLiteral("not a regular file")), qPrintable(parsed.error));
            QVERIFY(!importBenchFile(path).data);
        }
        // The autosave itself a FIFO: named, never waited on.
        const QString fifoAutosave = m_dir->filePath(QStringLiteral("autosave-pipe.json"));
        QVERIFY(makeFifo(fifoAutosave));
        const AutosaveRecovery recovery = Session::recoverableAutosave(fifoAutosave);
        QVERIFY(recovery.damaged);
        QVERIFY(recovery.problems.join(' ').contains(QStringLiteral("not a regular file")));
    }

    // The whole start: the window returns at once (the files are read in a worker thread), then
    // offers the orphan; recovering takes its runs into this instance's autosave and deletes it.
    void windowRecoversWithoutBlockingTheUiThread()
    {
#ifndef Q_OS_UNIX
        QSKIP("FIFOs are a POSIX matter");
#endif
        const QString fifo = m_dir->filePath(QStringLiteral("saved.json"));
        QVERIFY(makeFifo(fifo));
        const QString orphan = m_dir->filePath(QStringLiteral("autosave-orphan.json"));
        writeAutosave(orphan, {measuredRun(QStringLiteral("o1")), measuredRun(QStringLiteral("o2"))}, fifo);
        const QString own = m_dir->filePath(QStringLiteral("autosave-own.json"));
        MainWindow window(
            MainWindow::Options{.startRunner = false, .restoreSettings = false, .autosavePath = own});
        QString boxText;
        QTimer clicker;
        connect(&clicker, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box)
                return;
            boxText = box->text() + QLatin1Char('\n') + box->detailedText();
            for (QAbstractButton *button : box->buttons())
                if (button->text() == QStringLiteral("Recover"))
                    button->click();
        });
        clicker.start(20);
        QElapsedTimer timer;
        timer.start();
        window.offerAutosaveRecovery();
        QVERIFY(timer.elapsed() < 500);
        QTRY_VERIFY_WITH_TIMEOUT(!boxText.isEmpty(), 10000);
        unblockFifo(fifo); // in case anything did open it (it must not have)
        QVERIFY2(boxText.startsWith(QStringLiteral("2 run(s)")), qPrintable(boxText));
        QTRY_COMPARE(window.session()->runs().size(), 2);
        QVERIFY(window.session()->isModified());
        QVERIFY(QFile::exists(own));
        QVERIFY(!QFile::exists(orphan));
        QCOMPARE(Session::recoverableAutosave(own).unsavedRuns, 2);
    }

    // An autosave whose only unsaved measurement is a profile is offered too, and
    // recovering it brings the profile back.
    void windowRecoversUnsavedProfiles()
    {
        const QString orphan = m_dir->filePath(QStringLiteral("autosave-profiles.json"));
        {
            Session crashed;
            crashed.setAutosavePath(orphan);
            protocol::ProfileEvent profile;
            profile.stage = QStringLiteral("final");
            profile.size = {512, 512, 512};
            profile.gpu.name = QStringLiteral("NVIDIA H200");
            crashed.addProfile(profile); // autosaved at once
        }
        QVERIFY(QFile::exists(orphan));
        const QString own = m_dir->filePath(QStringLiteral("autosave-own-profiles.json"));
        MainWindow window(
            MainWindow::Options{.startRunner = false, .restoreSettings = false, .autosavePath = own});
        QString boxText;
        QTimer clicker;
        connect(&clicker, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box)
                return;
            boxText = box->text();
            for (QAbstractButton *button : box->buttons())
                if (button->text() == QStringLiteral("Recover"))
                    button->click();
        });
        clicker.start(20);
        window.offerAutosaveRecovery();
        QTRY_VERIFY_WITH_TIMEOUT(!boxText.isEmpty(), 10000);
        QVERIFY2(boxText.startsWith(QStringLiteral("1 profile(s) measured")), qPrintable(boxText));
        QTRY_COMPARE(window.session()->profiles().size(), 1);
        QVERIFY(!QFile::exists(orphan));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
