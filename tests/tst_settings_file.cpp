// The settings file (SettingsFile), in a home of the test's own: whatever is planted at its name (a
// link to a device or to a user's file, a dangling link, a named pipe, a socket, a folder, a device)
// is left exactly as it was after a start, two saves and a close, the start never blocks, and the
// window says why it runs on defaults, once on stderr too. A file over 1 MB is ignored and left as
// it is. A regular file is read, and what is saved comes back at the next start.
#include "file_write.h"
#include "main_window.h"
#include "settings_file.h"
#include "support/fs_faults.h"
#include "support/scoped_env.h"
#include "support/warning_count.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace gemmscope;
using namespace gemmscope::testing;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// What is at a name, for comparing before and after: its type, where a link points, and the type
// and bytes (or a hash) of what it points to.
QString describe(const QString &path)
{
    QString text = QString::number(fileType(path), 8);
    const QFileInfo info(path);
    if (info.isSymLink()) {
        const QString target = info.symLinkTarget();
        text += QStringLiteral(" -> ") + target + QLatin1Char(' ') + QString::number(fileType(target), 8);
        if (fileType(target) == S_IFREG)
            text += QLatin1Char(' ') + QString::fromLatin1(readAll(target).toHex());
    } else if (fileType(path) == S_IFREG) {
        text +=
            QLatin1Char(' ') +
            QString::fromLatin1(QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256).toHex());
    } else if (fileType(path) == S_IFDIR) {
        text += QLatin1Char(' ') + QDir(path).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(u',');
    }
    return text;
}

// Fails a start that blocks on a named pipe instead of hanging the test: if disarm() has not come
// in a minute (a start takes milliseconds), the pipe is opened for writing so that a reader stuck
// in open() goes on, and fired() says so.
class PipeWatchdog {
public:
    explicit PipeWatchdog(const QString &fifo) : m_fifo(QFile::encodeName(fifo))
    {
        m_thread = std::thread([this] {
            std::unique_lock lock(m_mutex);
            if (m_done.wait_for(lock, std::chrono::seconds(60), [this] { return m_disarmed; }))
                return;
            m_fired = true;
            while (!m_disarmed) { // the reader may open it again: let it through each time
                const int fd = ::open(m_fifo.constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0)
                    ::close(fd);
                m_done.wait_for(lock, std::chrono::milliseconds(50));
            }
        });
    }
    ~PipeWatchdog()
    {
        disarm();
        m_thread.join();
    }
    void disarm()
    {
        std::lock_guard lock(m_mutex);
        m_disarmed = true;
        m_done.notify_all();
    }
    bool fired() const { return m_fired; }

private:
    QByteArray m_fifo;
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_disarmed = false;
    std::atomic<bool> m_fired = false;
    std::thread m_thread;
};

// A change of the settings as the window makes one (closing, a file opened).
void change(const QString &key, const QVariant &value)
{
    const SettingsChange change;
    QSettings().setValue(key, value);
}

} // namespace

