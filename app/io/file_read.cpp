#include "file_read.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace gemmscope {

namespace {

QString tooLarge(const QString &path, qint64 size, qint64 maxBytes)
{
    return QObject::tr("%1 is %2 MB; GemmScope reads files of at most %3 MB.")
        .arg(path)
        .arg(double(size) / 1e6, 0, 'f', 0)
        .arg(double(maxBytes) / 1e6, 0, 'f', 0);
}

FileBytes readOpened(QFile &file, const QString &path, qint64 maxBytes)
{
    QByteArray bytes = file.read(maxBytes + 1);
    if (bytes.size() > maxBytes)
        return {std::nullopt, tooLarge(path, bytes.size(), maxBytes)};
    if (file.error() != QFileDevice::NoError)
        return {std::nullopt, QObject::tr("Could not read %1: %2.").arg(path, file.errorString())};
    return {std::move(bytes), {}};
}

} // namespace

FileBytes readRegularFile(const QString &path, qint64 maxBytes)
{
    if (path.startsWith(QLatin1Char(':'))) { // a Qt resource, built into the binary
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {std::nullopt, QObject::tr("Could not open %1: %2.").arg(path, file.errorString())};
        return readOpened(file, path, maxBytes);
    }
    const QString notRegular = QObject::tr("%1 is not a regular file (a folder, a pipe or a device), so "
                                           "GemmScope does not read it.")
                                   .arg(path);
#ifdef Q_OS_UNIX
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer; the
    // descriptor's own fstat then decides, so the file cannot be swapped between check and read.
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return {
            std::nullopt,
            QObject::tr("Could not open %1: %2.").arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return {std::nullopt, notRegular};
    }
    if (info.st_size > maxBytes) {
        ::close(fd);
        return {std::nullopt, tooLarge(path, info.st_size, maxBytes)};
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return {std::nullopt, QObject::tr("Could not open %1: %2.").arg(path, file.errorString())};
    }
    return readOpened(file, path, maxBytes);
#else
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return {std::nullopt, notRegular};
    if (info.size() > maxBytes)
        return {std::nullopt, tooLarge(path, info.size(), maxBytes)};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {std::nullopt, QObject::tr("Could not open %1: %2.").arg(path, file.errorString())};
    return readOpened(file, path, maxBytes);
#endif
}

} // namespace gemmscope
