#include "sweep_journals.h"

#include "session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHash>
#include <QLockFile>
#include <QPointer>
#include <QSysInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace gemmscope {

QString sweepJournalFileName(const SweepSpec &spec)
{
    return QStringLiteral("sweep-%1.gsweep").arg(sweepSpecHash(spec));
}

QString journalArchiveDirectory(const QString &directory)
{
    return QDir(directory).filePath(QStringLiteral("archive"));
}

std::unique_ptr<QLockFile> lockSweepJournal(const QString &journalPath, QString *error)
{
    auto lock = std::make_unique<QLockFile>(journalPath + QStringLiteral(".lock"));
    if (lock->tryLock(0))
        return lock;
    QString why;
    qint64 pid = 0;
    QString host, application;
    if (lock->error() != QLockFile::LockFailedError)
        why = QObject::tr("Could not lock the sweep journal %1 (its folder may be read-only), so the sweep "
                          "was not started.")
                  .arg(journalPath);
    else if (!lock->getLockInfo(&pid, &host, &application))
        why = QObject::tr("This sweep is being resumed by another GemmScope (its lock file %1 names no "
                          "process).")
                  .arg(journalPath + QStringLiteral(".lock"));
    else if (pid == QCoreApplication::applicationPid() && host == QSysInfo::machineHostName())
        why = QObject::tr("This sweep is being resumed in another window of this GemmScope (pid %1 on host "
                          "%2); only one may write its journal.")
                  .arg(pid)
                  .arg(host);
    else
        why = QObject::tr("This sweep is being resumed by another GemmScope (pid %1 on host %2). Let it "
                          "finish there or stop it there; if that GemmScope no longer runs, delete %3.")
                  .arg(pid)
                  .arg(host, journalPath + QStringLiteral(".lock"));
    if (error)
        *error = why;
    return nullptr;
}

QString archiveSweepJournal(const QString &journalPath, const QString &archiveDirectory, QString *error)
{
    const QFileInfo from(journalPath);
    if (!QDir().mkpath(archiveDirectory)) {
        if (error)
            *error = QObject::tr("Could not make the journal archive %1.").arg(archiveDirectory);
        return {};
    }
    const QDir archive(archiveDirectory);
    QString target = archive.filePath(from.fileName());
    for (int n = 2; QFileInfo(target).exists() || QFileInfo(target).isSymLink(); ++n)
        target = archive.filePath(
            QStringLiteral("%1-%2.%3").arg(from.completeBaseName()).arg(n).arg(from.suffix()));
    if (!QFile::rename(journalPath, target)) {
        if (error)
            *error = QObject::tr("Could not move the finished journal %1 into %2.")
                         .arg(journalPath, archiveDirectory);
        return {};
    }
    return target;
}

JournalFolderScan scanJournalFolder(const QString &directory, const StopRequested &stop)
{
    JournalFolderScan scan;
    if (directory.isEmpty())
        return scan;
    const QDir dir(directory);
    const QString archive = journalArchiveDirectory(directory);
    // Regular files only: a FIFO, a device or a symlink planted in the folder is not read.
    const QFileInfoList entries =
        dir.entryInfoList({QStringLiteral("*.gsweep")}, QDir::Files | QDir::NoSymLinks, QDir::Time);
    // Asked until it says stop, then no more: scan.stopped is the answer from there on.
    const StopRequested stopHere = [&] { return scan.stopped = scan.stopped || stop(); };
    for (const QFileInfo &entry : entries) {
        if (stop && stopHere())
            break;
        const QString path = entry.absoluteFilePath();
        const QString name = entry.fileName();
        QString error;
        QStringList damaged;
        std::optional<SweepData> journal =
            SweepJournal::read(path, &error, &damaged, stop ? stopHere : StopRequested());
        if (scan.stopped)
            break; // inside this journal, which was only read: it stays where it is, for the next start
        ++scan.journalsRead;
        scan.bytesRead += entry.size();
        if (!journal) {
            scan.problems << QStringLiteral("%1: %2").arg(name, error);
            continue;
        }
        for (const QString &d : damaged)
            scan.problems << QStringLiteral("%1: %2").arg(name, d);
        const SweepPlan plan = planSweep(journal->spec);
        if (!plan.ok())
            continue; // no longer plannable (a stage's limits changed): left where it is
        if (!unfinishedPoints(plan, journal->runs).isEmpty()) {
            scan.unfinished.append({path, std::move(*journal)});
            continue;
        }
        // Finished: its sweep is in the session that ran it. Set aside, so that no later start
        // reads it again, unless another GemmScope still holds it.
        QLockFile lock(path + QStringLiteral(".lock"));
        if (!lock.tryLock(0))
            continue;
        const QString archived = archiveSweepJournal(path, archive, &error);
        lock.unlock();
        if (archived.isEmpty()) {
            scan.problems << error;
            continue;
        }
        scan.archived.append(
            {journal->id, int(journal->runs.size()), archived, name.startsWith(QLatin1String("slurm-"))});
    }
    return scan;
}