class TestSettingsFile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("GemmScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_settings_file"));
    }

    // A home of each test's own: the user's settings, data and caches are never touched.
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
        m_env.clear();
        for (const char *name :
             {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
            m_env.push_back(std::make_unique<test::ScopedEnv>(
                name, QFile::encodeName(m_home->filePath(QString::fromLatin1(name).toLower()))));
        m_settings = SettingsFile::userSettingsPath();
        QVERIFY2(m_settings.startsWith(m_home->path()), qPrintable(m_settings)); // never the user's
        QVERIFY(QDir().mkpath(QFileInfo(m_settings).absolutePath()));
        m_elsewhere = m_home->filePath(QStringLiteral("elsewhere"));
        QVERIFY(QDir().mkpath(m_elsewhere));
        simulateFullDiskAfter(-1);
    }
    void cleanup()
    {
        simulateFullDiskAfter(-1);
        if (m_socket >= 0)
            ::close(m_socket);
        m_socket = -1;
        m_env.clear();
    }

    void aPlantedNameIsLeftAlone_data()
    {
        QTest::addColumn<QString>("planted");
        QTest::addColumn<QString>("says");
        QTest::newRow("link to a device") << "link to a device"
                                          << "is a link";
        QTest::newRow("link to a user's file") << "link to a user's file"
                                               << "is a link";
        QTest::newRow("dangling link") << "dangling link"
                                       << "is a link";
        QTest::newRow("named pipe") << "named pipe"
                                    << "is a named pipe";
        QTest::newRow("socket") << "socket"
                                << "is a socket";
        QTest::newRow("folder") << "folder"
                                << "is a folder";
        QTest::newRow("device") << "device"
                                << "is a device";
    }
    void aPlantedNameIsLeftAlone()
    {
        QFETCH(QString, planted);
        QFETCH(QString, says);
        if (!isRoot() && planted.contains(QLatin1String("device")))
            QSKIP("making a device node needs root");
        plant(planted);
        if (QTest::currentTestFailed())
            return;
        const QString before = describe(m_settings);
        const WarningCount warnings(m_settings);
        std::unique_ptr<SettingsFile> settings;
        {
            PipeWatchdog watchdog(m_settings);
            settings = std::make_unique<SettingsFile>();
            QSettings().value(QStringLiteral("test/marker")); // the window's first read
            watchdog.disarm();
            QVERIFY2(!watchdog.fired(), "the start blocked on the settings file");
        }
        change(QStringLiteral("test/value"), 1);
        change(QStringLiteral("test/value"), 2);
        QCOMPARE(QSettings().value(QStringLiteral("test/value")).toInt(), 2); // this run keeps them
        const QString notice = settings->notice();
        const bool saving = settings->saving();
        settings.reset(); // the window's end
        QCOMPARE(describe(m_settings), before);
        if (planted == QLatin1String("dangling link"))
            QVERIFY2(!QFileInfo::exists(m_elsewhere + QStringLiteral("/none.conf")),
                     "written through the link");
        QVERIFY2(notice.contains(says), qPrintable(notice));
        QVERIFY2(notice.contains(m_settings), qPrintable(notice));
        QVERIFY(!saving);
        QCOMPARE(warnings.lines().size(), 1); // said once, not at every save
    }

    void aFileOverOneMegabyteIsIgnoredAndKept()
    {
        QByteArray bytes = "[test]\nmarker=from-file\n";
        while (bytes.size() < 2 * 1024 * 1024)
            bytes += "; a comment line to make the file large, as a damaged or planted one is\n";
        QVERIFY(writeAll(m_settings, bytes));
        {
            SettingsFile settings;
            QVERIFY(!QSettings().contains(QStringLiteral("test/marker"))); // not read
            QVERIFY2(settings.notice().contains(QStringLiteral("2 MB")), qPrintable(settings.notice()));
            change(QStringLiteral("test/value"), 1);
        }
        QCOMPARE(fileType(m_settings), mode_t(S_IFREG));
        QVERIFY(readAll(m_settings) == bytes);
    }

    void aRegularFileIsReadAndWhatIsSavedComesBack()
    {
        QVERIFY(writeAll(m_settings, "[test]\nmarker=from-file\n"));
        {
            SettingsFile settings;
            QCOMPARE(QSettings().value(QStringLiteral("test/marker")).toString(),
                     QStringLiteral("from-file"));
            QVERIFY2(settings.notice().isEmpty(), qPrintable(settings.notice()));
            change(QStringLiteral("test/value"), 42);
            QVERIFY(readAll(m_settings).contains("value=42"));
        }
        QCOMPARE(fileType(m_settings), mode_t(S_IFREG));
        {
            SettingsFile settings; // the next start
            QCOMPARE(QSettings().value(QStringLiteral("test/marker")).toString(),
                     QStringLiteral("from-file"));
            QCOMPARE(QSettings().value(QStringLiteral("test/value")).toInt(), 42);
            change(QStringLiteral("test/value"), 43);
        }
        SettingsFile settings; // and the one after
        QCOMPARE(QSettings().value(QStringLiteral("test/value")).toInt(), 43);
        QVERIFY2(settings.notice().isEmpty(), qPrintable(settings.notice()));
    }

    // Two windows: what another one saved since the start is kept when this one saves (as QSettings
    // merged them), not overwritten by this window's older copy.
    void anotherWindowsChangesAreKept()
    {
        QVERIFY(writeAll(m_settings, "[test]\nmarker=from-file\n"));
        SettingsFile settings;
        QVERIFY(QSettings().contains(QStringLiteral("test/marker")));
        QVERIFY(writeAll(m_settings, "[test]\nmarker=from-file\n\n[other]\nkey=theirs\n"));
        change(QStringLiteral("test/mine"), 7);
        const QByteArray saved = readAll(m_settings);
        QVERIFY2(saved.contains("key=theirs") && saved.contains("mine=7"), saved.constData());
    }

    // Planted while the window runs: its next save leaves it alone and says so.
    void aLinkPlantedAfterTheStartIsNotWrittenThrough()
    {
        QVERIFY(writeAll(m_settings, "[test]\nmarker=from-file\n"));
        const QString notes = m_elsewhere + QStringLiteral("/notes.txt");
        QVERIFY(writeAll(notes, "the user's own notes\n"));
        SettingsFile settings;
        QVERIFY(settings.notice().isEmpty());
        QVERIFY(QFile::remove(m_settings));
        QVERIFY(QFile::link(notes, m_settings));
        change(QStringLiteral("test/value"), 1);
        QCOMPARE(readAll(notes), QByteArray("the user's own notes\n"));
        QVERIFY(QFileInfo(m_settings).isSymLink());
        QVERIFY2(settings.notice().contains(QStringLiteral("is a link")), qPrintable(settings.notice()));
    }

    // A save that fails (a full disk) keeps the file as it was, says why once, and is tried again at
    // the next change.
    void aFailedSaveIsSaidOnceAndRetried()
    {
        QVERIFY(writeAll(m_settings, "[test]\nmarker=from-file\n"));
        const WarningCount warnings(QStringLiteral("settings were not saved"));
        SettingsFile settings;
        simulateFullDiskAfter(0);
        change(QStringLiteral("test/value"), 1);
        change(QStringLiteral("test/value"), 2);
        QCOMPARE(readAll(m_settings), QByteArray("[test]\nmarker=from-file\n"));
        QVERIFY2(settings.notice().contains(QStringLiteral("the disk is full")),
                 qPrintable(settings.notice()));
        QCOMPARE(warnings.lines().size(), 1);
        simulateFullDiskAfter(-1);
        change(QStringLiteral("test/value"), 3);
        QVERIFY(readAll(m_settings).contains("value=3"));
        QVERIFY(settings.notice().isEmpty());
    }

    // The window: the notice is shown over the workspaces, and closing it (which saves the window's
    // arrangement) leaves a link to a user's file alone; with a regular file it saves.
    void theWindowSaysWhyAndClosesWithoutWritingThroughALink()
    {
        const QString notes = m_elsewhere + QStringLiteral("/notes.txt");
        QVERIFY(writeAll(notes, "the user's own notes\n"));
        QVERIFY(QFile::link(notes, m_settings));
        QString notice;
        {
            SettingsFile settings;
            MainWindow window(MainWindow::Options{
                .startRunner = false, .restoreSettings = true, .autosavePath = {}, .autosave = false});
            notice = window.settingsWarningText();
            window.show();
            QVERIFY(window.close());
        }
        QCOMPARE(readAll(notes), QByteArray("the user's own notes\n"));
        QVERIFY(QFileInfo(m_settings).isSymLink());
        QVERIFY2(notice.contains(QStringLiteral("is a link")), qPrintable(notice));

        QVERIFY(QFile::remove(m_settings));
        {
            SettingsFile settings;
            MainWindow window(MainWindow::Options{
                .startRunner = false, .restoreSettings = true, .autosavePath = {}, .autosave = false});
            QVERIFY(window.settingsWarningText().isEmpty());
            window.show();
            QVERIFY(window.close());
        }
        QCOMPARE(fileType(m_settings), mode_t(S_IFREG));
        QVERIFY(readAll(m_settings).contains("geometry="));
    }

private:
    // Makes `what` at the settings' name.
    void plant(const QString &what)
    {
        const QString notes = m_elsewhere + QStringLiteral("/notes.txt");
        if (what == QLatin1String("link to a device")) {
            const QString device = m_elsewhere + QStringLiteral("/device");
            QVERIFY(makeNullDevice(device));
            QVERIFY(QFile::link(device, m_settings));
        } else if (what == QLatin1String("link to a user's file")) {
            QVERIFY(writeAll(notes, "the user's own notes\n"));
            QVERIFY(QFile::link(notes, m_settings));
        } else if (what == QLatin1String("dangling link")) {
            QVERIFY(QFile::link(m_elsewhere + QStringLiteral("/none.conf"), m_settings));
        } else if (what == QLatin1String("named pipe")) {
            QVERIFY(makeFifo(m_settings));
        } else if (what == QLatin1String("socket")) {
            m_socket = makeSocket(m_settings);
            QVERIFY2(m_socket >= 0, "a socket path this long cannot be bound here");
        } else if (what == QLatin1String("folder")) {
            QVERIFY(QDir().mkpath(m_settings + QStringLiteral("/inside")));
        } else if (what == QLatin1String("device")) {
            QVERIFY(makeNullDevice(m_settings));
        }
    }

    std::unique_ptr<QTemporaryDir> m_home;
    std::vector<std::unique_ptr<test::ScopedEnv>> m_env;
    QString m_settings;  // the settings file's name in the test's home
    QString m_elsewhere; // a folder of the user's, outside the settings' folder
    int m_socket = -1;
};

QTEST_MAIN(TestSettingsFile)
#include "tst_settings_file.moc"
