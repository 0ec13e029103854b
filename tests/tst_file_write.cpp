// The one write path: a target is replaced completely or left byte-identical with the
// reason; a full disk (a real 64 KiB tmpfs as root, an injected failure otherwise), a read-only
// folder, devices, pipes, sockets, the command's own input and links planted in a data folder.
#include "file_write.h"
#include "support/fs_faults.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace gemmscope;
using namespace gemmscope::testing;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

void writePlain(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

const QByteArray kOld = QByteArray("{\"old\": true}\n").repeated(200); // 2.8 KB

} // namespace

class TestFileWrite : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
        simulateFullDiskAfter(-1);
    }
    void cleanup() { simulateFullDiskAfter(-1); }

    void replacesTheFileAndKeepsItsPermissions()
    {
        const QString path = m_dir->filePath(QStringLiteral("a.json"));
        writePlain(path, kOld);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const FileWrite w = writeFileAtomically(path, "new");
        QVERIFY2(w.ok, qPrintable(w.error));
        QCOMPARE(readAll(path), QByteArray("new"));
        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0600));
        QCOMPARE(otherEntries(m_dir->path(), {"a.json"}), QStringList());
    }

    void injectedFullDiskLeavesTheOldFile()
    {
        const QString path = m_dir->filePath(QStringLiteral("a.json"));
        writePlain(path, kOld);
        simulateFullDiskAfter(4096);
        const FileWrite w = writeFileAtomically(path, QByteArray(100000, 'n'));
        QVERIFY(!w.ok);
        QVERIFY2(w.error.contains(QStringLiteral("the disk is full")), qPrintable(w.error));
        QVERIFY2(w.error.contains(QStringLiteral("unchanged")), qPrintable(w.error));
        QCOMPARE(readAll(path), kOld);
        QCOMPARE(otherEntries(m_dir->path(), {"a.json"}), QStringList()); // no temporary left
    }

    void fullFileSystemLeavesTheOldFile()
    {
        GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, m_dir->path(), "injectedFullDiskLeavesTheOldFile");
        const QString mount = fs.path();
        const QString path = QDir(mount).filePath(QStringLiteral("a.json"));
        writePlain(path, kOld);
        const FileWrite w = writeFileAtomically(path, QByteArray(200000, 'n'));
        QVERIFY(!w.ok);
        QVERIFY2(w.error.contains(QStringLiteral("the disk is full")), qPrintable(w.error));
        QCOMPARE(readAll(path), kOld);
        QCOMPARE(otherEntries(mount, {"a.json"}), QStringList());
        // And once there is room again, the same call succeeds.
        const FileWrite small = writeFileAtomically(path, "fits");
        QVERIFY2(small.ok, qPrintable(small.error));
        QCOMPARE(readAll(path), QByteArray("fits"));
    }

    void readOnlyFolderSaysSo()
    {
        const QString folder = m_dir->filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(folder));
        const QString path = QDir(folder).filePath(QStringLiteral("a.json"));
        std::unique_ptr<SmallFileSystem> fs;
        if (isRoot()) { // root writes through any permission bits: a read-only mount
            fs = std::make_unique<SmallFileSystem>(folder, QStringLiteral("64k"));
            if (!fs->mounted())
                QSKIP("root, but mount is not allowed here");
            writePlain(path, kOld);
            QVERIFY(fs->remountReadOnly());
        } else {
            writePlain(path, kOld);
            QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        }
        const FileWrite w = writeFileAtomically(path, "new");
        QFile::setPermissions(folder,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!w.ok);
        QVERIFY2(
            w.error.contains(isRoot() ? QStringLiteral("read-only") : QStringLiteral("permission denied")),
            qPrintable(w.error));
        QCOMPARE(readAll(path), kOld);
    }

    void specialFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("fifo") << "fifo";
        QTest::newRow("device") << "device";
        QTest::newRow("socket") << "socket";
        QTest::newRow("folder") << "folder";
        QTest::newRow("link to a fifo") << "link";
    }
    void specialFilesAreRefused()
    {
        QFETCH(QString, kind);
        const QString path = m_dir->filePath(QStringLiteral("out.json"));
        int socket = -1;
        if (kind == QLatin1String("fifo") || kind == QLatin1String("link")) {
            QVERIFY(makeFifo(m_dir->filePath(QStringLiteral("pipe"))));
            if (kind == QLatin1String("fifo"))
                QVERIFY(QFile::rename(m_dir->filePath(QStringLiteral("pipe")), path));
            else
                QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("pipe")), path));
        } else if (kind == QLatin1String("device")) {
            if (!makeNullDevice(path))
                QSKIP("mknod needs root");
        } else if (kind == QLatin1String("socket")) {
            socket = makeSocket(path);
            QVERIFY(socket >= 0);
        } else {
            QVERIFY(QDir().mkpath(path));
        }
        const mode_t before = fileType(path);
        const FileWrite w = writeFileAtomically(path, "data");
        if (socket >= 0)
            ::close(socket);
        QVERIFY(!w.ok);
        QVERIFY2(w.error.contains(QStringLiteral("not a regular file")), qPrintable(w.error));
        QCOMPARE(fileType(path), before); // the node is still there, unchanged
        const QStringList left = otherEntries(m_dir->path(), {"out.json", "pipe"});
        QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
    }

    void theCommandsOwnInputIsRefused_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("same path") << "same";
        QTest::newRow("another spelling") << "dots";
        QTest::newRow("symlink") << "symlink";
        QTest::newRow("hard link") << "hardlink";
        QTest::newRow("not created yet") << "absent";
    }
    void theCommandsOwnInputIsRefused()
    {
        QFETCH(QString, how);
        const QString input = m_dir->filePath(QStringLiteral("bench.json"));
        if (how != QLatin1String("absent"))
            writePlain(input, kOld);
        QString output = input;
        if (how == QLatin1String("dots"))
            output = m_dir->path() + QStringLiteral("/./sub/../bench.json");
        if (how == QLatin1String("dots"))
            QVERIFY(QDir().mkpath(m_dir->filePath(QStringLiteral("sub"))));
        if (how == QLatin1String("symlink")) {
            output = m_dir->filePath(QStringLiteral("alias.json"));
            QVERIFY(QFile::link(input, output));
        }
        if (how == QLatin1String("hardlink")) {
            output = m_dir->filePath(QStringLiteral("hard.json"));
            QCOMPARE(::link(QFile::encodeName(input).constData(), QFile::encodeName(output).constData()), 0);
        }
        const FileWrite w = writeFileAtomically(output, "session", {.inputs = {input}});
        QVERIFY(!w.ok);
        QVERIFY2(w.error.contains(QStringLiteral("files being read")), qPrintable(w.error));
        if (how != QLatin1String("absent"))
            QCOMPARE(readAll(input), kOld);
    }

    void aLinkInADataFolderIsReplacedNotFollowed()
    {
        const QString victim = m_dir->filePath(QStringLiteral("victim"));
        const QString name = m_dir->filePath(QStringLiteral("autosave-1-abcd.json"));
        QVERIFY(QFile::link(victim, name)); // dangling: planted before the autosave's first write
        const FileWrite w = writeFileAtomically(name, "autosave", {.followSymlinks = false, .inputs = {}});
        QVERIFY2(w.ok, qPrintable(w.error));
        QVERIFY(!QFileInfo::exists(victim));
        QCOMPARE(fileType(name), mode_t(S_IFREG));
        QCOMPARE(readAll(name), QByteArray("autosave"));
    }

    void aLinkTheUserNamedIsFollowed()
    {
        const QString real = m_dir->filePath(QStringLiteral("real.json"));
        const QString link = m_dir->filePath(QStringLiteral("link.json"));
        writePlain(real, kOld);
        QVERIFY(QFile::link(real, link));
        const FileWrite w = writeFileAtomically(link, "new");
        QVERIFY2(w.ok, qPrintable(w.error));
        QCOMPARE(fileType(link), mode_t(S_IFLNK));
        QCOMPARE(readAll(real), QByteArray("new"));
    }

    void aMissingFolderIsNamed()
    {
        const FileWrite w = writeFileAtomically(m_dir->filePath(QStringLiteral("no/such/a.json")), "x");
        QVERIFY(!w.ok);
        QVERIFY2(w.error.contains(QStringLiteral("does not exist")), qPrintable(w.error));
    }

    // --save replaced a mode-0444 file, a user's "do not touch" mark.
    void aReadOnlyFileIsRefusedUnlessConfirmed()
    {
        const QString path = m_dir->filePath(QStringLiteral("kept.json"));
        writePlain(path, kOld);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup |
                                                QFileDevice::ReadOther));
        QVERIFY(isReadOnlyFile(path));
        const FileWrite refused = writeFileAtomically(path, "new");
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.contains(QStringLiteral("read-only")), qPrintable(refused.error));
        QCOMPARE(readAll(path), kOld);
        const FileWrite confirmed = writeFileAtomically(path, "new", {.replaceReadOnly = true});
        QVERIFY2(confirmed.ok, qPrintable(confirmed.error));
        QCOMPARE(readAll(path), QByteArray("new"));
    }

    // A legal 239-byte name was refused as "File name too long": the temporary's was longer.
    void theLongestNameFits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("255 ASCII bytes") << QString(250, QLatin1Char('a')) + QStringLiteral(".json");
        // 'é' is two bytes in UTF-8: 117 of them and ".json" are 239 bytes; the temporary's cut
        // must not split one.
        QTest::newRow("239 UTF-8 bytes") << QString(117, QChar(0xE9)) + QStringLiteral(".json");
    }
    void theLongestNameFits()
    {
        QFETCH(QString, name);
        const QString path = m_dir->filePath(name);
        const FileWrite w = writeFileAtomically(path, "x");
        QVERIFY2(w.ok, qPrintable(w.error));
        QCOMPARE(readAll(path), QByteArray("x"));
        QCOMPARE(otherEntries(m_dir->path(), {name}), QStringList());
    }

    // A 4,085-character path was refused: the temporary's path passed PATH_MAX.
    void theLongestPathFits()
    {
        QString folder = m_dir->path();
        while (folder.size() < 4085 - 260)
            folder += QLatin1Char('/') + QString(200, QLatin1Char('d'));
        QVERIFY(QDir().mkpath(folder));
        const QString path = folder + QLatin1Char('/') + QString(4085 - folder.size() - 1, QLatin1Char('f'));
        QCOMPARE(path.size(), 4085);
        const FileWrite w = writeFileAtomically(path, "x");
        QVERIFY2(w.ok, qPrintable(w.error));
        QCOMPARE(readAll(path), QByteArray("x"));
    }

    // A save killed mid-write (SIGKILL, a power cut) left ".name.<hex>.tmp", as large as the
    // session, that nothing removed: the next write of that file removes the temporaries of
    // writers that have ended, and never one still being written.
    void temporariesOfEndedWritersAreRemoved()
    {
        QProcess ended;
        ended.start(QStringLiteral("true"), {});
        QVERIFY(ended.waitForFinished(30000));
        const qint64 gone = ended.processId() > 0 ? ended.processId() : 999999;
        const QString path = m_dir->filePath(QStringLiteral("s.json"));
        const QString stale = m_dir->filePath(QStringLiteral(".s.json.%1-0badf00d.tmp").arg(gone));
        const QString live = m_dir->filePath(
            QStringLiteral(".s.json.%1-0000cafe.tmp").arg(QCoreApplication::applicationPid()));
        const QString otherFile = m_dir->filePath(QStringLiteral(".t.json.%1-0badf00d.tmp").arg(gone));
        for (const QString &temp : {stale, live, otherFile})
            writePlain(temp, kOld);
        if (::kill(pid_t(gone), 0) == 0)
            QSKIP("the ended process's pid was taken again");
        QVERIFY(writeFileAtomically(path, "x").ok);
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live));      // its writer is alive: being written now
        QVERIFY(QFileInfo::exists(otherFile)); // another file's: its own next write removes it
        // At a program's start, a folder of its own is cleared of them all.
        QCOMPARE(removeInterruptedWritesIn(m_dir->path()), 1);
        QVERIFY(!QFileInfo::exists(otherFile));
        QVERIFY(QFileInfo::exists(live));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestFileWrite)
#include "tst_file_write.moc"
