#include "file_kind.h"

#include <QObject>
#include <QRegularExpression>

namespace gemmscope {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The index just past the JSON string that opens at `i` (bytes[i] == '"'), or -1 if it never ends.
qsizetype skipString(const QByteArray &bytes, qsizetype i)
{
    for (++i; i < bytes.size(); ++i) {
        if (bytes[i] == '\\')
            ++i;
        else if (bytes[i] == '"')
            return i + 1;
    }
    return -1;
}

// The top-level "format" and "event" strings of the JSON object that opens at `i`, scanning nested
// values by their brackets only. Empty when the object has none (or ends before one is found).
struct TopLevel {
    QString format, event;
    bool closed = false; // the object ended: a format missing from it is missing from the file
};
TopLevel topLevelStrings(const QByteArray &bytes, qsizetype i)
{
    TopLevel found;
    int depth = 0;
    bool expectKey = false;
    QByteArray lastKey;
    while (i < bytes.size()) {
        const char c = bytes[i];
        if (c == '"') {
            const qsizetype end = skipString(bytes, i);
            if (end < 0)
                return found;
            const QByteArray text = bytes.mid(i + 1, end - i - 2);
            if (depth == 1 && expectKey) {
                lastKey = text;
                expectKey = false;
            } else if (depth == 1 && lastKey == "format") {
                found.format = QString::fromUtf8(text);
            } else if (depth == 1 && lastKey == "event") {
                found.event = QString::fromUtf8(text);
            }
            // A format decides the kind whatever the event: found, the rest is not scanned (a long
            // session's runs follow its format, tens of megabytes of strings).
            if (!found.format.isEmpty())
                return found;
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
            if (depth == 1)
                expectKey = true;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) {
                found.closed = true;
                return found;
            }
        } else if (c == ',' && depth == 1) {
            expectKey = true;
            lastKey.clear();
        }
        ++i;
    }
    return found;
}

} // namespace

FileSniff sniffFileKind(const QByteArray &bytes)
{
    if (bytes.startsWith("\x89PNG") || bytes.startsWith("%PDF"))
        return {FileKind::Image, {}};
    qsizetype i = 0;
    if (bytes.startsWith("\xEF\xBB\xBF")) // a byte-order mark an editor may have added
        i = 3;
    while (i < bytes.size() && isSpace(bytes[i]))
        ++i;
    if (i >= bytes.size())
        return {FileKind::NotJson, {}};
    if (bytes[i] == '<')
        return {bytes.indexOf("<svg", i) >= 0 ? FileKind::Image : FileKind::NotJson, {}};
    if (bytes[i] == '[')
        return {FileKind::ResultsExport, {}};
    if (bytes[i] != '{')
        return {FileKind::NotJson, {}};
    TopLevel top = topLevelStrings(bytes, i);
    if (top.format.isEmpty() && top.event == QLatin1String("profile"))
        return {FileKind::Profile, {}};
    if (top.format.isEmpty() && !top.closed) {
        // Cut short before its format (Qt writes it after the cells of a sweep): named by the
        // first format field anywhere, so that the refusal says what the file was.
        static const QRegularExpression anyFormat(
            QStringLiteral("\"format\"\\s*:\\s*\"(gemmscope-[a-z-]+)\""));
        const QRegularExpressionMatch m = anyFormat.match(QString::fromUtf8(bytes.left(64 << 20)));
        if (!m.hasMatch())
            return {FileKind::NotJson, {}};
        top.format = m.captured(1);
    }
    const QString &format = top.format;
    static const struct {
        const char *format;
        FileKind kind;
    } kFormats[] = {
        {"gemmscope-session", FileKind::Session},
        {"gemmscope-bench", FileKind::Bench},
        {"gemmscope-bench-sweep", FileKind::BenchSweep},
        {"gemmscope-bench-size-sweep", FileKind::BenchSizeSweep},
        {"gemmscope-sweep-cells", FileKind::SweepCells},
        {"gemmscope-size-sweep", FileKind::SizeSweepSummary},
        {"gemmscope-sweep", FileKind::SweepJournal},
    };
    for (const auto &known : kFormats)
        if (format == QLatin1String(known.format))
            return {known.kind, format};
    if (format.startsWith(QLatin1String("gemmscope")))
        return {FileKind::OtherGemmScope, format};
    return {FileKind::NotGemmScope, format};
}

QString describeFileKind(FileKind kind)
{
    switch (kind) {
    case FileKind::Session:
        return QObject::tr("a GemmScope session");
    case FileKind::Bench:
        return QObject::tr("a gemmscope-bench file");
    case FileKind::BenchSweep:
        return QObject::tr("a gemmscope-bench sweep file");
    case FileKind::BenchSizeSweep:
        return QObject::tr("a gemmscope-bench size-sweep file");
    case FileKind::SweepCells:
        return QObject::tr("a sweep exported from GemmScope");
    case FileKind::SizeSweepSummary:
        return QObject::tr("a size sweep exported from GemmScope");
    case FileKind::SweepJournal:
        return QObject::tr("a sweep journal");
    case FileKind::ResultsExport:
        return QObject::tr("a results table exported from GemmScope");
    case FileKind::Profile:
        return QObject::tr("a recorded profile");
    case FileKind::OtherGemmScope:
        return QObject::tr("a GemmScope file of a format this version does not know");
    case FileKind::Image:
        return QObject::tr("an image (PNG, SVG or PDF)");
    case FileKind::NotGemmScope:
        return QObject::tr("a JSON file GemmScope did not write");
    case FileKind::NotJson:
        break;
    }
    return QObject::tr("not a file GemmScope writes");
}

bool isSweepKind(FileKind kind)
{
    return kind == FileKind::BenchSweep || kind == FileKind::BenchSizeSweep || kind == FileKind::SweepCells ||
           kind == FileKind::SizeSweepSummary || kind == FileKind::SweepJournal;
}

} // namespace gemmscope
