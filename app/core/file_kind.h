// What kind of GemmScope file a file is, told from its content (the "format" field of its first
// JSON value, a JSON list of runs, an image's magic bytes), never from its name: a session saved
// as results.json, or a sweep renamed .gsweep, still opens as what it is. One place names every
// file GemmScope writes, so that File > Open, Import Bench JSON, a drop on the window, the command
// line and --import-bench tell the user the same thing about the same file.
#pragma once

#include <QByteArray>
#include <QString>

namespace gemmscope {

enum class FileKind {
    Session,          // {"format":"gemmscope-session"}: File > Save, the autosave
    Bench,            // {"format":"gemmscope-bench"}: gemmscope-bench --json (the ladder, --profile)
    BenchSweep,       // {"format":"gemmscope-bench-sweep"}: gemmscope-bench --sweep --json
    BenchSizeSweep,   // {"format":"gemmscope-bench-size-sweep"}: gemmscope-bench --size-sweep --json
    SweepCells,       // {"format":"gemmscope-sweep-cells"}: the Sweep view's JSON export
    SizeSweepSummary, // {"format":"gemmscope-size-sweep"}: the size-sweep view's JSON export
    SweepJournal,     // {"format":"gemmscope-sweep"} then one run a line: a sweep's *.gsweep
    ResultsExport,    // a JSON list of runs: File > Export of the results table as .json
    Profile,          // {"event":"profile"}: a runner's profile event as recorded (one a file)
    OtherGemmScope,   // a "gemmscope-..." format this GemmScope does not know (a newer one)
    Image,            // a PNG, SVG or PDF: a chart GemmScope exported
    NotGemmScope,     // JSON, but none of the above
    NotJson,          // not JSON at all (or cut short before its format could be read)
};

struct FileSniff {
    FileKind kind = FileKind::NotJson;
    QString format; // the "format" field as written, where there is one
};

// Reads only as far as the first JSON value's top-level "format" (and "event") field (linear, no tree built):
// cheap enough for a 100 MB session.
FileSniff sniffFileKind(const QByteArray &bytes);

// What the kind is, for a sentence: "a GemmScope session", "a gemmscope-bench sweep file".
QString describeFileKind(FileKind kind);
// True for the kinds that open as a sweep on the Sweep workspace.
bool isSweepKind(FileKind kind);

} // namespace gemmscope
