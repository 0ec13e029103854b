#include "file_write.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRandomGenerator>
#include <atomic>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <QSaveFile>
#endif

namespace gemmscope {

namespace {

// -1 (no fault), or the bytes after which writes fail as on a full disk (simulateFullDiskAfter).
std::atomic<qint64> g_diskFullAfter{-1};

qint64 diskFullAfter()
{
    return g_diskFullAfter.load();
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

QString nonRegularFileKind(unsigned mode)
{
#ifdef Q_OS_UNIX
    if (S_ISREG(mode))
        return {};
    if (S_ISLNK(mode))
        return QObject::tr("a link");
    if (S_ISDIR(mode))
        return QObject::tr("a folder");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QObject::tr("a device");
    if (S_ISFIFO(mode))
        return QObject::tr("a named pipe");
    if (S_ISSOCK(mode))
        return QObject::tr("a socket");
    return QObject::tr("a special file");
#else
    Q_UNUSED(mode);
    return {};
#endif
}

bool isReadOnlyFile(const QString &path)
{
#ifdef Q_OS_UNIX
    // A file without any write permission is a user's "do not touch", even for root (whom
    // access() would let write); one this user may not write is read-only to it too.
    const QByteArray native = QFile::encodeName(path);
    struct stat info {};
    if (::stat(native.constData(), &info) != 0 || !S_ISREG(info.st_mode))
        return false;
    return (info.st_mode & 0222) == 0 || ::faccessat(AT_FDCWD, native.constData(), W_OK, AT_EACCESS) != 0;
#else
    const QFileInfo info(path);
    return info.isFile() && !info.isWritable();
#endif
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
        // A link here is one the write replaces (followSymlinks off): never written through.
        const QString what = S_ISLNK(info.st_mode) ? QString() : nonRegularFileKind(info.st_mode);
        if (!what.isEmpty())
            return QObject::tr(
                       "%1 is %2, not a regular file; GemmScope writes only regular files and leaves it "
                       "as it is.")
                .arg(path, what);
    }
    if (!options.replaceReadOnly && isReadOnlyFile(target))
        return QObject::tr("%1 is read-only, so GemmScope leaves it as it is; make it writable, or choose "
                           "another file.")
            .arg(path);
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

// The temporary's name: ".<target's name>.<pid>-<random>.tmp", the target's part cut (at a
// character's boundary) so that the whole is never longer than the longest name the folder takes:
// a temporary must fit wherever its target fits. The writer's pid lets a later write tell a
// temporary whose writer died (removable) from one being written now.
constexpr int kMaxNameBytes = 255; // NAME_MAX of every Linux file system GemmScope writes to
QByteArray temporaryPrefix(const QString &target)
{
    QByteArray base = QFile::encodeName(QFileInfo(target).fileName());
    const int room = kMaxNameBytes - 25; // '.' + '.' + pid (<= 10) + '-' + 8 hex + ".tmp"
    if (base.size() > room) {
        int cut = room;
        while (cut > 0 && (quint8(base.at(cut)) & 0xC0) == 0x80)
            --cut; // never inside a UTF-8 sequence
        base.truncate(cut);
    }
    return '.' + base + '.';
}

QByteArray temporaryName(const QByteArray &prefix)
{
    return prefix + QByteArray::number(qint64(::getpid())) + '-' +
           QByteArray::number(QRandomGenerator::global()->generate(), 16).rightJustified(8, '0') + ".tmp";
}

// The pid of a temporary of `prefix` named by `name`, or 0 when it is not one. The prefix "."
// matches the temporaries of any target.
qint64 temporaryWriter(const QByteArray &name, const QByteArray &prefix)
{
    if (!name.startsWith(prefix) || !name.endsWith(".tmp"))
        return 0;
    const QByteArray stem = name.chopped(4);
    const qsizetype dot = stem.lastIndexOf('.');
    if (dot + 1 < prefix.size())
        return 0;
    const QByteArray writer = stem.mid(dot + 1); // "<pid>-<8 hex>"
    const qsizetype dash = writer.indexOf('-');
    if (dash <= 0 || writer.size() - dash - 1 != 8)
        return 0;
    bool ok = false;
    const qint64 pid = writer.left(dash).toLongLong(&ok);
    return ok && pid > 0 ? pid : 0;
}

bool processIsGone(qint64 pid)
{
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

// Removes, in the folder open as `dirFd`, the temporaries of `prefix` whose writer has ended: a
// save interrupted by SIGKILL or a power cut leaves one behind, as large as the file it wrote.
int removeTemporariesOfEndedWriters(int dirFd, const QByteArray &prefix)
{
    const int dupFd = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
    if (dupFd < 0)
        return 0;
    DIR *dir = ::fdopendir(dupFd);
    if (!dir) {
        ::close(dupFd);
        return 0;
    }
    int removed = 0;
    while (const dirent *entry = ::readdir(dir)) {
        const QByteArray name(entry->d_name);
        const qint64 pid = temporaryWriter(name, prefix);
        if (pid == 0 || !processIsGone(pid))
            continue;
        struct stat info {};
        if (::fstatat(dirFd, name.constData(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode) &&
            ::unlinkat(dirFd, name.constData(), 0) == 0)
            ++removed;
    }
    ::closedir(dir);
    return removed;
}

} // namespace

int removeInterruptedWrites(const QString &path, const WriteOptions &options)
{
    const QString target = targetOf(path, options);
    const int dirFd =
        ::open(QFile::encodeName(folderOf(target)).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0)
        return 0;
    const int removed = removeTemporariesOfEndedWriters(dirFd, temporaryPrefix(target));
    ::close(dirFd);
    return removed;
}

int removeInterruptedWritesIn(const QString &folder)
{
    const int dirFd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0)
        return 0;
    const int removed = removeTemporariesOfEndedWriters(dirFd, QByteArrayLiteral("."));
    ::close(dirFd);
    return removed;
}

FileWrite writeFileAtomically(const QString &path, const QByteArray &bytes, const WriteOptions &options)
{
    if (const auto refused = refuseOutput(path, options))
        return {false, *refused};
    const QString target = targetOf(path, options);
    const QString folder = folderOf(target);
    const QByteArray targetName = QFile::encodeName(QFileInfo(target).fileName());
    struct stat old {};
    bool existed = false;
    const auto failed = [&](int error, const QString &step) {
        return FileWrite{false, QObject::tr("Could not write %1: %2 (%3). %4")
                                    .arg(path, reasonFor(error), step,
                                         existed ? QObject::tr("The file there is unchanged.")
                                                 : QObject::tr("Nothing was written."))};
    };

    // Everything happens relative to the folder, opened once: the temporary's path is then never
    // longer than the target's (a target near PATH_MAX is written too), and every step acts in
    // the same folder even if it is renamed meanwhile.
    const int dirFd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0)
        return failed(errno, QObject::tr("opening the folder %1").arg(folder));
    existed = ::fstatat(dirFd, targetName.constData(), &old, AT_SYMLINK_NOFOLLOW) == 0;
    const QByteArray prefix = temporaryPrefix(target);
    removeTemporariesOfEndedWriters(dirFd, prefix);

    // A fresh name (rename() is atomic only within one file system), created exclusively and
    // never through a link.
    QByteArray temp;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        temp = temporaryName(prefix);
        fd = ::openat(dirFd, temp.constData(),
                      O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST) {
            const int error = errno;
            ::close(dirFd);
            return failed(error, QObject::tr("creating a file in %1").arg(folder));
        }
    }
    if (fd < 0) {
        ::close(dirFd);
        return failed(EEXIST, QObject::tr("creating a file in %1").arg(folder));
    }
    const auto abandon = [&](int error, const QString &step) {
        if (fd >= 0)
            ::close(fd);
        ::unlinkat(dirFd, temp.constData(), 0);
        ::close(dirFd);
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
    if (::renameat(dirFd, temp.constData(), dirFd, targetName.constData()) != 0)
        return abandon(errno, QObject::tr("replacing the file"));
    // The rename itself is durable once the folder is: best effort, some file systems refuse.
    ::fsync(dirFd);
    ::close(dirFd);
    return {true, {}};
}

#else

int removeInterruptedWrites(const QString &, const WriteOptions &)
{
    return 0; // QSaveFile's temporaries are its own
}

int removeInterruptedWritesIn(const QString &)
{
    return 0;
}

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
