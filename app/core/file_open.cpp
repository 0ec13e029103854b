#include "file_open.h"

#include "file_read.h"
#include "json_text.h"
#include "profile_digest.h"
#include "profile_limits.h"
#include "sweep_file.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>

namespace gemmscope {

namespace {

// The runs of an exported results table (a JSON list of runs), or the sentence why not.
SessionParse parseResultsExport(const QByteArray &bytes, const QString &name)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {std::nullopt,
                QObject::tr("The file is not valid JSON (%1 at byte %2); it may be truncated or corrupt.")
                    .arg(parseError.errorString())
                    .arg(parseError.offset)};
    const QJsonArray list = doc.array();
    if (list.isEmpty())
        return {std::nullopt, QObject::tr("Its list of runs is empty.")};
    SessionData data;
    data.title = QObject::tr("Runs exported to %1").arg(name);
    data.runs.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i) {
        QString why;
        const std::optional<RunRecord> run = fromJson(list.at(i).toObject(), &why);
        if (!run)
            return {std::nullopt, QObject::tr("Run %1 cannot be read: %2.").arg(i + 1).arg(why)};
        data.runs.append(*run);
    }
    return {data, {}};
}

// A recorded profile (one runner `profile` event), bounded as a session's are, ready to add.
SessionParse parseProfileEvent(const QByteArray &bytes)
{
    QString why;
    const std::optional<QJsonObject> event = parseJsonObject(bytes, &why);
    if (!event)
        return {std::nullopt, why};
    if (const QString tooLarge = profileOverLimits(*event); !tooLarge.isEmpty())
        return {std::nullopt, QObject::tr("The profile was left out: %1.").arg(tooLarge)};
    StoredProfile profile;
    profile.origin = QStringLiteral("recorded");
    if (!protocol::fromJson(*event, profile.event, &why) || profile.event.stage.isEmpty() ||
        profile.event.size.m <= 0 || profile.event.size.n <= 0 || profile.event.size.k <= 0)
        return {std::nullopt, QObject::tr("It is not a runner profile event%1.")
                                  .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why)};
    SessionData data;
    data.profiles = {withJson(profile)};
    foldAhead(data.profiles); // the views' work on it, here in the worker
    return {data, {}};
}

// Why a file of `kind` is not opened, when it is one GemmScope cannot open at all.
QString unopenable(const FileSniff &sniff)
{
    switch (sniff.kind) {
    case FileKind::OtherGemmScope:
        return QObject::tr("It is a GemmScope file of format \"%1\", which this version does not read; a "
                           "newer GemmScope may.")
            .arg(sniff.format);
    case FileKind::Image:
        return QObject::tr("It is an image (a chart GemmScope exported, perhaps): GemmScope opens sessions, "
                           "bench and sweep files, journals and exported results (.json), not pictures.");
    case FileKind::NotGemmScope:
        return sniff.format.isEmpty()
                   ? QObject::tr("It is JSON, but no file GemmScope writes: it has no \"format\" field.")
                   : QObject::tr("It is JSON, but no file GemmScope writes (format \"%1\").")
                         .arg(sniff.format);
    case FileKind::NotJson:
        return QObject::tr("It is not a file GemmScope writes: not JSON, or cut short before its format.");
    default:
        return {};
    }
}

} // namespace

FileSniff sniffGemmScopeFile(const QString &path, QString *error)
{
    const FileBytes file = readRegularFile(path);
    if (!file.bytes) {
        if (error)
            *error = file.error;
        return {};
    }
    return sniffFileKind(*file.bytes);
}

OpenedFile readGemmScopeFile(const QString &path, ReadProgress *progress)
{
    OpenedFile opened;
    opened.path = path;
    const QString name = QFileInfo(path).fileName();
    const FileBytes file = readRegularFile(path);
    if (!file.bytes) {
        opened.error = file.error;
        return opened;
    }
    const FileSniff sniff = sniffFileKind(*file.bytes);
    opened.kind = sniff.kind;
    QString why = unopenable(sniff);
    SessionParse parsed;
    switch (sniff.kind) {
    case FileKind::Session:
        parsed = parseSessionJson(*file.bytes, progress);
        opened.cancelled = parsed.cancelled;
        if (parsed.data) {
            foldAhead(parsed.data->profiles); // the views' work on large profiles, here in the worker
            // The room Session::replace keeps for new runs, made here: there it moved every record.
            parsed.data->runs.reserve(parsed.data->runs.size() + parsed.data->runs.size() / 2 + 256);
        }
        break;
    case FileKind::Bench:
        parsed = importBenchJson(*file.bytes);
        break;
    case FileKind::ResultsExport:
        parsed = parseResultsExport(*file.bytes, name);
        break;
    case FileKind::Profile:
        parsed = parseProfileEvent(*file.bytes);
        break;
    case FileKind::SweepJournal: // read line by line, as the Sweep workspace reads journals
        opened.sweep = SweepJournal::read(path, &why, &opened.notices);
        break;
    case FileKind::BenchSweep:
    case FileKind::BenchSizeSweep:
    case FileKind::SweepCells:
    case FileKind::SizeSweepSummary:
        opened.sweep = sweepFromFileJson(sniff.kind, *file.bytes, &why, &opened.notices);
        break;
    default:
        break;
    }
    if (parsed.data) {
        opened.data = std::move(parsed.data);
        opened.notices += opened.data->notices;
    } else if (!parsed.error.isEmpty()) {
        why = parsed.error;
    }
    // The kind where it is one GemmScope opens (what was damaged); else `why` says what it is.
    if (!opened.ok() && !opened.cancelled)
        opened.error =
            unopenable(sniff).isEmpty()
                ? QObject::tr("%1 was not opened (%2). %3").arg(name, describeFileKind(sniff.kind), why)
                : QObject::tr("%1 was not opened. %2").arg(name, why);
    for (QString &notice : opened.notices)
        notice = QStringLiteral("%1: %2").arg(name, notice);
    if (opened.data)
        opened.data->notices = opened.notices;
    return opened;
}

} // namespace gemmscope
