#include "cubin_cache.h"

#include "file_read.h"
#include "file_write.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

namespace gemmscope::runner {

namespace {

// A CUBIN of the largest stage is a few hundred KiB; anything near this is not ours.
constexpr qint64 kMaxPartBytes = 64LL * 1024 * 1024;
constexpr qint64 kMaxInfoBytes = 1024 * 1024;

// The entry's parts, by suffix: the info file, written last, names each with its size and hash.
constexpr const char *kParts[] = {".cubin", ".log", ".name", ".ptx"};
const QString kPartsKey = QStringLiteral("parts");
const QString kBytesKey = QStringLiteral("bytes");
const QString kHashKey = QStringLiteral("sha256");

QString sha256(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QByteArray partBytes(const CachedCubin &entry, const char *suffix)
{
    const QByteArrayView part(suffix);
    if (part == ".cubin")
        return entry.cubin;
    if (part == ".log")
        return entry.log.toUtf8();
    if (part == ".name")
        return entry.loweredName.toUtf8();
    return entry.ptx;
}

} // namespace

CubinCache::CubinCache(QString directory) : m_directory(std::move(directory)) {}

QString CubinCache::pathFor(const QString &key, const char *suffix) const
{
    return m_directory + QStringLiteral("/") + key + QString::fromLatin1(suffix);
}

void CubinCache::remove(const QString &key) const
{
    QFile::remove(pathFor(key, ".info")); // first: without it nothing else counts
    for (const char *suffix : kParts)
        QFile::remove(pathFor(key, suffix));
}

std::optional<CachedCubin> CubinCache::load(const QString &key) const
{
    const FileBytes infoFile = readRegularFile(pathFor(key, ".info"), kMaxInfoBytes);
    if (!infoFile.bytes)
        return std::nullopt; // no entry, or one whose writing never finished
    QJsonObject info = QJsonDocument::fromJson(*infoFile.bytes).object();
    const QJsonObject parts = info.take(kPartsKey).toObject();
    // Every part must be there exactly as written: a file cut short by a full disk, or changed
    // since, is recompiled, never loaded.
    QByteArray read[std::size(kParts)];
    for (std::size_t i = 0; i < std::size(kParts); ++i) {
        const QJsonValue recorded = parts.value(QString::fromLatin1(kParts[i]));
        if (recorded.isUndefined()) {
            if (QByteArrayView(kParts[i]) == ".ptx")
                continue; // optional: kept only when a job asked for PTX
            remove(key);
            return std::nullopt;
        }
        const FileBytes part = readRegularFile(pathFor(key, kParts[i]), kMaxPartBytes);
        const QJsonObject expected = recorded.toObject();
        if (!part.bytes || part.bytes->size() != expected.value(kBytesKey).toInteger(-1) ||
            sha256(*part.bytes) != expected.value(kHashKey).toString()) {
            remove(key);
            return std::nullopt;
        }
        read[i] = *part.bytes;
    }
    if (read[0].isEmpty() || read[2].isEmpty()) {
        remove(key);
        return std::nullopt;
    }
    return CachedCubin{read[0], QString::fromUtf8(read[1]), QString::fromUtf8(read[2]), read[3], info};
}

bool CubinCache::store(const QString &key, const CachedCubin &entry) const
{
    if (entry.cubin.isEmpty() || entry.loweredName.isEmpty() || !QDir().mkpath(m_directory))
        return false;
    // The cache folder is the runner's own: a link planted in it is replaced, never written through.
    WriteOptions own;
    own.followSymlinks = false;
    QFile::remove(pathFor(key, ".info")); // an older entry stops counting before its parts change
    QJsonObject parts;
    for (const char *suffix : kParts) {
        const QByteArray bytes = partBytes(entry, suffix);
        if (QByteArrayView(suffix) == ".ptx" && bytes.isEmpty())
            continue;
        if (!writeFileAtomically(pathFor(key, suffix), bytes, own)) {
            remove(key);
            return false;
        }
        parts.insert(QString::fromLatin1(suffix),
                     QJsonObject{{kBytesKey, bytes.size()}, {kHashKey, sha256(bytes)}});
    }
    QJsonObject info = entry.info;
    info.insert(kPartsKey, parts);
    if (!writeFileAtomically(pathFor(key, ".info"), QJsonDocument(info).toJson(QJsonDocument::Compact),
                             own)) {
        remove(key);
        return false;
    }
    return true;
}

} // namespace gemmscope::runner
