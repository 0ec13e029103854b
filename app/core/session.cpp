#include "session.h"

#include <QTimer>

#include "bench_file.h"
#include "file_read.h"
#include "file_write.h"
#include "json_text.h"
#include "profile_digest.h"
#include "profile_prescan.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QRandomGenerator>
#include <QSet>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>
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

struct DecodedRun {
    std::optional<RunRecord> record;
    QString why; // what is wrong with it, where it could not be read
};

// Every run's record, decoded in chunks on the thread pool: with 10,000 runs the records are a
// quarter of the parse, and the other core is otherwise idle while a file opens.
std::vector<DecodedRun> decodeRuns(const QJsonArray &runs)
{
    constexpr qsizetype kChunk = 512;
    std::vector<DecodedRun> decoded(size_t(runs.size()));
    std::vector<qsizetype> chunkStarts;
    for (qsizetype start = 0; start < runs.size(); start += kChunk)
        chunkStarts.push_back(start);
    QtConcurrent::blockingMap(chunkStarts, [&runs, &decoded](const qsizetype &start) {
        const qsizetype end = std::min(start + kChunk, runs.size());
        for (qsizetype i = start; i < end; ++i) {
            DecodedRun &run = decoded[size_t(i)];
            run.record = fromJson(runs.at(i).toObject(), &run.why);
        }
    });
    return decoded;
}

} // namespace

SessionParse parseSessionJson(const QByteArray &bytes)
{
    QString error;
    const ProfilePrescan prescan = leaveOutOversizedProfiles(bytes); // before the parser sees them
    const auto root = parseJsonObject(prescan.bytes, &error);
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
    data.title = root->value("title").toString();
    data.description = root->value("description").toString();
    data.created = QDateTime::fromString(root->value("created").toString(), Qt::ISODate);
    data.ceilings = ceilingsFromJson(root->value("ceilings").toObject());
    const QJsonArray runs = root->value("runs").toArray();
    std::vector<DecodedRun> decoded = decodeRuns(runs);
    // Sized once and each record moved in: a list that grew as it filled copied every record of a
    // long session again at each doubling.
    QSet<QString> ids;
    ids.reserve(runs.size());
    data.runs.reserve(runs.size() + runs.size() / 2 + 256); // and the room Session::replace keeps
    for (const DecodedRun &run : decoded) { // in the file's order: the first damaged run is named
        if (!run.record)
            return refuse(QObject::tr("Its run list is damaged: %1.").arg(run.why));
        if (ids.contains(run.record->runId))
            return refuse(
                QObject::tr("Its run list is damaged: run id %1 appears twice.").arg(run.record->runId));
        ids.insert(run.record->runId);
    }
    for (DecodedRun &run : decoded)
        data.runs.append(std::move(*run.record));
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
    const FileWrite written = writeFileAtomically(path, serializeSession(data, savedFile), options);
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

Session::Session(QObject *parent)
    : QObject(parent), m_sweepAutosave(new QTimer(this)), m_autosaveRetry(new QTimer(this))
{
    m_sweepAutosave->setSingleShot(true);
    m_sweepAutosave->setInterval(1000);
    connect(m_sweepAutosave, &QTimer::timeout, this, &Session::autosaveInBackground);
    // A full disk may be freed while nothing changes: try again now and then, not only at changes.
    m_autosaveRetry->setSingleShot(true);
    m_autosaveRetry->setInterval(30000);
    connect(m_autosaveRetry, &QTimer::timeout, this, &Session::autosaveReported);
}

Session::~Session()
{
    m_backgroundAutosave.waitForFinished(); // its file whole before the application may end
}

std::optional<ProblemSize> Session::commonMeasuredSize() const
{
    std::optional<ProblemSize> common;
    for (const RunRecord &run : m_data.runs) {
        if (!run.isOk() || run.origin == QLatin1String("worklog"))
            continue;
        if (common && (common->m != run.m || common->n != run.n || common->k != run.k))
            return std::nullopt;
        common = ProblemSize{run.m, run.n, run.k};
    }
    return common;
}

int Session::indexOf(const QString &runId) const
{
    return m_runIndex.value(runId, -1);
}

void Session::appendRun(const RunRecord &record)
{
    emit runAboutToBeAdded(int(m_data.runs.size()));
    m_data.runs.append(record);
    m_runIndex.insert(record.runId, int(m_data.runs.size() - 1)); // ids are unique (import renames)
    emit runAdded(int(m_data.runs.size() - 1));
}

void Session::reindexRuns()
{
    m_runIndex.clear();
    m_runIndex.reserve(m_data.runs.size());
    for (int i = 0; i < m_data.runs.size(); ++i)
        if (!m_runIndex.contains(m_data.runs[i].runId))
            m_runIndex.insert(m_data.runs[i].runId, i);
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
        appendRun(record);
    }
    setModified(true);
    if (record.status == RunStatus::Ok || record.status == RunStatus::Failed)
        autosaveReported();
    else
        changed();
}

