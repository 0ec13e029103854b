#include "session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>

namespace gemmscope {

namespace {

const QLatin1String kSessionFormat("gemmscope-session");
const QLatin1String kBenchFormat("gemmscope-bench");

SessionParse refuse(const QString &why)
{
    return {std::nullopt, why};
}

std::optional<QJsonObject> parseObject(const QByteArray &bytes, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QObject::tr("The file is not valid JSON (%1 at byte %2); it may be truncated or corrupt.")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QObject::tr("The file holds JSON but not a GemmScope object.");
        return std::nullopt;
    }
    return doc.object();
}

SessionParse readFile(const QString &path, SessionParse (*parse)(const QByteArray &))
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QObject::tr("Could not open %1: %2.").arg(path, file.errorString()));
    SessionParse parsed = parse(file.readAll());
    if (!parsed.data)
        parsed.error = QObject::tr("%1 was not loaded. %2").arg(QFileInfo(path).fileName(), parsed.error);
    return parsed;
}

} // namespace

SessionParse parseSessionJson(const QByteArray &bytes)
{
    QString error;
    const auto root = parseObject(bytes, &error);
    if (!root)
        return refuse(error);
    if (root->value("format").toString() != kSessionFormat)
        return refuse(QObject::tr("It is not a GemmScope session (format \"%1\").")
                          .arg(root->value("format").toString()));
    const int version = root->value("version").toInt(-1);
    if (version != kSessionFormatVersion)
        return refuse(QObject::tr("It has session format version %1; this GemmScope reads version %2.")
                          .arg(version)
                          .arg(kSessionFormatVersion));
    if (!root->value("runs").isArray())
        return refuse(QObject::tr("It has no list of runs."));
    SessionData data;
    data.title = root->value("title").toString();
    data.description = root->value("description").toString();
    data.created = QDateTime::fromString(root->value("created").toString(), Qt::ISODate);
    data.ceilings = root->value("ceilings").toObject();
    QSet<QString> ids;
    for (const QJsonValue &value : root->value("runs").toArray()) {
        QString why;
        const auto record = fromJson(value.toObject(), &why);
        if (!record)
            return refuse(QObject::tr("Its run list is damaged: %1.").arg(why));
        if (ids.contains(record->runId))
            return refuse(
                QObject::tr("Its run list is damaged: run id %1 appears twice.").arg(record->runId));
        ids.insert(record->runId);
        data.runs.append(*record);
    }
    return {data, {}};
}

SessionParse readSessionFile(const QString &path)
{
    return readFile(path, &parseSessionJson);
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
        root["ceilings"] = data.ceilings;
    if (!savedFile.isEmpty())
        root["saved_file"] = savedFile; // the autosave remembers which file it shadows
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool writeSessionFile(const QString &path, const SessionData &data, QString *error, const QString &savedFile)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("Could not write %1: %2.").arg(path, file.errorString());
        return false;
    }
    file.write(serializeSession(data, savedFile));
    if (!file.commit()) {
        if (error)
            *error = QObject::tr("Could not write %1: %2.").arg(path, file.errorString());
        return false;
    }
    return true;
}

