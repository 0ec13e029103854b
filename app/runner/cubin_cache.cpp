#include "cubin_cache.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace gemmscope::runner {

namespace {

std::optional<QByteArray> readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return f.readAll();
}

// QSaveFile writes to a temporary and renames: a runner killed mid-write leaves no torn CUBIN.
bool writeAll(const QString &path, const QByteArray &data)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(data);
    return f.commit();
}

} // namespace

CubinCache::CubinCache(QString directory) : m_directory(std::move(directory)) {}

QString CubinCache::pathFor(const QString &key, const char *suffix) const
{
    return m_directory + QStringLiteral("/") + key + QString::fromLatin1(suffix);
}

std::optional<CachedCubin> CubinCache::load(const QString &key) const
{
    // The CUBIN is written last, so its presence means the entry is complete.
    const auto cubin = readAll(pathFor(key, ".cubin"));
    const auto log = readAll(pathFor(key, ".log"));
    const auto name = readAll(pathFor(key, ".name"));
    if (!cubin || !log || !name || cubin->isEmpty() || name->isEmpty())
        return std::nullopt;
    return CachedCubin{*cubin, QString::fromUtf8(*log), QString::fromUtf8(*name),
                       readAll(pathFor(key, ".ptx")).value_or(QByteArray())};
}

bool CubinCache::store(const QString &key, const CachedCubin &entry) const
{
    if (!QDir().mkpath(m_directory))
        return false;
    if (!entry.ptx.isEmpty() && !writeAll(pathFor(key, ".ptx"), entry.ptx))
        return false;
    return writeAll(pathFor(key, ".log"), entry.log.toUtf8()) &&
           writeAll(pathFor(key, ".name"), entry.loweredName.toUtf8()) &&
           writeAll(pathFor(key, ".cubin"), entry.cubin);
}

} // namespace gemmscope::runner
