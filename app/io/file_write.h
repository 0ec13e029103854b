// Writing a file the programs produce (sessions, the autosave, bench JSON, results CSV/JSON, chart
// exports): the target is replaced completely and durably, or left exactly as it was and the
// reason comes back as a sentence. The bytes go to a temporary file in the target's folder; every
// write, the fsync and the close are checked before it is renamed over the target (QSaveFile
// commits after an unchecked final flush and loses the file on a full disk: QTBUG-75077).
// Devices, pipes, sockets and folders are refused as targets, and so are the program's own inputs.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

struct WriteOptions {
    // A file the user named may be a link: the file it points to is replaced, as editors do. A
    // file the program creates in its own data folder (the autosave) never follows a link: a
    // link planted at its name is replaced by the file, its target is never touched.
    bool followSymlinks = true;
    // The command's own inputs (a bench file being imported, a sweep's journal): refused as the
    // target, whether named by the same path, another path or a link.
    QStringList inputs;
    // A read-only file is a user's "do not touch": refused unless the user confirmed replacing it.
    bool replaceReadOnly = false;
};

struct FileWrite {
    bool ok = false;
    QString error; // a sentence naming the file and saying whether it was left unchanged
    explicit operator bool() const { return ok; }
};

// The check writeFileAtomically makes before it writes anything: nullopt when `path` can be
// written to, else why not. For commands that should refuse an output before an hour of work.
std::optional<QString> refuseOutput(const QString &path, const WriteOptions &options = {});

// The bytes go to a temporary in the target's folder, named ".<name>.<pid>-<random>.tmp" and
// never longer than the longest name the folder takes, so it fits wherever the target fits.
FileWrite writeFileAtomically(const QString &path, const QByteArray &bytes, const WriteOptions &options = {});

// What lstat's `mode` says a non-regular file is, as a user reads it ("a folder", "a device", "a
// named pipe", ...); empty for a regular file.
QString nonRegularFileKind(unsigned mode);

// True for a regular file that may not be written: no write permission at all, or none for this
// user. What a window asks about before it replaces one.
bool isReadOnlyFile(const QString &path);

// Removes the temporaries a write of `path` left behind when its process ended mid-write (killed,
// a power cut): every write does so for its own target first; a program calls it at start for the
// files it writes. Returns how many were removed.
int removeInterruptedWrites(const QString &path, const WriteOptions &options = {});
// The same for every target in `folder` (a folder only GemmScope writes to, e.g. the autosaves').
int removeInterruptedWritesIn(const QString &folder);

// Tests only: make every later write fail with "no space left on device" once `bytes` bytes of
// the file are written (-1 turns it off). Tests of a command-line program's writes run its mode in
// their own process (tests/tst_ladder_mode.cpp) or on a real full file system.
void simulateFullDiskAfter(qint64 bytes);

} // namespace gemmscope