void Session::removeRun(const QString &runId)
{
    const int i = indexOf(runId);
    if (i < 0)
        return;
    emit runAboutToBeRemoved(i);
    m_data.runs.removeAt(i);
    reindexRuns();
    emit runRemoved(i);
    setModified(true);
    changed();
}

void Session::replace(SessionData data, const QString &filePath)
{
    emit aboutToReset();
    SessionData old = std::exchange(m_data, std::move(data));
    if (old.runs.size() > 1000) // freed off the UI thread; its strings' counts are atomic
        (void)QtConcurrent::run([old = std::move(old)] {});
    reindexProfiles();
    ++m_revision;
    // Room to grow, taken now: the first run added to a list at its capacity (or still shared with
    // the file just read) copied all 10,000 records of a sweep-sized session, ~10 ms of a click.
    m_data.runs.reserve(m_data.runs.size() + m_data.runs.size() / 2 + 256);
    reindexRuns();
    m_filePath = filePath;
    m_importedFiles.clear();
    emit reset();
    emit ceilingsChanged();
    emit sweepsChanged();
    emit profilesChanged();
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

bool Session::save(QString *error, bool replaceReadOnly)
{
    if (m_filePath.isEmpty() || m_filePath.startsWith(QLatin1Char(':'))) {
        if (error)
            *error = tr("The session has no file yet; use Save As.");
        return false;
    }
    return saveAs(m_filePath, error, replaceReadOnly);
}

bool Session::saveAs(const QString &path, QString *error, bool replaceReadOnly)
{
    // A bench file this session imported is never saved over (`--import-bench X --save X`).
    if (!writeSessionFile(
            path, m_data, error, {},
            {.followSymlinks = true, .inputs = m_importedFiles, .replaceReadOnly = replaceReadOnly}))
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

bool Session::importBench(const QString &path, QString *error, QStringList *notices)
{
    SessionParse parsed = importBenchFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    addImported(*parsed.data, path);
    if (notices)
        *notices = parsed.data->notices;
    return true;
}

void Session::addImported(const SessionData &bench, const QString &path)
{
    const QString prefix = QFileInfo(path).completeBaseName();
    for (RunRecord record : bench.runs) {
        // Keep ids unique when the same bench is imported twice or next to another one.
        QString id = QStringLiteral("%1-%2").arg(prefix, record.runId);
        for (int n = 2; indexOf(id) >= 0; ++n)
            id = QStringLiteral("%1-%2-%3").arg(prefix, record.runId).arg(n);
        record.runId = id;
        appendRun(record);
    }
    for (auto it = bench.ceilings.begin(); it != bench.ceilings.end(); ++it)
        m_data.ceilings.insert(it.key(), it.value());
    if (!bench.ceilings.isEmpty())
        emit ceilingsChanged();
    for (const StoredProfile &profile : bench.profiles)
        storeProfile(profile, false);
    if (!bench.profiles.isEmpty())
        emit profilesChanged();
    if (m_data.title.isEmpty())
        m_data.title = bench.title;
    if (m_data.description.isEmpty())
        m_data.description = bench.description;
    m_importedFiles << QFileInfo(path).absoluteFilePath();
    setModified(true);
    changed();
}

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

void Session::setSweep(const SweepData &sweep, bool autosaveNow)
{
    auto it = std::find_if(m_data.sweeps.begin(), m_data.sweeps.end(),
                           [&](const SweepData &s) { return s.id == sweep.id; });
    if (it != m_data.sweeps.end())
        *it = sweep;
    else
        m_data.sweeps.append(sweep);
    setModified(true);
    emit sweepsChanged();
    autosaveSweeps(autosaveNow);
}

bool Session::addSweepRun(const QString &sweepId, const RunRecord &run)
{
    const auto it = std::find_if(m_data.sweeps.begin(), m_data.sweeps.end(),
                                 [&](const SweepData &s) { return s.id == sweepId; });
    if (it == m_data.sweeps.end())
        return false;
    it->runs.append(run);
    setModified(true);
    autosaveSweeps(false);
    return true;
}

void Session::autosaveSweeps(bool now)
{
    if (m_autosavePath.isEmpty())
        return;
    if (now) {
        m_sweepAutosave->stop();
        autosaveReported();
    } else if (!m_sweepAutosave->isActive()) {
        m_sweepAutosave->start();
    }
}

int Session::storeProfile(const StoredProfile &profile, bool announce)
{
    const ProfileKey key = profileKeyOf(profile.event);
    int at = m_profileIndex.value(key, -1);
    if (at >= 0) {
        m_data.profiles[at] = profile;
    } else {
        at = int(m_data.profiles.size());
        m_data.profiles.append(profile);
        m_profileIndex.insert(key, at);
    }
    ++m_revision;
    if (announce)
        emit profileAdded(at);
    return at;
}

void Session::reindexProfiles()
{
    m_profileIndex.clear();
    m_profileIndex.reserve(m_data.profiles.size());
    for (int i = 0; i < m_data.profiles.size(); ++i) {
        const ProfileKey key = profileKeyOf(m_data.profiles[i].event);
        if (!m_profileIndex.contains(key))
            m_profileIndex.insert(key, i);
    }
}

void Session::addProfile(const protocol::ProfileEvent &profile, const QString &origin)
{
    storeProfile(withJson({profile, origin, {}, {}}));
    setModified(true);
    autosaveReported(); // a finished measurement: never lost
}

const StoredProfile *Session::findProfile(const ProfileKey &key) const
{
    return gemmscope::findProfile(m_data.profiles, key);
}

const StoredProfile *Session::profileForRun(const RunRecord &run) const
{
    return findProfile(profileKeyOf(run));
}

const StoredProfile *Session::profileForConfig(const RunConfig &config, const QString &gpuName) const
{
    return findProfile(profileKeyOf(config, gpuName));
}

const StoredProfile *Session::baselineProfileFor(const protocol::ProfileEvent &profile) const
{
    ProfileKey key = baselineKeyOf(profileKeyOf(profile));
    if (key.gpuName.isEmpty())
        return nullptr; // "the same GPU" needs one
    return findProfile(key);
}

Session::ShownProfiles Session::shownProfiles(const RunRecord *selectedRun, const RunConfig &config,
                                              const QString &gpuName) const
{
    ShownProfiles shown;
    if (selectedRun && (shown.profile = profileForRun(*selectedRun)))
        shown.ofSelectedRun = true;
    else if (!gpuName.isEmpty() && (shown.profile = profileForConfig(config, gpuName)))
        ;
    else
        shown.profile = profileForConfig(config);
    if (shown.profile)
        shown.baseline = baselineProfileFor(shown.profile->event);
    return shown;
}

void Session::setCeilings(const QString &gpuName, const StoredCeilings &entry)
{
    if (gpuName.isEmpty() || (m_data.ceilings.contains(gpuName) && m_data.ceilings.value(gpuName) == entry))
        return;
    m_data.ceilings.insert(gpuName, entry);
    setModified(true);
    emit ceilingsChanged();
    changed();
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

std::optional<QStringList> Session::addRecordedSweeps(QString *error, const QString &path)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return std::nullopt;
    }
    QStringList added;
    for (const SweepData &sweep : std::as_const(parsed.data->sweeps)) {
        const bool held = std::any_of(m_data.sweeps.cbegin(), m_data.sweeps.cend(),
                                      [&](const SweepData &s) { return s.id == sweep.id; });
        if (held)
            continue; // added before: never twice, never over one that ran on
        setSweep(sweep, true);
        added << sweep.title();
    }
    return added;
}

QString Session::autosavePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave.json");
}

