#include "session_codec.h"

#include "event_spool.h"

#include "bench_file.h"
#include "file_read.h"
#include "json_text.h"
#include "profile_digest.h"
#include "profile_prescan.h"
#include "session_runs_read.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>
#include <QSet>
#include <algorithm>
#include <vector>

namespace gemmscope {

namespace {

const QLatin1String kSessionFormat("gemmscope-session");

SessionParse refuse(const QString &why)
{
    return {std::nullopt, why};
}

// The file's "ceilings": by GPU name, each entry the ceilings event's figures plus its origin.
// Read leniently, as before they were typed: a figure of another type reads as 0 (no roof), an
// entry that is no object is left out.
QMap<QString, StoredCeilings> ceilingsFromJson(const QJsonObject &json)
{
    QMap<QString, StoredCeilings> out;
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        if (o.isEmpty())
            continue;
        StoredCeilings c;
        c.fmaTflops = o.value("fma_tflops").toDouble();
        c.dramGbs = o.value("dram_gbs").toDouble();
        c.measuredAt = o.value("measured_at").toString();
        c.origin = o.value("origin").toString();
        if (o.value("tf32_tflops").isDouble())
            c.tf32Tflops = o.value("tf32_tflops").toDouble();
        c.tf32Kernel = o.value("tf32_kernel").toString();
        if (o.value("l2_gbs").isDouble() && o.value("shared_gbs").isDouble()) {
            c.l2Gbs = o.value("l2_gbs").toDouble();
            c.sharedGbs = o.value("shared_gbs").toDouble();
        }
        out.insert(it.key(), c);
    }
    return out;
}

QJsonObject ceilingsToJson(const QMap<QString, StoredCeilings> &ceilings)
{
    QJsonObject json;
    for (auto it = ceilings.begin(); it != ceilings.end(); ++it) {
        const StoredCeilings &c = it.value();
        QJsonObject o{{"fma_tflops", c.fmaTflops}, {"dram_gbs", c.dramGbs}, {"origin", c.origin}};
        if (!c.measuredAt.isEmpty())
            o.insert("measured_at", c.measuredAt);
        if (c.tf32Tflops)
            o.insert("tf32_tflops", *c.tf32Tflops);
        if (!c.tf32Kernel.isEmpty())
            o.insert("tf32_kernel", c.tf32Kernel);
        if (c.l2Gbs && c.sharedGbs) {
            o.insert("l2_gbs", *c.l2Gbs);
            o.insert("shared_gbs", *c.sharedGbs);
        }
        json.insert(it.key(), o);
    }
    return json;
}

// What every session file and autosave begins with: its title, description, date and ceilings.
void readHeader(const QJsonObject &root, SessionData &data)
{
    data.title = root.value("title").toString();
    data.description = root.value("description").toString();
    data.created = QDateTime::fromString(root.value("created").toString(), Qt::ISODate);
    data.ceilings = ceilingsFromJson(root.value("ceilings").toObject());
}

// The file's "profiles", leniently: a profile is an addition to the session, so a damaged entry
// (or a list that is none) is left out and named in `data.notices`, and the rest loads. `leftOut`:
// the entries found too large before the file was parsed (ProfilePrescan), null in `root`.
void readProfiles(const QJsonObject &root, const QString &where, SessionData &data,
                  const QHash<qsizetype, QString> &leftOut)
{
    const QJsonValue list = root.value("profiles");
    if (list.isUndefined() || list.isNull())
        return;
    if (!list.isArray()) {
        data.notices << QObject::tr("The profiles of %1 were left out: they are not a list.").arg(where);
        return;
    }
    int index = 0;
    for (const QJsonValue &value : list.toArray()) {
        ++index;
        QString why = leftOut.value(index - 1);
        std::optional<StoredProfile> profile;
        if (why.isEmpty())
            profile = storedProfileFromJson(value, &why);
        if (profile)
            data.profiles.append(*profile);
        else
            data.notices << QObject::tr("Profile %1 of %2 was left out: %3.").arg(index).arg(where, why);
    }
}

// Text a kernel's source may be: valid Unicode without NUL characters (which no compiler reads
// and which would cut the text short in C strings), within kMaxKernelSourceBytes.
QString sourceTextProblem(const QString &text)
{
    if (!QStringView(text).isValidUtf16() || text.contains(QChar(u'\0')))
        return QObject::tr("its source is not text");
    const qsizetype bytes = text.toUtf8().size();
    if (bytes > qsizetype(kMaxKernelSourceBytes))
        return QObject::tr("its source is %1 bytes, more than the %2 a kernel may have")
            .arg(bytes)
            .arg(qsizetype(kMaxKernelSourceBytes));
    return {};
}

std::optional<CustomKernelSource> customKernelFromJson(const QJsonValue &value, QString *why)
{
    if (!value.isObject()) {
        *why = QObject::tr("it is not an object");
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    const QJsonValue source = o.value("source"), fileName = o.value("file_name"),
                     derivedFrom = o.value("derived_from");
    if (!source.isString()) {
        *why = QObject::tr("its source is not text");
        return std::nullopt;
    }
    if (!(fileName.isUndefined() || fileName.isString()) ||
        !(derivedFrom.isUndefined() || derivedFrom.isString())) {
        *why = QObject::tr("its file name or the kernel it was derived from is not text");
        return std::nullopt;
    }
    *why = sourceTextProblem(source.toString());
    if (!why->isEmpty())
        return std::nullopt;
    return CustomKernelSource{source.toString().toStdString(), fileName.toString().toStdString(),
                              derivedFrom.toString().toStdString()};
}

// The file's "custom_kernels", leniently as profiles are: a kernel that cannot be kept is left
// out and named in `data.notices`, and the rest of the session loads.
void readCustomKernels(const QJsonObject &root, const QString &where, SessionData &data)
{
    const QJsonValue list = root.value("custom_kernels");
    if (list.isUndefined() || list.isNull())
        return;
    if (!list.isArray()) {
        data.notices
            << QObject::tr("The custom kernels of %1 were left out: they are not a list.").arg(where);
        return;
    }
    int index = 0;
    for (const QJsonValue &value : list.toArray()) {
        ++index;
        QString why;
        if (std::optional<CustomKernelSource> kernel = customKernelFromJson(value, &why))
            data.customKernels.push_back(std::move(*kernel));
        else
            data.notices
                << QObject::tr("Custom kernel %1 of %2 was left out: %3.").arg(index).arg(where, why);
    }
}

QJsonArray customKernelsToJson(const std::vector<CustomKernelSource> &kernels)
{
    QJsonArray list;
    for (const CustomKernelSource &kernel : kernels)
        list.append(QJsonObject{{"source", QString::fromStdString(kernel.text)},
                                {"file_name", QString::fromStdString(kernel.fileName)},
                                {"derived_from", QString::fromStdString(kernel.derivedFrom)}});
    return list;
}

SessionParse readFile(const QString &path, SessionParse (*parse)(const QByteArray &))
{
    // Only a regular file of bounded size: a pipe or a device named here never blocks or floods.
    const FileBytes file = readRegularFile(path);
    if (!file.bytes)
        return refuse(file.error);
    SessionParse parsed = parse(*file.bytes);
    if (!parsed.data)
        parsed.error = QObject::tr("%1 was not loaded. %2").arg(QFileInfo(path).fileName(), parsed.error);
    else
        for (QString &notice : parsed.data->notices)
            notice = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), notice);
    return parsed;
}