SessionParse importBenchJson(const QByteArray &bytes)
{
    QString error;
    const auto root = parseObject(bytes, &error);
    if (!root)
        return refuse(error);
    if (root->value("format").toString() != kBenchFormat)
        return refuse(QObject::tr("It is not a GemmScope bench file (format \"%1\").")
                          .arg(root->value("format").toString()));
    if (root->value("version").toInt(-1) != 1)
        return refuse(QObject::tr("It has bench format version %1; this GemmScope reads version 1.")
                          .arg(root->value("version").toInt(-1)));
    if (!root->value("rows").isArray())
        return refuse(QObject::tr("It has no rows."));
    SessionData data;
    // The bench writes the runner's `ready` GPU object; older files may carry just a name.
    const QJsonValue gpuValue = root->value("gpu");
    const QString gpu =
        gpuValue.isObject() ? gpuValue.toObject().value("name").toString() : gpuValue.toString();
    const QString date = root->value("date").toString();
    data.title = QObject::tr("Recorded bench run%1%2")
                     .arg(gpu.isEmpty() ? QString() : QStringLiteral(", ") + gpu,
                          date.isEmpty() ? QString() : QStringLiteral(", ") + date);
    data.description = QObject::tr("Recorded with gemmscope-bench%1 on %2.")
                           .arg(date.isEmpty() ? QString() : QObject::tr(" on %1").arg(date),
                                gpu.isEmpty() ? QObject::tr("an unnamed GPU") : gpu);
    data.created = QDateTime::fromString(date, Qt::ISODate);
    const QJsonObject benchCeilings = root->value("ceilings").toObject();
    if (!gpu.isEmpty() && benchCeilings.value("event").toString() == QLatin1String("ceilings"))
        data.ceilings.insert(gpu, ceilingsEntry(benchCeilings, QStringLiteral("recorded")));
    const QJsonObject benchSize = root->value("size").toObject();
    int row = 0;
    for (const QJsonValue &value : root->value("rows").toArray()) {
        ++row;
        const QJsonObject rowObject = value.toObject();
        const QJsonObject event = rowObject.value("event").toObject();
        const QString kind = event.value("event").toString();
        // What was asked for, in protocol request shape, for events that do not repeat it.
        QJsonObject request{{"id", event.value("id")},
                            {"stage", rowObject.value("stage")},
                            {"params", rowObject.value("params")},
                            {"size", event.contains("size") ? event.value("size") : QJsonValue(benchSize)}};
        RunRecord record;
        if (kind == QLatin1String("result"))
            record = fromResultEvent(event);
        else if (kind == QLatin1String("error"))
            record = fromErrorEvent(event, request);
        else
            return refuse(QObject::tr("Row %1 has no runner result or error event.").arg(row));
        if (record.stage.isEmpty())
            record.stage = rowObject.value("stage").toString();
        if (record.stage.isEmpty() || record.m <= 0 || record.n <= 0 || record.k <= 0)
            return refuse(QObject::tr("Row %1 names no stage or size.").arg(row));
        record.runId = QStringLiteral("bench-%1").arg(row);
        record.presetKey = rowObject.value("preset").toString();
        record.origin = QStringLiteral("recorded");
        if (record.gpuName.isEmpty())
            record.gpuName = gpu;
        if (date.size() && kind == QLatin1String("error"))
            record.timestamp = QDateTime::fromString(date, Qt::ISODate);
        data.runs.append(record);
    }
    return {data, {}};
}

SessionParse importBenchFile(const QString &path)
{
    return readFile(path, &importBenchJson);
}

Session::Session(QObject *parent) : QObject(parent), m_autosavePath(autosavePath()) {}

int Session::indexOf(const QString &runId) const
{
    for (int i = 0; i < m_data.runs.size(); ++i)
        if (m_data.runs[i].runId == runId)
            return i;
    return -1;
}

const RunRecord *Session::find(const QString &runId) const
{
    const int i = indexOf(runId);
    return i < 0 ? nullptr : &m_data.runs[i];
}

void Session::addOrUpdate(const RunRecord &record)
{
    const int existing = indexOf(record.runId);
    if (existing >= 0) {
        m_data.runs[existing] = record;
        emit runChanged(existing);
    } else {
        emit runAboutToBeAdded(int(m_data.runs.size()));
        m_data.runs.append(record);
        emit runAdded(int(m_data.runs.size() - 1));
    }
    setModified(true);
    if (record.status == RunStatus::Ok || record.status == RunStatus::Failed) {
        QString error;
        if (!autosave(&error))
            qWarning("GemmScope autosave failed: %s", qPrintable(error));
    }
}

void Session::removeRun(const QString &runId)
{
    const int i = indexOf(runId);
    if (i < 0)
        return;
    emit runAboutToBeRemoved(i);
    m_data.runs.removeAt(i);
    emit runRemoved(i);
    setModified(true);
}

void Session::replace(const SessionData &data, const QString &filePath)
{
    emit aboutToReset();
    m_data = data;
    m_filePath = filePath;
    emit reset();
    emit ceilingsChanged();
    emit filePathChanged(m_filePath);
    setModified(false);
}