bool Session::autosave(QString *error)
{
    if (m_autosavePath.isEmpty())
        return true;
    m_backgroundAutosave.waitForFinished(); // its older copy must not replace this one
    const quint64 write = ++m_autosaveWrites;
    // The autosave lives in GemmScope's own data folder: a link planted at its name is replaced,
    // never written through.
    QString why;
    if (!writeSessionFile(m_autosavePath, m_data, &why, m_filePath,
                          {.followSymlinks = false, .inputs = {}}) &&
        why.isEmpty())
        why = tr("The autosave could not be written.");
    return noteAutosave(write, why, error);
}

void Session::autosaveInBackground()
{
    if (m_autosavePath.isEmpty())
        return;
    if (m_backgroundAutosave.isRunning()) { // one at a time: the progress since, once it is written
        m_sweepAutosave->start();
        return;
    }
    const quint64 write = ++m_autosaveWrites;
    // A copy is a few reference counts (the runs are shared until this session changes them): the
    // worker turns it into JSON and writes it while this thread goes on.
    const SessionData copy = m_data;
    const QString path = m_autosavePath, savedFile = m_filePath;
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, write] {
        watcher->deleteLater();
        noteAutosave(write, watcher->result(), nullptr); // says a failure, once
    });
    m_backgroundAutosave = QtConcurrent::run([copy, path, savedFile] {
        QString why;
        if (!writeSessionFile(path, copy, &why, savedFile, {.followSymlinks = false, .inputs = {}}) &&
            why.isEmpty())
            why = QObject::tr("The autosave could not be written.");
        return why;
    });
    watcher->setFuture(m_backgroundAutosave);
}