namespace {

const SweepData *sessionSweep(const Session &session, const QString &id)
{
    const auto &sweeps = session.sweeps();
    const auto it =
        std::find_if(sweeps.begin(), sweeps.end(), [&](const SweepData &s) { return s.id == id; });
    return it == sweeps.end() ? nullptr : &*it;
}

} // namespace

JournalScan applyJournalScan(Session &session, const JournalFolderScan &scan)
{
    JournalScan out;
    out.problems = scan.problems;
    for (const FoundJournal &found : scan.unfinished) {
        out.unfinished << found.sweep.id;
        const SweepData *known = sessionSweep(session, found.sweep.id);
        if (known && known->runs.size() >= found.sweep.runs.size())
            continue; // the session already has everything the journal has
        session.setSweep(found.sweep);
        out.loaded << found.sweep.id;
    }
    for (const ArchivedJournal &archived : scan.archived) {
        // Rare for a sweep the GUI ran (the application ended between its last run and the autosave
        // that held it); the usual end of a detached one, which no session ran.
        const SweepData *known = sessionSweep(session, archived.id);
        if (known ? known->runs.size() >= archived.runs : !archived.detached)
            continue;
        QString error;
        const std::optional<SweepData> journal = SweepJournal::read(archived.path, &error);
        if (!journal) {
            out.problems << error;
            continue;
        }
        session.setSweep(*journal);
        out.loaded << archived.id;
    }
    return out;
}

namespace {

QHash<QString, QPointer<SweepJournalFolder>> &folders()
{
    static QHash<QString, QPointer<SweepJournalFolder>> all;
    return all;
}

} // namespace

SweepJournalFolder *SweepJournalFolder::of(const QString &directory)
{
    const QString key = directory.isEmpty() ? QString() : QDir(directory).absolutePath();
    QPointer<SweepJournalFolder> &folder = folders()[key];
    if (!folder) {
        folder = new SweepJournalFolder(key);
        folder->setParent(QCoreApplication::instance());
    }
    return folder;
}

SweepJournalFolder::SweepJournalFolder(const QString &directory) : m_directory(directory)
{
    // A scan's worker runs in the global thread pool, which the application object waits for when
    // it is destroyed: a scan left running would keep the process alive after its window closed
    // until the last journal was read. So the scans stop when the application quits its event
    // loop, and again (for an application that never ran one) before that wait: post routines run
    // first in QCoreApplication's destructor.
    if (QCoreApplication *app = QCoreApplication::instance()) {
        connect(app, &QCoreApplication::aboutToQuit, this, &SweepJournalFolder::stopScans);
        static QPointer<QCoreApplication> hookedApp;
        if (hookedApp != app) {
            qAddPostRoutine(&SweepJournalFolder::stopScans);
            hookedApp = app;
        }
    }
}

void SweepJournalFolder::stopScans()
{
    for (const QPointer<SweepJournalFolder> &folder : std::as_const(folders()))
        if (folder && folder->m_stop)
            folder->m_stop->store(true);
}

QString SweepJournalFolder::journalPathFor(const SweepData &sweep) const
{
    for (const FoundJournal &found : m_scan.unfinished)
        if (found.sweep.id == sweep.id)
            return found.path;
    return QDir(m_directory).filePath(sweepJournalFileName(sweep.spec));
}

void SweepJournalFolder::whenScanned(QObject *context, std::function<void(const JournalFolderScan &)> apply)
{
    if (m_scanned && !m_scanning) {
        apply(m_scan);
        return;
    }
    connect(
        this, &SweepJournalFolder::scanned, context, [this, apply] { apply(m_scan); },
        Qt::SingleShotConnection);
    if (!m_scanning)
        startScan();
}

void SweepJournalFolder::rescan()
{
    if (!m_scanning)
        startScan();
}

void SweepJournalFolder::startScan()
{
    m_scanning = true;
    m_stop = std::make_shared<std::atomic_bool>(false);
    auto *watcher = new QFutureWatcher<JournalFolderScan>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        JournalFolderScan scan = watcher->result();
        m_scanning = false;
        m_stop.reset();
        if (scan.stopped)
            return; // a part of the folder: applied, it would hide the unfinished sweeps it missed
        m_scan = std::move(scan);
        m_scanned = true;
        emit scanned();
    });
    const QString directory = m_directory;
    const std::shared_ptr<std::atomic_bool> stop = m_stop;
    watcher->setFuture(QtConcurrent::run([directory, stop] {
        return scanJournalFolder(directory, [stop] { return stop->load(std::memory_order_relaxed); });
    }));
}

} // namespace gemmscope
