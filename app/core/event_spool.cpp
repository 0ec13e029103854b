#include "event_spool.h"

#include <QDir>
#include <QStandardPaths>
#include <cerrno>
#include <unistd.h>

namespace gemmscope {

namespace {

std::atomic<quint64> g_failedReads{0};

// The user's cache folder first: where /tmp is a tmpfs (as on many systems) a spool there would
// be RAM again, only not counted as the process's.
QStringList spoolFolders()
{
    QStringList folders;
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    const QString cache = base + QStringLiteral("/gemmscope"); // the runner's cache folder too
    if (!base.isEmpty() && QDir().mkpath(cache))
        folders << cache;
    folders << QDir::tempPath();
    return folders;
}

} // namespace

std::shared_ptr<EventSpool> EventSpool::create()
{
    std::shared_ptr<EventSpool> spool(new EventSpool);
    spool->m_file.setAutoRemove(false);
    bool open = false;
    for (const QString &folder : spoolFolders()) {
        spool->m_file.setFileTemplate(folder + QStringLiteral("/gemmscope-events-XXXXXX"));
        if ((open = spool->m_file.open()))
            break;
    }
    if (!open)
        return nullptr;
    // Unlinked at once: the open handle keeps it, and no crash leaves it behind.
    if (!QFile::remove(spool->m_file.fileName()))
        spool->m_file.setAutoRemove(true);
    return spool;
}

// pwrite and pread at offsets of their own: no shared file position, so threads need no lock.
qint64 EventSpool::append(const QByteArray &bytes)
{
    const qint64 offset = m_end.fetch_add(bytes.size(), std::memory_order_relaxed);
    const int fd = m_file.handle();
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::pwrite(fd, bytes.constData() + written, size_t(bytes.size() - written),
                                   off_t(offset + written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1; // a full disk: the range stays unused
        written += n;
    }
    return offset;
}

QByteArray EventSpool::read(qint64 offset, qsizetype length) const
{
    QByteArray bytes(length, Qt::Uninitialized);
    const int fd = m_file.handle();
    qsizetype done = 0;
    while (done < length) {
        const ssize_t n = ::pread(fd, bytes.data() + done, size_t(length - done), off_t(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            g_failedReads.fetch_add(1, std::memory_order_relaxed);
            return {};
        }
        done += n;
    }
    return bytes;
}

quint64 EventSpool::failedReads()
{
    return g_failedReads.load(std::memory_order_relaxed);
}

} // namespace gemmscope
