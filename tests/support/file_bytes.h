// Test helper: a file's bytes, read or written whole; an empty result or false where it cannot be.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace gemmscope::test {

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace gemmscope::test
