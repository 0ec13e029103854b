// The bench file, {"format":"gemmscope-bench","version":1,...} (docs/protocol.md): what
// gemmscope-bench --json writes and the GUI imports. Its one writer and its one reader, so that the
// two programs cannot drift apart; the envelope's field names are spelled here only.
//
// The runner's events (the rows' results and errors, the ceilings) are written as the bench
// received them, so that a bench file is the runner's own record; the reader decodes them once,
// through the protocol codec, into typed events.
#pragma once

#include "events.h"
#include "requests.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

inline constexpr int kBenchFormatVersion = 1;

struct BenchFileRow {
    QString preset;    // "worklog-3"; empty for a bare stage key (null in the file)
    QString stage;     // as asked for
    QString params;    // as the table shows them: "BM=64 BN=64 BK=8 TM=4 TN=4"
    QJsonObject event; // the runner's final event for the row, as received
    // Read: the event decoded (exactly one of the two), and the run the row asked for, in the
    // protocol's terms, for an error event that does not repeat it.
    std::optional<protocol::ResultEvent> result;
    std::optional<protocol::ErrorEvent> error;
    protocol::RunJob request;
};

struct BenchFile {
    QString date;    // ISO 8601, UTC
    QString command; // the bench's command line
    // The runner's `ready` GPU object (protocol::toJson(GpuInfo)); read: its name (older files
    // carry just a name).
    QJsonObject gpu;
    QString gpuName;
    std::optional<ProblemSize> size; // the size every row ran at
    // The runner's answer to the ceilings job as received (a `ceilings` or an `error` event);
    // read: the ceilings when it is a ceilings event.
    QJsonObject ceilingsEvent;
    std::optional<protocol::CeilingsEvent> ceilings;
    QList<BenchFileRow> rows;
    // gemmscope-bench --profile: the runner's `profile` events as received ("profiles",
    // left out when there are none); read: each decoded (a damaged one refuses the file, as a
    // damaged row does; one past profile_limits.h is left out and named in `notices`).
    QList<QJsonObject> profileEvents;
    QList<protocol::ProfileEvent> profiles;
    QStringList notices; // read: what was left out, one sentence each
};

QByteArray serializeBench(const BenchFile &bench);

// A parse result: the file, or the sentence that says why it was refused.
struct BenchParse {
    std::optional<BenchFile> file;
    QString error;
};
// Refuses bytes that are not JSON, not a bench file, of another version, without rows or with a
// row that holds neither a result nor an error event; never returns half a file.
BenchParse parseBench(const QByteArray &bytes);

} // namespace gemmscope
