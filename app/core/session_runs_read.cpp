#include "session_runs_read.h"

#include "json_text.h"

#include <QJsonDocument>
#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>

namespace gemmscope {

namespace {

// Runs parsed as one JSON document at a time: ~1 MB of text, small enough that the pieces the
// pool's threads hold at once are nothing beside the records, large enough that each is worth a
// task.
constexpr size_t kRunsPerPiece = 256;

// A piece of the list: entries [first, last) and, once read, where its text is not JSON.
struct RunPiece {
    size_t first = 0, last = 0;
    QString jsonError;
};

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Whether the bytes [begin, end) between two entries (or before the first: `commas` 0) are the
// separator JSON allows. Inside a piece the parser checks them; between pieces no parser sees them.
bool isSeparator(const QByteArray &bytes, qsizetype begin, qsizetype end, int commas)
{
    for (qsizetype i = begin; i < end; ++i) {
        if (bytes[i] == ',')
            --commas;
        else if (!isJsonSpace(bytes[i]))
            return false;
    }
    return commas == 0;
}

// The first offset in [begin, end) that is not space, for a sentence about a bad separator.
qsizetype firstNonSpace(const QByteArray &bytes, qsizetype begin, qsizetype end)
{
    while (begin < end && isJsonSpace(bytes[begin]))
        ++begin;
    return begin;
}

void reportRead(ReadProgress *progress, size_t runs)
{
    if (progress)
        progress->runsRead.fetch_add(qint64(runs), std::memory_order_relaxed);
}

bool isCancelled(const ReadProgress *progress)
{
    return progress && progress->cancelled.load(std::memory_order_relaxed);
}

void reportPieceStarts(const ReadProgress *progress, size_t firstRun)
{
    if (progress && progress->pieceStarts)
        progress->pieceStarts(firstRun);
}

// Maps `pieces` on the global pool, waiting for them. A read runs on the pool itself (the open
// is a QtConcurrent::run): waiting there, it holds one of the pool's threads, and the map found
// the pool full and ran on the waiting thread alone (one core of two). The waiting thread is lent
// back to the pool while it waits, so every core reads, and taken again once the map is done.
template <typename Pieces, typename Read> void readPiecesOnPool(Pieces &pieces, Read read)
{
    QThreadPool *pool = QThreadPool::globalInstance();
    const bool onPool = pool->contains(QThread::currentThread());
    if (onPool)
        pool->releaseThread();
    QtConcurrent::blockingMap(pool, pieces, read);
    if (onPool)
        pool->reserveThread();
}

// Room for `count` records and for the list to grow (SessionStore::replace keeps it), each
// record default until its piece is read. Pieces write their own records through `records`: no
// two threads touch one record, and none the list itself.
void makeRoom(DecodedRuns &out, size_t count)
{
    const qsizetype n = qsizetype(count);
    out.runs.reserve(n + n / 2 + 256);
    out.runs.resize(n);
    out.why.resize(count);
}

void decodeRun(const QJsonObject &object, DecodedRuns &out, RunRecord *records, size_t i)
{
    if (std::optional<RunRecord> record = fromJson(object, &out.why[i]))
        records[i] = std::move(*record);
}

// The stored events of runs [first, last), out of RAM to the read's spool in one write.
void spoolEvents(RunRecord *records, size_t first, size_t last, const std::shared_ptr<EventSpool> &spool)
{
    std::vector<StoredEvent *> events;
    events.reserve(last - first);
    for (size_t i = first; i < last; ++i)
        events.push_back(&records[i].event);
    StoredEvent::moveToSpool(events, spool);
}

void readPiece(const QByteArray &bytes, const RunListSpans &runs, RunPiece &piece, DecodedRuns &out,
               RunRecord *records, const std::shared_ptr<EventSpool> &spool, ReadProgress *progress)
{
    if (isCancelled(progress))
        return;
    reportPieceStarts(progress, piece.first);
    const qsizetype begin = runs.entries[piece.first].begin, end = runs.entries[piece.last - 1].end;
    QByteArray text;
    text.reserve(end - begin + 2);
    text.append('[').append(bytes.constData() + begin, end - begin).append(']');
    QJsonParseError parseError;
    const QJsonArray list = QJsonDocument::fromJson(text, &parseError).array();
    if (parseError.error != QJsonParseError::NoError) {
        piece.jsonError = invalidJsonSentence(parseError, begin + std::max(0, parseError.offset - 1));
        return;
    }
    if (size_t(list.size()) != piece.last - piece.first) { // the pass and the parser disagree
        piece.jsonError =
            QObject::tr("The file is not valid JSON (its list of runs near byte %1 could not be "
                        "read); it may be truncated or corrupt.")
                .arg(begin);
        return;
    }
    for (size_t i = piece.first; i < piece.last; ++i)
        decodeRun(list.at(qsizetype(i - piece.first)).toObject(), out, records, i);
    spoolEvents(records, piece.first, piece.last, spool);
    reportRead(progress, piece.last - piece.first);
}

} // namespace

std::optional<QJsonObject> parseRootWithoutRuns(const QByteArray &bytes, const RunListSpans &runs,
                                                QString *error)
{
    // What precedes the list's entries, and what follows them: `[` then `]` where the list is
    // whole, else where the pass stopped (for the parser to say what is wrong there).
    const qsizetype cut = runs.restBegin - (runs.open + 1);
    QByteArray root;
    root.reserve(bytes.size() - cut);
    root.append(bytes.constData(), runs.open + 1)
        .append(bytes.constData() + runs.restBegin, bytes.size() - runs.restBegin);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(root, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const qsizetype offset = parseError.offset > runs.open ? parseError.offset + cut : parseError.offset;
        *error = invalidJsonSentence(parseError, offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QObject::tr("The file holds JSON but not a GemmScope object.");
        return std::nullopt;
    }
    return doc.object();
}

DecodedRuns decodeRunPieces(const QByteArray &bytes, const RunListSpans &runs, ReadProgress *progress)
{
    DecodedRuns out;
    const std::vector<RunListSpans::Entry> &entries = runs.entries;
    if (progress)
        progress->runsTotal = qint64(entries.size());
    std::vector<RunPiece> pieces;
    for (size_t first = 0; first < entries.size(); first += kRunsPerPiece)
        pieces.push_back({first, std::min(first + kRunsPerPiece, entries.size()), {}});
    // The separators no piece's parser sees: before the first entry, and between pieces.
    qsizetype previousEnd = runs.open + 1;
    for (const RunPiece &piece : pieces) {
        const qsizetype begin = entries[piece.first].begin;
        if (!isSeparator(bytes, previousEnd, begin, piece.first == 0 ? 0 : 1)) {
            out.jsonError =
                QObject::tr("The file is not valid JSON (a list's values are not separated by one "
                            "comma at byte %1); it may be truncated or corrupt.")
                    .arg(firstNonSpace(bytes, previousEnd, begin));
            return out;
        }
        previousEnd = entries[piece.last - 1].end;
    }
    makeRoom(out, entries.size());
    RunRecord *records = out.runs.data();
    const std::shared_ptr<EventSpool> spool = EventSpool::create();
    readPiecesOnPool(pieces,
                     [&](RunPiece &piece) { readPiece(bytes, runs, piece, out, records, spool, progress); });
    out.cancelled = isCancelled(progress);
    for (const RunPiece &piece : pieces)
        if (!piece.jsonError.isEmpty()) {
            out.jsonError = piece.jsonError; // the first in the file's order
            out.runs.clear();
            out.why.clear();
            break;
        }
    return out;
}

DecodedRuns decodeRunList(const QJsonArray &runs, ReadProgress *progress)
{
    DecodedRuns out;
    if (progress)
        progress->runsTotal = runs.size();
    const size_t count = size_t(runs.size());
    makeRoom(out, count);
    RunRecord *records = out.runs.data();
    const std::shared_ptr<EventSpool> spool = EventSpool::create();
    std::vector<RunPiece> pieces;
    for (size_t first = 0; first < count; first += kRunsPerPiece)
        pieces.push_back({first, std::min(first + kRunsPerPiece, count), {}});
    readPiecesOnPool(pieces, [&](RunPiece &piece) {
        if (isCancelled(progress))
            return;
        reportPieceStarts(progress, piece.first);
        for (size_t i = piece.first; i < piece.last; ++i)
            decodeRun(runs.at(qsizetype(i)).toObject(), out, records, i);
        spoolEvents(records, piece.first, piece.last, spool);
        reportRead(progress, piece.last - piece.first);
    });
    out.cancelled = isCancelled(progress);
    return out;
}

} // namespace gemmscope
