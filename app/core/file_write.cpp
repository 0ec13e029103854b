#include "file_write.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRandomGenerator>
#include <atomic>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <QSaveFile>
#endif

namespace gemmscope {

namespace {

constexpr qint64 kFaultUnset = -2;
std::atomic<qint64> g_diskFullAfter{kFaultUnset};

// -1 (no fault), or the bytes after which writes fail as on a full disk.
qint64 diskFullAfter()
{
    qint64 limit = g_diskFullAfter.load();
    if (limit == kFaultUnset) {
        bool ok = false;
        const qint64 fromEnv = qEnvironmentVariable("GEMMSCOPE_TEST_DISK_FULL_AFTER_BYTES").toLongLong(&ok);
        limit = ok && fromEnv >= 0 ? fromEnv : -1;
        g_diskFullAfter.store(limit);
    }
    return limit;
}

QString folderOf(const QString &path)
{
    return QFileInfo(path).absolutePath();
}

// The file a write to `path` replaces: the link's target for user files, the name itself otherwise.
QString targetOf(const QString &path, const WriteOptions &options)
{
    const QFileInfo info(path);
    if (!options.followSymlinks || !info.isSymLink())
        return info.absoluteFilePath();
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.symLinkTarget() : canonical; // a dangling link: where it points
}

bool sameFile(const QString &a, const QString &b)
{
    if (QDir::cleanPath(QFileInfo(a).absoluteFilePath()) == QDir::cleanPath(QFileInfo(b).absoluteFilePath()))
        return true;
    const QString ca = QFileInfo(a).canonicalFilePath(), cb = QFileInfo(b).canonicalFilePath();
    if (!ca.isEmpty() && ca == cb)
        return true;
#ifdef Q_OS_UNIX
    struct stat sa {
    }, sb{};
    if (::stat(QFile::encodeName(a).constData(), &sa) == 0 &&
        ::stat(QFile::encodeName(b).constData(), &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
#endif
    return false;
}

#ifdef Q_OS_UNIX
QString reasonFor(int error)
{
    switch (error) {
    case ENOSPC:
        return QObject::tr("the disk is full");
    case EDQUOT:
        return QObject::tr("the disk quota is used up");
    case EROFS:
        return QObject::tr("its folder is on a read-only file system");
    case EACCES:
    case EPERM:
        return QObject::tr("its folder may not be written to (permission denied)");
    default:
        return QString::fromLocal8Bit(std::strerror(error));
    }
}
#endif

} // namespace

void simulateFullDiskAfter(qint64 bytes)
{
    g_diskFullAfter.store(bytes < 0 ? -1 : bytes);
}

std::optional<QString> refuseOutput(const QString &path, const WriteOptions &options)
{
    if (path.isEmpty())
        return QObject::tr("No file name was given to write to.");
    if (path.startsWith(QLatin1Char(':')))
        return QObject::tr("%1 is built into GemmScope and cannot be written; choose another file.")
            .arg(path);
    for (const QString &input : options.inputs)
        if (!input.isEmpty() && sameFile(path, input))
            return QObject::tr("%1 is also one of the files being read (%2); writing over it would destroy "
                               "it. Choose another file.")
                .arg(path, input);
    const QString target = targetOf(path, options);
    const QString folder = folderOf(target);
    if (!QFileInfo(folder).isDir())
        return QObject::tr("Cannot write %1: the folder %2 does not exist.").arg(path, folder);
#ifdef Q_OS_UNIX
    struct stat info {};
    if (::lstat(QFile::encodeName(target).constData(), &info) == 0) {
        QString what;
        if (S_ISDIR(info.st_mode))
            what = QObject::tr("a folder");
        else if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
            what = QObject::tr("a device");
        else if (S_ISFIFO(info.st_mode))
            what = QObject::tr("a named pipe");
        else if (S_ISSOCK(info.st_mode))
            what = QObject::tr("a socket");
        if (!what.isEmpty())
            return QObject::tr(
                       "%1 is %2, not a regular file; GemmScope writes only regular files and leaves it "
                       "as it is.")
                .arg(path, what);
    }
#else
    const QFileInfo info(target);
    if (info.exists() && !info.isFile())
        return QObject::tr(
                   "%1 is not a regular file; GemmScope writes only regular files and leaves it as it is.")
            .arg(path);
#endif
    return std::nullopt;
}

#ifdef Q_OS_UNIX

namespace {

// Writes all of `bytes` to `fd`, as a full disk would stop it where a test says so.
int writeAll(int fd, const QByteArray &bytes)
{
    const qint64 limit = diskFullAfter();
    qint64 done = 0;
    while (done < bytes.size()) {
        qint64 chunk = std::min<qint64>(bytes.size() - done, 1 << 20);
        if (limit >= 0) {
            if (done >= limit)
                return ENOSPC;
            chunk = std::min(chunk, limit - done);
        }
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(chunk));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += n;
    }
    return 0;
}

} // namespace

FileWrite writeFileAtomically(const QString &path, const QByteArray &bytes, const WriteOptions &options)
{
    if (const auto refused = refuseOutput(path, options))
        return {false, *refused};
    const QString target = targetOf(path, options);
    const QByteArray nativeTarget = QFile::encodeName(target);
    struct stat old {};
    const bool existed = ::lstat(nativeTarget.constData(), &old) == 0;
    const auto failed = [&](int error, const QString &step) {
        return FileWrite{false, QObject::tr("Could not write %1: %2 (%3). %4")
                                    .arg(path, reasonFor(error), step,
                                         existed ? QObject::tr("The file there is unchanged.")
                                                 : QObject::tr("Nothing was written."))};
    };

    // A fresh name in the same folder (rename() is atomic only within one file system), created
    // exclusively and never through a link.
    const QString folder = folderOf(target);
    const QString base = QFileInfo(target).fileName();
    QByteArray temp;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        temp = QFile::encodeName(QDir(folder).filePath(
            QStringLiteral(".%1.%2.tmp")
                .arg(base.left(200))
                .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'))));
        fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST)
            return failed(errno, QObject::tr("creating a file in %1").arg(folder));
    }
    if (fd < 0)
        return failed(EEXIST, QObject::tr("creating a file in %1").arg(folder));
    const auto abandon = [&](int error, const QString &step) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.constData());
        return failed(error, step);
    };
    if (existed && S_ISREG(old.st_mode))
        ::fchmod(fd, old.st_mode & 07777); // the replaced file keeps its permissions
    if (const int error = writeAll(fd, bytes))
        return abandon(error, QObject::tr("writing"));
    if (::fsync(fd) != 0)
        return abandon(errno, QObject::tr("flushing to disk"));
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon(errno, QObject::tr("closing"));
    if (::rename(temp.constData(), nativeTarget.constData()) != 0)
        return abandon(errno, QObject::tr("replacing the file"));
    // The rename itself is durable once the folder is: best effort, some file systems refuse.
    const int dirFd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return {true, {}};
}

#else

FileWrite writeFileAtomically(const QString &path, const QByteArray &bytes, const WriteOptions &options)
{
    if (const auto refused = refuseOutput(path, options))
        return {false, *refused};
    QSaveFile file(targetOf(path, options));
    const qint64 limit = diskFullAfter();
    const bool written = file.open(QIODevice::WriteOnly) && (limit < 0 || bytes.size() <= limit) &&
                         file.write(bytes) == bytes.size() && file.flush() && file.commit();
    if (!written) {
        file.cancelWriting();
        return {false, QObject::tr("Could not write %1: %2. The file there is unchanged.")
                           .arg(path, file.errorString())};
    }
    return {true, {}};
}

#endif

} // namespace gemmscope