bool Session::noteAutosave(quint64 write, const QString &failure, QString *error)
{
    if (write < m_autosaveNoted)
        return true; // a newer autosave was noted already: this one says nothing about now
    m_autosaveNoted = write;
    if (failure.isEmpty()) {
        m_autosaveRetry->stop();
        if (!m_autosaveError.isEmpty()) {
            m_autosaveError.clear();
            emit autosaveRestored();
        }
        return true;
    }
    const QString message = tr("The autosave failed, so the runs measured since the session was last saved "
                               "are kept only in this window. %1 GemmScope tries again at every change; "
                               "save the session to another disk to keep them.")
                                .arg(failure);
    if (message != m_autosaveError) {
        // Said once per failure, as the window's notice is: the retries at every change and every
        // 30 s would otherwise print the same line a few times a second while runs arrive.
        qWarning("GemmScope autosave failed: %s", qPrintable(failure));
        m_autosaveError = message;
        emit autosaveFailed(message);
    }
    m_autosaveRetry->start();
    if (error)
        *error = failure;
    return false;
}

void Session::autosaveReported()
{
    autosave(); // a failure is said by autosave() itself, once
}

void Session::changed()
{
    if (!m_autosaveError.isEmpty() && !m_autosavePath.isEmpty())
        autosaveReported();
}

void Session::setAutosaveUnavailable(const QString &reason)
{
    m_autosavePath.clear();
    const QString message = tr("There is no autosave (%1), so runs are kept only in this window until the "
                               "session is saved.")
                                .arg(reason);
    if (message != m_autosaveError) {
        m_autosaveError = message;
        emit autosaveFailed(message);
    }
}