void Session::clear()
{
    replace({}, {});
}

bool Session::open(const QString &path, QString *error)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    replace(*parsed.data, QFileInfo(path).absoluteFilePath());
    return true;
}

bool Session::save(QString *error)
{
    if (m_filePath.isEmpty() || m_filePath.startsWith(QLatin1Char(':'))) {
        if (error)
            *error = tr("The session has no file yet; use Save As.");
        return false;
    }
    return saveAs(m_filePath, error);
}

bool Session::saveAs(const QString &path, QString *error)
{
    if (!writeSessionFile(path, m_data, error))
        return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != m_filePath) {
        m_filePath = absolute;
        emit filePathChanged(m_filePath);
    }
    setModified(false);
    autosave(); // the autosave now shadows the saved file and holds nothing new
    return true;
}

bool Session::importBench(const QString &path, QString *error)
{
    SessionParse parsed = importBenchFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    const QString prefix = QFileInfo(path).completeBaseName();
    for (RunRecord record : parsed.data->runs) {
        // Keep ids unique when the same bench is imported twice or next to another one.
        QString id = QStringLiteral("%1-%2").arg(prefix, record.runId);
        for (int n = 2; indexOf(id) >= 0; ++n)
            id = QStringLiteral("%1-%2-%3").arg(prefix, record.runId).arg(n);
        record.runId = id;
        emit runAboutToBeAdded(int(m_data.runs.size()));
        m_data.runs.append(record);
        emit runAdded(int(m_data.runs.size() - 1));
    }
    for (auto it = parsed.data->ceilings.begin(); it != parsed.data->ceilings.end(); ++it)
        m_data.ceilings.insert(it.key(), it.value());
    if (!parsed.data->ceilings.isEmpty())
        emit ceilingsChanged();
    if (m_data.title.isEmpty())
        m_data.title = parsed.data->title;
    if (m_data.description.isEmpty())
        m_data.description = parsed.data->description;
    setModified(true);
    return true;
}

QJsonObject ceilingsEntry(const QJsonObject &event, const QString &origin)
{
    return QJsonObject{{"fma_tflops", event.value("fma_tflops")},
                       {"dram_gbs", event.value("dram_gbs")},
                       {"measured_at", event.value("measured_at")},
                       {"origin", origin}};
}

void Session::setCeilings(const QString &gpuName, const QJsonObject &entry)
{
    if (gpuName.isEmpty() || m_data.ceilings.value(gpuName).toObject() == entry)
        return;
    m_data.ceilings.insert(gpuName, entry);
    setModified(true);
    emit ceilingsChanged();
}

bool Session::loadDefault(QString *error, const QString &path)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    replace(*parsed.data, {});
    return true;
}

QString Session::autosavePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave.json");
}

bool Session::autosave(QString *error) const
{
    if (m_autosavePath.isEmpty())
        return true;
    return writeSessionFile(m_autosavePath, m_data, error, m_filePath);
}

std::optional<SessionData> Session::recoverableAutosave(const QString &autosaveFile)
{
    if (!QFileInfo::exists(autosaveFile))
        return std::nullopt;
    QFile file(autosaveFile);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    SessionParse parsed = parseSessionJson(bytes);
    if (!parsed.data)
        return std::nullopt;
    // Only runs this machine measured are worth recovering; embedded data comes back anyway.
    QSet<QString> saved;
    const QString savedFile = QJsonDocument::fromJson(bytes).object().value("saved_file").toString();
    if (!savedFile.isEmpty()) {
        const SessionParse savedParse = readSessionFile(savedFile);
        if (savedParse.data)
            for (const RunRecord &r : savedParse.data->runs)
                saved.insert(r.runId);
    }
    for (const RunRecord &r : parsed.data->runs)
        if (r.origin == QLatin1String("measured") && !saved.contains(r.runId))
            return parsed.data;
    return std::nullopt;
}

void Session::discardAutosave(const QString &autosaveFile)
{
    QFile::remove(autosaveFile);
}

void Session::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

} // namespace gemmscope
