// Profiles too large to read, found in a file's bytes before the file is parsed. Qt's JSON parser
// builds every value of a document as an object in memory: a session holding a profile of 10^6
// instructions (350 MB) took 2 GB and 15 s to parse before its profile could be refused. One pass
// over the bytes counts the instructions of each entry of the top-level "profiles" list (a session's
// or a bench file's) without building anything, and each entry past kMaxProfileInstructions is
// replaced by `null` in the bytes handed to the parser; the caller says why it was left out.
// The same pass finds where the root's "runs" list and each of its entries lie, so that a session
// of 100,000 runs is parsed in pieces (session_runs_read.h) rather than as one document.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <optional>
#include <vector>

namespace gemmscope {

// Where the root's "runs" list lies in ProfilePrescan::bytes (offsets into them).
struct RunListSpans {
    struct Entry {
        qsizetype begin = 0, end = 0; // [begin, end): one value of the list, as written
    };
    qsizetype open = 0;         // the list's '['
    std::vector<Entry> entries; // each complete entry, in order
    bool closed = false;        // its ']' was found; else the pass stopped inside the list
    qsizetype restBegin = 0;    // where what follows the complete entries begins (']' or the
                                // entry the pass could not finish)
};

struct ProfilePrescan {
    QByteArray bytes;                  // what to parse: the file, with each oversized profile entry null
    QHash<qsizetype, QString> leftOut; // by index in "profiles" (0-based): why (profile_limits.h)
    // The root's "runs" list where the pass found it begin, once; none where the file names none
    // (or two), or the pass could not follow the bytes before it.
    std::optional<RunListSpans> runs;
};

// Entries are found only where the file is a JSON object whose "profiles" member (spelled so) is a
// list; anything the pass cannot follow (a file that is not JSON, or truncated) is handed on
// unchanged, for the parser to refuse with its own sentence.
ProfilePrescan leaveOutOversizedProfiles(const QByteArray &bytes);

} // namespace gemmscope