// The whole run list, or the sentence naming its first damaged run (in the file's order).
std::optional<QString> readRuns(DecodedRuns &decoded, SessionData &data)
{
    if (!decoded.jsonError.isEmpty())
        return decoded.jsonError;
    QSet<QString> ids;
    ids.reserve(decoded.runs.size());
    for (qsizetype i = 0; i < decoded.runs.size(); ++i) {
        if (!decoded.why[size_t(i)].isEmpty())
            return QObject::tr("Its run list is damaged: %1.").arg(decoded.why[size_t(i)]);
        const QString &id = decoded.runs.at(i).runId;
        if (ids.contains(id))
            return QObject::tr("Its run list is damaged: run id %1 appears twice.").arg(id);
        ids.insert(id);
    }
    // Decoded in place, with the room SessionStore::replace keeps: a list that grew as it filled
    // copied every record of a long session again at each doubling.
    data.runs = std::move(decoded.runs);
    return std::nullopt;
}

} // namespace

StoredCeilings ceilingsEntry(const protocol::CeilingsEvent &event, const QString &origin)
{
    StoredCeilings c;
    c.fmaTflops = event.fmaTflops;
    c.dramGbs = event.dramGbs;
    c.measuredAt = event.measuredAt;
    c.origin = origin;
    // The TF32 tensor roof, where the runner measured one (sm_80 on; absent from older events).
    c.tf32Tflops = event.tf32Tflops;
    c.tf32Kernel = event.tf32Kernel;
    c.l2Gbs = event.l2Gbs; // the memory levels' roofs (absent from older events)
    c.sharedGbs = event.sharedGbs;
    return c;
}

SessionParse parseSessionJson(const QByteArray &bytes)
{
    return parseSessionJson(bytes, nullptr);
}