bool Session::runsSavedNowhere() const
{
    if (!m_modified || (!m_autosavePath.isEmpty() && m_autosaveError.isEmpty()))
        return false;
    const auto measured = [](const RunRecord &r) {
        return r.origin == QLatin1String("measured") &&
               (r.status == RunStatus::Ok || r.status == RunStatus::Failed);
    };
    if (std::any_of(m_data.runs.begin(), m_data.runs.end(), measured))
        return true;
    if (std::any_of(m_data.profiles.begin(), m_data.profiles.end(),
                    [](const StoredProfile &p) { return !p.isRecorded(); }))
        return true;
    return std::any_of(m_data.sweeps.begin(), m_data.sweeps.end(), [&](const SweepData &s) {
        return std::any_of(s.runs.begin(), s.runs.end(), measured);
    });
}

namespace {

// A profile as the autosave and its saved file are compared: its configuration and when it ran.
QString profileIdentity(const StoredProfile &profile)
{
    return QString::fromUtf8(QJsonDocument(toJson(profile)).toJson(QJsonDocument::Compact));
}

// The saved file's run ids, or why they could not be read (then every measured run is unsaved);
// its profiles' identities in `profiles`.
QSet<QString> savedRunIds(const QString &savedFile, QStringList *problems, QSet<QString> *profiles)
{
    QSet<QString> ids;
    if (savedFile.isEmpty())
        return ids;
    const SessionParse saved = readSessionFile(savedFile);
    if (!saved.data) {
        if (QFileInfo::exists(savedFile))
            problems->append(QObject::tr("Its saved file could not be compared (%1), so all of its measured "
                                         "runs are offered.")
                                 .arg(saved.error));
        return ids;
    }
    for (const RunRecord &r : saved.data->runs)
        ids.insert(r.runId);
    for (const StoredProfile &p : saved.data->profiles)
        profiles->insert(profileIdentity(p));
    return ids;
}

} // namespace

AutosaveRecovery Session::recoverableAutosave(const QString &autosaveFile)
{
    AutosaveRecovery out;
    out.path = autosaveFile;
    if (!QFileInfo::exists(autosaveFile) && !QFileInfo(autosaveFile).isSymLink())
        return out;
    const QString name = QFileInfo(autosaveFile).fileName();
    const FileBytes file = readRegularFile(autosaveFile);
    if (!file.bytes) {
        out.problems << QObject::tr("The autosave %1 could not be recovered: %2").arg(name, file.error);
        out.damaged = true;
        return out;
    }
    QString error;
    const ProfilePrescan prescan = leaveOutOversizedProfiles(*file.bytes);
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
    data.title = root->value("title").toString();
    data.description = root->value("description").toString();
    data.created = QDateTime::fromString(root->value("created").toString(), Qt::ISODate);
    data.ceilings = ceilingsFromJson(root->value("ceilings").toObject());
    QSet<QString> ids;
    int index = 0;
    for (const QJsonValue &value : root->value("runs").toArray()) {
        ++index;
        QString why;
        const auto record = fromJson(value.toObject(), &why);
        if (!record) {
            out.problems << QObject::tr("Run %1 of the autosave %2 could not be recovered: %3.")
                                .arg(index)
                                .arg(name, why);
            out.damaged = true;
            continue;
        }
        if (ids.contains(record->runId)) {
            out.problems << QObject::tr("Run %1 of the autosave %2 could not be recovered: its id %3 appears "
                                        "twice.")
                                .arg(index)
                                .arg(name, record->runId);
            out.damaged = true;
            continue;
        }
        ids.insert(record->runId);
        data.runs.append(std::move(*record));
    }
    // Only finished runs this machine measured are worth recovering: the embedded data (recorded,
    // published) comes back anyway and is never counted, nor is a run that was only queued.
    readProfiles(*root, QObject::tr("the autosave %1").arg(name), data, prescan.leftOut);
    out.problems += std::exchange(data.notices, {});
    QSet<QString> savedProfiles;
    const QSet<QString> saved =
        savedRunIds(root->value("saved_file").toString(), &out.problems, &savedProfiles);
    for (const StoredProfile &p : std::as_const(data.profiles))
        if (!p.isRecorded() && !savedProfiles.contains(profileIdentity(p)))
            ++out.unsavedProfiles;
    for (const RunRecord &r : std::as_const(data.runs))
        if (r.origin == QLatin1String("measured") &&
            (r.status == RunStatus::Ok || r.status == RunStatus::Failed) && !saved.contains(r.runId))
            ++out.unsavedRuns;
    out.data = std::move(data);
    return out;
}

