#include "session_autosave.h"

#include "file_read.h"
#include "file_write.h"
#include "session_codec.h"
#include "session_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QLockFile>
#include <QRandomGenerator>
#include <QSet>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace gemmscope {

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

bool isFinishedMeasurement(const RunRecord &r)
{
    return r.origin == QLatin1String("measured") &&
           (r.status == RunStatus::Ok || r.status == RunStatus::Failed);
}

} // namespace

AutosaveRecovery readAutosaveForRecovery(const QString &autosaveFile)
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
    SessionSalvage salvage = salvageSessionJson(*file.bytes, name);
    out.problems = std::move(salvage.problems);
    out.damaged = salvage.damaged;
    if (!salvage.data)
        return out;
    // Only finished runs this machine measured are worth recovering: the embedded data (recorded,
    // published) comes back anyway and is never counted, nor is a run that was only queued.
    QSet<QString> savedProfiles;
    const QSet<QString> saved = savedRunIds(salvage.savedFile, &out.problems, &savedProfiles);
    for (const StoredProfile &p : std::as_const(salvage.data->profiles))
        if (!p.isRecorded() && !savedProfiles.contains(profileIdentity(p)))
            ++out.unsavedProfiles;
    for (const RunRecord &r : std::as_const(salvage.data->runs))
        if (isFinishedMeasurement(r) && !saved.contains(r.runId))
            ++out.unsavedRuns;
    out.data = std::move(salvage.data);
    return out;
}

void removeAutosave(const QString &autosaveFile)
{
    QFile::remove(autosaveFile);
}

SessionData mergeRecovered(const QList<SessionData> &recovered)
{
    if (recovered.isEmpty())
        return {};
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
        for (const CustomKernelSource &kernel : recovered[i].customKernels)
            if (std::none_of(merged.customKernels.begin(), merged.customKernels.end(),
                             [&](const CustomKernelSource &k) { return sameKernelSource(k, kernel); }))
                merged.customKernels.push_back(kernel);
    }
    return merged;
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
        AutosaveRecovery recovery = readAutosaveForRecovery(path);
        if (!recovery.worthOffering()) {
            removeAutosave(path); // nothing unsaved in it: tidy up
            continue;
        }
        recovery.claim = std::move(claim);
        out.append(std::move(recovery));
    }
    return out;
}

AutosaveWriter::AutosaveWriter(const SessionStore &store, std::function<QString()> savedFile, QObject *parent)
    : QObject(parent), m_store(store), m_savedFile(std::move(savedFile)), m_soon(new QTimer(this)),
      m_retry(new QTimer(this))
{
    m_soon->setSingleShot(true);
    m_soon->setInterval(1000);
    connect(m_soon, &QTimer::timeout, this, &AutosaveWriter::writeInBackground);
    // A full disk may be freed while nothing changes: try again now and then, not only at changes.
    m_retry->setSingleShot(true);
    m_retry->setInterval(30000);
    connect(m_retry, &QTimer::timeout, this, [this] { writeNow(); });
}

AutosaveWriter::~AutosaveWriter()
{
    m_background.waitForFinished(); // its file whole before the application may end
}

bool AutosaveWriter::writeNow(QString *error)
{
    if (m_path.isEmpty())
        return true;
    m_background.waitForFinished(); // its older copy must not replace this one
    const quint64 write = ++m_writes;
    // The autosave lives in GemmScope's own data folder: a link planted at its name is replaced,
    // never written through.
    QString why;
    if (!writeSessionFile(m_path, m_store.data(), &why, m_savedFile(),
                          {.followSymlinks = false, .inputs = {}}) &&
        why.isEmpty())
        why = tr("The autosave could not be written.");
    return note(write, why, error);
}

void AutosaveWriter::writeSoon()
{
    if (!m_path.isEmpty() && !m_soon->isActive())
        m_soon->start();
}

void AutosaveWriter::writeSettled()
{
    if (m_path.isEmpty())
        return;
    m_soon->stop();
    writeNow();
}

void AutosaveWriter::retryIfFailing()
{
    if (!m_error.isEmpty() && !m_path.isEmpty())
        writeNow(); // a failure is said by writeNow() itself, once
}

void AutosaveWriter::writeInBackground()
{
    if (m_path.isEmpty())
        return;
    if (m_background.isRunning()) { // one at a time: the progress since, once it is written
        m_soon->start();
        return;
    }
    const quint64 write = ++m_writes;
    // A copy is a few reference counts (the runs are shared until the store changes them): the
    // worker turns it into JSON and writes it while this thread goes on.
    const SessionData copy = m_store.data();
    const QString path = m_path, savedFile = m_savedFile();
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, write] {
        watcher->deleteLater();
        note(write, watcher->result(), nullptr); // says a failure, once
    });
    m_background = QtConcurrent::run([copy, path, savedFile] {
        QString why;
        if (!writeSessionFile(path, copy, &why, savedFile, {.followSymlinks = false, .inputs = {}}) &&
            why.isEmpty())
            why = QObject::tr("The autosave could not be written.");
        return why;
    });
    watcher->setFuture(m_background);
}

bool AutosaveWriter::note(quint64 write, const QString &failure, QString *error)
{
    if (write < m_noted)
        return true; // a newer autosave was noted already: this one says nothing about now
    m_noted = write;
    if (failure.isEmpty()) {
        m_retry->stop();
        if (!m_error.isEmpty()) {
            m_error.clear();
            emit restored();
        }
        return true;
    }
    const QString message = tr("The autosave failed, so the runs measured since the session was last saved "
                               "are kept only in this window. %1 GemmScope tries again at every change; "
                               "save the session to another disk to keep them.")
                                .arg(failure);
    if (message != m_error) {
        // Said once per failure, as the window's notice is: the retries at every change and every
        // 30 s would otherwise print the same line a few times a second while runs arrive.
        qWarning("GemmScope autosave failed: %s", qPrintable(failure));
        m_error = message;
        emit failed(message);
    }
    m_retry->start();
    if (error)
        *error = failure;
    return false;
}

void AutosaveWriter::setUnavailable(const QString &reason)
{
    m_path.clear();
    const QString message = tr("There is no autosave (%1), so runs are kept only in this window until the "
                               "session is saved.")
                                .arg(reason);
    if (message != m_error) {
        m_error = message;
        emit failed(message);
    }
}

} // namespace gemmscope