SessionParse parseSessionJson(const QByteArray &bytes, ReadProgress *progress)
{
    QString error;
    const ProfilePrescan prescan = leaveOutOversizedProfiles(bytes); // before the parser sees them
    // The runs are nearly all of a large session: where the pass found their list, they are read
    // in pieces (session_runs_read.h) and the rest of the file without them.
    const auto root = prescan.runs ? parseRootWithoutRuns(prescan.bytes, *prescan.runs, &error)
                                   : parseJsonObject(prescan.bytes, &error);
    if (!root)
        return refuse(error);
    if (root->value("format").toString() != kSessionFormat)
        return refuse(QObject::tr("It is not a GemmScope session (format \"%1\").")
                          .arg(root->value("format").toString()));
    if (exactInt(root->value("version")) != kSessionFormatVersion)
        return refuse(QObject::tr("It has session format version %1; this GemmScope reads version %2.")
                          .arg(describeJsonValue(root->value("version")))
                          .arg(kSessionFormatVersion));
    if (!root->value("runs").isArray())
        return refuse(QObject::tr("It has no list of runs."));
    SessionData data;
    readHeader(*root, data);
    DecodedRuns decoded = prescan.runs ? decodeRunPieces(prescan.bytes, *prescan.runs, progress)
                                       : decodeRunList(root->value("runs").toArray(), progress);
    if (decoded.cancelled)
        return {std::nullopt, {}, true};
    if (const std::optional<QString> damaged = readRuns(decoded, data))
        return refuse(*damaged);
    if (root->contains("sweeps") && !root->value("sweeps").isArray())
        return refuse(QObject::tr("Its list of sweeps is damaged: it is not a list."));
    for (const QJsonValue &value : root->value("sweeps").toArray()) {
        QString why;
        const std::optional<SweepData> sweep = sweepFromJson(value.toObject(), &why);
        if (!sweep)
            return refuse(QObject::tr("Its list of sweeps is damaged: %1.").arg(why));
        data.sweeps.append(*sweep);
    }
    readProfiles(*root, QObject::tr("the file"), data, prescan.leftOut);
    readCustomKernels(*root, QObject::tr("the file"), data);
    return {data, {}};
}

SessionParse readSessionFile(const QString &path)
{
    return readFile(path, &parseSessionJson);
}

SessionParse readSessionFileForViews(const QString &path)
{
    SessionParse parsed = readSessionFile(path);
    if (parsed.data)
        foldAhead(parsed.data->profiles);
    return parsed;
}

QByteArray serializeSession(const SessionData &data, const QString &savedFile)
{
    QJsonArray runs;
    for (const RunRecord &r : data.runs)
        runs.append(toJson(r));
    QJsonObject root{{"format", kSessionFormat},
                     {"version", kSessionFormatVersion},
                     {"title", data.title},
                     {"description", data.description},
                     {"created", (data.created.isValid() ? data.created : QDateTime::currentDateTimeUtc())
                                     .toUTC()
                                     .toString(Qt::ISODate)},
                     {"runs", runs}};
    if (!data.ceilings.isEmpty())
        root["ceilings"] = ceilingsToJson(data.ceilings);
    if (!data.sweeps.isEmpty()) {
        QJsonArray sweeps;
        for (const SweepData &sweep : data.sweeps)
            sweeps.append(toJson(sweep));
        root["sweeps"] = sweeps;
    }
    if (!data.customKernels.empty())
        root["custom_kernels"] = customKernelsToJson(data.customKernels);
    if (!savedFile.isEmpty())
        root["saved_file"] = savedFile; // the autosave remembers which file it shadows
    QByteArray text = QJsonDocument(root).toJson(QJsonDocument::Indented);
    if (data.profiles.isEmpty())
        return text;
    // "profiles" last, one compact line each, from the JSON each profile keeps (StoredProfile::json):
    // indenting and re-encoding thousands of instructions at every autosave cost the UI ~150 ms.
    // `text` ends with the last member's line and "}\n".
    Q_ASSERT(text.endsWith("\n}\n"));
    text.chop(3);
    text += ",\n    \"profiles\": [\n";
    for (qsizetype i = 0; i < data.profiles.size(); ++i) {
        text += "        " + compactJson(data.profiles[i]);
        text += i + 1 < data.profiles.size() ? ",\n" : "\n";
    }
    text += "    ]\n}\n";
    return text;
}

bool writeSessionFile(const QString &path, const SessionData &data, QString *error, const QString &savedFile,
                      const WriteOptions &options)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    const quint64 failedBefore = EventSpool::failedReads();
    const QByteArray text = serializeSession(data, savedFile);
    if (EventSpool::failedReads() != failedBefore) {
        // A run's event could not be read back from the spool: writing the run without it would
        // lose what the runner said, so nothing is written and the file on disk stays as it was.
        if (error)
            *error = QObject::tr("The runner's records of some runs could not be read back from "
                                 "GemmScope's temporary event file (a disk error); nothing was "
                                 "written, so that nothing is lost.");
        return false;
    }
    const FileWrite written = writeFileAtomically(path, text, options);
    if (!written && error)
        *error = written.error;
    return written.ok;
}

