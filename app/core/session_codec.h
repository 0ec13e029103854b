// The one reader and writer of session files ({"format":"gemmscope-session","version":1,...}) and
// of the bench import: pure functions from bytes to SessionData and back, and their file
// wrappers. A file is parsed completely before anything uses it, so a corrupt, truncated or
// unknown-version file is refused with a sentence and never half-loaded; what is only an
// addition to a session (a profile, a custom kernel) is left out on its own, with a sentence in
// SessionData::notices.
#pragma once

#include "file_write.h"
#include "session_data.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

inline constexpr int kSessionFormatVersion = 1;

// A parse result: data, or the sentence that says why the file was refused.
struct SessionParse {
    std::optional<SessionData> data;
    QString error;
    bool cancelled = false; // the reader gave up waiting (ReadProgress::cancelled): no data, no error
};

struct ReadProgress;

SessionParse parseSessionJson(const QByteArray &bytes);
// The same, saying how far the runs are read in `progress` and stopping where it is cancelled.
SessionParse parseSessionJson(const QByteArray &bytes, ReadProgress *progress);
SessionParse readSessionFile(const QString &path);
// readSessionFile, with its large profiles folded for the views (foldAhead): the work of opening a
// session but showing it, for a worker thread, so that a large file never holds up the window
// (SessionActions reads it so).
SessionParse readSessionFileForViews(const QString &path);
// `savedFile`: written as "saved_file" (an autosave remembers which file it shadows).
QByteArray serializeSession(const SessionData &data, const QString &savedFile = {});
// Through writeFileAtomically: the file is replaced whole or left as it was, with the reason.
bool writeSessionFile(const QString &path, const SessionData &data, QString *error,
                      const QString &savedFile = {}, const WriteOptions &options = {});

// Converts a bench JSON ({"format":"gemmscope-bench","version":1,...}, docs/protocol.md) into runs
// with origin "recorded".
SessionParse importBenchJson(const QByteArray &bytes);
SessionParse importBenchFile(const QString &path);

// An autosave read for recovery, which is lenient where loading is not: a run that cannot be read
// is left out and named in `problems`, so that one damaged run never costs the others.
struct SessionSalvage {
    std::optional<SessionData> data; // without what could not be read; none: the file as a whole
    QString savedFile;               // the file it shadows ("saved_file"), if any
    QStringList problems;            // what could not be read and why, one sentence each
    bool damaged = false;            // the file, or a run in it, could not be read
};
// `name`: the file's name, for the sentences.
SessionSalvage salvageSessionJson(const QByteArray &bytes, const QString &name);

} // namespace gemmscope
