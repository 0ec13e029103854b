// Reading a file a user (or a damaged autosave) names, without trusting the name: only a regular
// file is read, up to a size limit, and it is opened so that a FIFO or a device in its place
// (`saved_file: "/dev/zero"`, a named pipe) can neither block the caller nor flood its memory.
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace gemmscope {

// Sessions and bench files: a 50,000-run session with its raw events is ~150 MB.
inline constexpr qint64 kMaxUserFileBytes = 512LL * 1024 * 1024;

struct FileBytes {
    std::optional<QByteArray> bytes;
    QString error; // a sentence naming the file, when bytes is empty
};

// Qt resource paths (":/...") are read as they are: they are part of the binary.
FileBytes readRegularFile(const QString &path, qint64 maxBytes = kMaxUserFileBytes);

} // namespace gemmscope