void Session::discardAutosave(const QString &autosaveFile)
{
    QFile::remove(autosaveFile);
}

void Session::adoptRecovered(const QList<SessionData> &recovered)
{
    if (recovered.isEmpty())
        return;
    SessionData merged = recovered.first();
    QSet<QString> ids;
    for (const RunRecord &r : std::as_const(merged.runs))
        ids.insert(r.runId);
    for (qsizetype i = 1; i < recovered.size(); ++i) {
        for (RunRecord r : recovered[i].runs) {
            if (ids.contains(r.runId)) {
                const RunRecord *same = nullptr;
                for (const RunRecord &m : std::as_const(merged.runs))
                    if (m.runId == r.runId)
                        same = &m;
                if (same && toJson(*same) == toJson(r))
                    continue; // the same run, in two autosaves
                QString id;
                for (int n = 2; id.isEmpty() || ids.contains(id); ++n)
                    id = QStringLiteral("%1-%2").arg(r.runId).arg(n);
                r.runId = id;
            }
            ids.insert(r.runId);
            merged.runs.append(r);
        }
        for (auto it = recovered[i].ceilings.begin(); it != recovered[i].ceilings.end(); ++it)
            if (!merged.ceilings.contains(it.key()))
                merged.ceilings.insert(it.key(), it.value());
        for (const StoredProfile &p : recovered[i].profiles)
            if (!merged.profiles.contains(p))
                merged.profiles.append(p);
    }
    replace(merged, {});
    setModified(true);
    autosaveReported();
}

QString AutosaveSlot::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

AutosaveSlot::AutosaveSlot(const QString &directory)
{
    if (!QDir().mkpath(directory)) {
        m_error = QObject::tr("Could not create the autosave folder %1.").arg(directory);
        return;
    }
    removeInterruptedWritesIn(directory); // an autosave of a window killed mid-write
    const QDir dir(directory);
    for (int attempt = 0; attempt < 16; ++attempt) {
        const QString path =
            dir.filePath(QStringLiteral("autosave-%1-%2.json")
                             .arg(QCoreApplication::applicationPid())
                             .arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QLatin1Char('0')));
        if (QFileInfo::exists(path) || QFileInfo(path).isSymLink()) // a dangling link is taken too
            continue;
        auto lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
        if (lock->tryLock(0)) {
            m_lock = std::move(lock);
            m_path = path;
            return;
        }
    }
    m_error = QObject::tr("Could not lock an autosave file in %1.").arg(directory);
}

AutosaveSlot::~AutosaveSlot() = default; // QLockFile unlocks (and removes the .lock) when destroyed

QList<AutosaveRecovery> AutosaveSlot::orphans(const QString &directory, const QString &ownFile)
{
    QList<AutosaveRecovery> out;
    const QDir dir(directory);
    const QString own = ownFile.isEmpty() ? QString() : QFileInfo(ownFile).absoluteFilePath();
    const QStringList names = dir.entryList({QStringLiteral("autosave*.json")},
                                            QDir::Files | QDir::System | QDir::Hidden, QDir::Name);
    for (const QString &name : names) {
        const QString path = dir.absoluteFilePath(name);
        if (path == own)
            continue;
        // A running instance holds its lock; a crashed one left a stale lock QLockFile takes over.
        auto claim = std::make_shared<QLockFile>(path + QStringLiteral(".lock"));
        if (!claim->tryLock(0))
            continue;
        AutosaveRecovery recovery = Session::recoverableAutosave(path);
        if (!recovery.worthOffering()) {
            Session::discardAutosave(path); // nothing unsaved in it: tidy up
            continue;
        }
        recovery.claim = std::move(claim);
        out.append(std::move(recovery));
    }
    return out;
}

void Session::setModified(bool modified)
{
    if (modified)
        ++m_revision; // every change marks the session modified
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

} // namespace gemmscope
