// The one write path (issue 21): a target is replaced completely or left byte-identical with the
// reason; a full disk (a real 64 KiB tmpfs as root, an injected failure otherwise), a read-only
// folder, devices, pipes, sockets, the command's own input and links planted in a data folder.
#include "file_write.h"
#include "support/fs_faults.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

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

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestFileWrite)
#include "tst_file_write.moc"
