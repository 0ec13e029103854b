// Reading any file GemmScope writes (file_kind.h) into what the window opens: a session, runs to
// add to the open session (a bench file, an exported results table) or a sweep for the Sweep
// workspace (a bench sweep or size sweep, a sweep exported from its view, a journal). Meant for a
// worker thread: the file is read, told apart and parsed whole before anything in the window
// changes, so that a damaged file of any kind is refused with a sentence and changes nothing.
#pragma once

#include "file_kind.h"
#include "session.h"
#include "sweep_record.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

struct OpenedFile {
    QString path;
    FileKind kind = FileKind::NotJson;
    // Session: the session; Bench and ResultsExport: the runs (and profiles, ceilings) to add.
    std::optional<SessionData> data;
    std::optional<SweepData> sweep; // the sweep kinds (isSweepKind)
    QString error;                  // why nothing can be opened: a sentence naming the file
    QStringList notices;            // what was left out, one sentence each
    bool cancelled = false;         // the reader gave up waiting: nothing opened, nothing to say
    bool ok() const { return data || sweep; }
};

struct ReadProgress;

// The file at `path`, read only if it is a regular file of bounded size (file_read.h). A session's
// runs are counted in `progress` as they are read, and the read stops where it is cancelled.
OpenedFile readGemmScopeFile(const QString &path, ReadProgress *progress = nullptr);
// Only what kind it is (reads the file; no parse): for the command line's --import-bench.
FileSniff sniffGemmScopeFile(const QString &path, QString *error);

} // namespace gemmscope
