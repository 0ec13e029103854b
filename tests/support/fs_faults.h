// Environment faults for tests: a full or read-only file system and special files, made inside a
// QTemporaryDir. As root (CI) a real tmpfs is mounted; elsewhere the tests that need one skip and
// their twins use the write helper's injected "disk full" (simulateFullDiskAfter) or chmod.
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <algorithm>

#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

namespace gemmscope::testing {

inline bool isRoot()
{
    return ::geteuid() == 0;
}

inline bool runQuietly(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

// A tmpfs of `size` ("64k") mounted on `dir` (which must exist); unmounted when destroyed. Only root
// may mount: mounted() says whether it worked.
class SmallFileSystem {
public:
    SmallFileSystem(const QString &dir, const QString &size, bool readOnly = false) : m_dir(dir)
    {
        if (!isRoot())
            return;
        QStringList options{QStringLiteral("size=") + size};
        if (readOnly)
            options << QStringLiteral("ro");
        m_mounted = runQuietly(QStringLiteral("mount"),
                               {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                options.join(QLatin1Char(',')), QStringLiteral("gemmscope-test"), dir});
    }
    ~SmallFileSystem()
    {
        if (m_mounted)
            runQuietly(QStringLiteral("umount"), {m_dir});
    }
    SmallFileSystem(const SmallFileSystem &) = delete;
    SmallFileSystem &operator=(const SmallFileSystem &) = delete;
    bool mounted() const { return m_mounted; }
    QString path() const { return m_dir; }
    bool remountReadOnly()
    {
        return m_mounted && runQuietly(QStringLiteral("mount"),
                                       {QStringLiteral("-o"), QStringLiteral("remount,ro"), m_dir});
    }

private:
    QString m_dir;
    bool m_mounted = false;
};

// `<parent>/small`, made: where a test mounts its small file system.
inline QString smallMountPoint(const QString &parent)
{
    const QString path = QDir(parent).filePath(QStringLiteral("small"));
    QDir().mkpath(path);
    return path;
}

// The set-up every full-file-system test shares: a 64 KiB tmpfs mounted on `<parent>/small` and
// held in `fs` until the test ends; where this user may not mount, the test skips and names
// `twin`, the test that covers the same path with an injected failure. (A macro: QSKIP returns
// from the test function.)
#define GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, parent, twin)                                                \
    gemmscope::testing::SmallFileSystem fs(gemmscope::testing::smallMountPoint(parent),                      \
                                           QStringLiteral("64k"));                                           \
    QVERIFY(QFileInfo(fs.path()).isDir());                                                                   \
    if (!fs.mounted())                                                                                       \
    QSKIP("mounting a tmpfs needs root (" twin " covers this path)")

// Fills the file system holding `dir` until a write fails (a tmpfs of a few KiB: quick), then
// frees `keepFree` bytes again. One free 4 KiB page is the case of QTBUG-75077: a file smaller
// than QSaveFile's 16 KiB buffer is written by the unchecked flush in commit(), which wrote one
// page, renamed the cut file over the old one and reported success.
inline void fillUp(const QString &dir, qint64 keepFree = 0)
{
    QFile filler(QDir(dir).filePath(QStringLiteral("filler")));
    if (!filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return;
    const QByteArray block(4096, 'x');
    while (filler.write(block) == block.size()) {
    }
    filler.close();
    if (keepFree > 0)
        filler.resize(std::max<qint64>(0, filler.size() - keepFree));
}

inline bool makeFifo(const QString &path)
{
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

// A character device with the null device's numbers (1, 3), made in the test's folder: never the
// system's own /dev/null. Root only.
inline bool makeNullDevice(const QString &path)
{
    return ::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, 3)) == 0;
}

// A bound Unix socket at `path`; its descriptor (close it when done) or -1.
inline int makeSocket(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    sockaddr_un address{};
    if (name.size() >= qsizetype(sizeof(address.sun_path)))
        return -1;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// The file type bits of `path` without following a link (0 when it does not exist).
inline mode_t fileType(const QString &path)
{
    struct stat info {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? (info.st_mode & S_IFMT) : 0;
}

// The names in `dir` other than `keep`: leftovers such as a temporary file.
inline QStringList otherEntries(const QString &dir, const QStringList &keep)
{
    QStringList names =
        QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &k : keep)
        names.removeAll(k);
    return names;
}

} // namespace gemmscope::testing
