// A session's runs, decoded from its bytes in pieces. A session of 100,000 runs is 366 MB of JSON,
// nearly all of it the "runs" list: parsed as one QJsonDocument it took 16 s on one core and 2.4
// GiB at once. Where the prescan found the list (profile_prescan.h), the rest of the file is
// parsed without it, and the runs a few hundred at a time on the thread pool: every core works,
// only the pieces being read are held as JSON, and a reader can follow the progress or cancel.
#pragma once

#include "profile_prescan.h"
#include "run_record.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace gemmscope {

// Shared between the thread that reads a file and the one that shows it: how far the runs are
// read, and whether the user gave up waiting.
struct ReadProgress {
    std::atomic<qint64> runsRead{0};
    std::atomic<qint64> runsTotal{0};   // 0 until the run list is found
    std::atomic<bool> cancelled{false}; // set by the waiting side; the read stops at its next piece
    // Called on the thread that reads a piece, before it reads it (its first run's index), where
    // a watcher wants to see which threads read which pieces; pieces are read at once on several.
    std::function<void(size_t firstRun)> pieceStarts;
};

// The records are decoded into the list the session keeps (its room to grow, as SessionStore
// keeps it, reserved at once): decoded beside it and moved in, a 100,000-run session held both, a
// hundred megabytes more at the peak of its read.
struct DecodedRuns {
    QList<RunRecord> runs;    // in the file's order; a default record where one could not be read
    std::vector<QString> why; // what is wrong with each run, empty where it was read
    QString jsonError;        // a sentence where the list is not valid JSON (nothing decoded)
    bool cancelled = false;
};

// The file's root object with its "runs" list left empty (the runs are read by decodeRunPieces),
// or the sentence why the bytes are not one; byte offsets in the sentence are the file's.
std::optional<QJsonObject> parseRootWithoutRuns(const QByteArray &bytes, const RunListSpans &runs,
                                                QString *error);
// Every entry of the list in `bytes`, decoded into records a piece at a time on the thread pool.
DecodedRuns decodeRunPieces(const QByteArray &bytes, const RunListSpans &runs, ReadProgress *progress);
// The same for a list already parsed (a file the prescan could not follow).
DecodedRuns decodeRunList(const QJsonArray &runs, ReadProgress *progress);

} // namespace gemmscope