SessionParse importBenchJson(const QByteArray &bytes)
{
    const BenchParse parsed = parseBench(bytes);
    if (!parsed.file)
        return refuse(parsed.error);
    const BenchFile &bench = *parsed.file;
    SessionData data;
    const QString &gpu = bench.gpuName;
    const QString &date = bench.date;
    data.title = QObject::tr("Recorded bench run%1%2")
                     .arg(gpu.isEmpty() ? QString() : QStringLiteral(", ") + gpu,
                          date.isEmpty() ? QString() : QStringLiteral(", ") + date);
    data.description = QObject::tr("Recorded with gemmscope-bench%1 on %2.")
                           .arg(date.isEmpty() ? QString() : QObject::tr(" on %1").arg(date),
                                gpu.isEmpty() ? QObject::tr("an unnamed GPU") : gpu);
    data.created = QDateTime::fromString(date, Qt::ISODate);
    if (!gpu.isEmpty() && bench.ceilings)
        data.ceilings.insert(gpu, ceilingsEntry(*bench.ceilings, QStringLiteral("recorded")));
    int row = 0;
    for (const BenchFileRow &benchRow : bench.rows) {
        ++row;
        RunRecord record = benchRow.result
                               ? fromResultEvent(*benchRow.result, benchRow.event)
                               : fromErrorEvent(*benchRow.error, benchRow.request, benchRow.event);
        if (record.stage.key().empty())
            record.stage = stageIdOf(benchRow.stage);
        if (record.stage.key().empty() || record.m <= 0 || record.n <= 0 || record.k <= 0)
            return refuse(QObject::tr("Row %1 names no stage or size.").arg(row));
        record.runId = QStringLiteral("bench-%1").arg(row);
        record.presetKey = benchRow.preset;
        record.origin = QStringLiteral("recorded");
        if (record.gpuName.isEmpty())
            record.gpuName = gpu;
        if (date.size() && benchRow.error)
            record.timestamp = QDateTime::fromString(date, Qt::ISODate);
        // Whatever import accepts, a session load must accept: the record must survive its own
        // round trip, or the first save and every autosave after it would be refused.
        QString why;
        if (!fromJson(toJson(record), &why))
            return refuse(QObject::tr("Row %1 cannot be kept in a session: %2.").arg(row).arg(why));
        data.runs.append(record);
    }
    for (protocol::ProfileEvent profile : bench.profiles) {
        if (profile.gpu.name.isEmpty())
            profile.gpu.name = gpu;
        data.profiles.append(withJson({profile, QStringLiteral("recorded"), {}, {}}));
    }
    data.notices = bench.notices;
    return {data, {}};
}

SessionParse importBenchFile(const QString &path)
{
    return readFile(path, &importBenchJson);
}

SessionSalvage salvageSessionJson(const QByteArray &bytes, const QString &name)
{
    SessionSalvage out;
    QString error;
    const ProfilePrescan prescan = leaveOutOversizedProfiles(bytes);
    const auto root = parseJsonObject(prescan.bytes, &error);
    if (!root) {
        out.problems << QObject::tr("The autosave %1 could not be recovered: %2").arg(name, error);
        out.damaged = true;
        return out;
    }
    if (root->value("format").toString() != kSessionFormat ||
        exactInt(root->value("version")) != kSessionFormatVersion || !root->value("runs").isArray()) {
        out.problems << QObject::tr(
                            "The autosave %1 could not be recovered: it is not a version %2 GemmScope "
                            "session (format %3, version %4).")
                            .arg(name)
                            .arg(kSessionFormatVersion)
                            .arg(describeJsonValue(root->value("format")),
                                 describeJsonValue(root->value("version")));
        out.damaged = true;
        return out;
    }
    // Leniently, run by run: a damaged run is named and left out, the others are kept.
    SessionData data;
    readHeader(*root, data);
    QSet<QString> ids;
    int index = 0;
    for (const QJsonValue &value : root->value("runs").toArray()) {
        ++index;
        QString why;
        std::optional<RunRecord> record = fromJson(value.toObject(), &why);
        if (record && ids.contains(record->runId)) {
            why = QObject::tr("its id %1 appears twice").arg(record->runId);
            record.reset();
        }
        if (!record) {
            out.problems << QObject::tr("Run %1 of the autosave %2 could not be recovered: %3.")
                                .arg(index)
                                .arg(name, why);
            out.damaged = true;
            continue;
        }
        ids.insert(record->runId);
        data.runs.append(std::move(*record));
    }
    const QString where = QObject::tr("the autosave %1").arg(name);
    readProfiles(*root, where, data, prescan.leftOut);
    readCustomKernels(*root, where, data);
    out.problems += std::exchange(data.notices, {});
    out.savedFile = root->value("saved_file").toString();
    out.data = std::move(data);
    return out;
}

} // namespace gemmscope
