// The journal folder (default: the application data folder's "sweeps"): where running sweeps are
// journaled (sweep_record.h), and what happens to journals afterwards.
//
// - Names: a sweep's journal is `sweep-<hash of its canonical plan>.gsweep` (sweepSpecHash), so
//   the same sweep is one journal whatever the order of its values, and no id read from a file
//   ever becomes part of a path. Journals are always inside the folder.
// - One writer: a sweep holds `<journal>.lock` (QLockFile) while it writes; another window or
//   process is refused with a sentence naming the holder's pid and host.
// - Start-up: the folder is read once per process, in a worker thread (SweepJournalFolder), not
//   on the UI thread. Unfinished sweeps are offered (put into the session) for Resume; finished
//   journals are moved to `archive/` (their sweeps are in the session that ran them), so the next
//   start reads only what is unfinished. Nothing is deleted.
// - Quitting: the application's quit stops a scan under way at its next line (stopScans), so
//   closing the window never waits for a large folder to be read. A stopped scan only read: every
//   journal is where it was, or whole in the archive, and the next start reads the rest.
#pragma once

#include "sweep_record.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>

class QLockFile;

namespace gemmscope {

class Session;

// `sweep-<hash>.gsweep`: the journal's file name for a sweep of this plan.
QString sweepJournalFileName(const SweepSpec &spec);
// `<directory>/archive`: where finished journals (and journals set aside) are kept.
QString journalArchiveDirectory(const QString &directory);

// Locks the journal at `journalPath` for this process (`<journalPath>.lock`), or says who holds it:
// "This sweep is being resumed by another GemmScope (pid N on host H)."
std::unique_ptr<QLockFile> lockSweepJournal(const QString &journalPath, QString *error = nullptr);

// Moves a journal into `archiveDirectory` (under a free name); its path there, or empty with a
// sentence in `error`.
QString archiveSweepJournal(const QString &journalPath, const QString &archiveDirectory,
                            QString *error = nullptr);

struct FoundJournal {
    QString path; // inside the folder: a name the folder's listing gave
    SweepData sweep;
};
struct ArchivedJournal {
    QString id;
    int runs = 0;
    QString path; // in the archive
    // Written by a detached Slurm sweep (`slurm-<job id>.gsweep`, gemmscope-bench --detach): no
    // session ran it, so applying the scan puts it into the session that opens it.
    bool detached = false;
};
struct JournalFolderScan {
    QList<FoundJournal> unfinished;  // read whole: offered for Resume
    QList<ArchivedJournal> archived; // finished ones found in the folder, moved to the archive
    QStringList problems;            // unreadable journals, damaged lines skipped, as sentences
    int journalsRead = 0;
    qint64 bytesRead = 0;
    // Asked to stop before it had read every journal: what it holds is a part, never applied.
    bool stopped = false;
};

// Reads every journal in `directory` (not its archive) once; moves the finished ones that no
// other process holds into the archive. Any thread: it touches no Session and no widget. `stop` is
// asked before each line and between journals; once it says true the scan ends there (stopped),
// with no journal half moved.
JournalFolderScan scanJournalFolder(const QString &directory, const StopRequested &stop = {});

// What applying a scan did to a session.
struct JournalScan {
    QStringList loaded;     // ids of the sweeps put into (or brought up to date in) the session
    QStringList unfinished; // ids of every unfinished sweep the folder holds (loaded or already there)
    QStringList problems;
};

// Puts into the session each unfinished sweep whose journal holds runs the session lacks, and
// brings up to date a session sweep whose finished journal (now archived) holds more runs; a
// finished detached sweep (ArchivedJournal::detached) is put into the session whole. The
// UI thread's part: no journal is read here except such an archived one.
JournalScan applyJournalScan(Session &session, const JournalFolderScan &scan);

// The journal folder of this process: scanned once, in a worker thread, whoever asks (the grid
// view, the size view, the window after it recovered an autosave).
class SweepJournalFolder : public QObject {
    Q_OBJECT
public:
    // The one object for `directory` in this process (kept until the application ends).
    static SweepJournalFolder *of(const QString &directory);

    QString directory() const { return m_directory; }
    QString archiveDirectory() const { return journalArchiveDirectory(m_directory); }
    // Where `sweep` is journaled: the unfinished journal the scan found holding its id, else
    // sweep-<hash of its plan>.gsweep. Always inside directory().
    QString journalPathFor(const SweepData &sweep) const;

    bool isScanned() const { return m_scanned; }
    const JournalFolderScan &scan() const { return m_scan; }
    // Calls `apply` with the scan in `context`'s thread: at once when the scan is done, else when
    // it is. However often it is asked, the folder is read once.
    void whenScanned(QObject *context, std::function<void(const JournalFolderScan &)> apply);
    // Reads the folder again (in a worker thread): after something else wrote journals into it.
    void rescan();
    bool isScanning() const { return m_scanning; }

    // Stops the scan under way in every folder at its next line. The application quitting calls it
    // (its aboutToQuit, and before the application object waits for its worker threads), so that
    // the process ends at once. A stopped scan answers no one: whenScanned() waits for the next.
    static void stopScans();

signals:
    void scanned();

private:
    explicit SweepJournalFolder(const QString &directory);
    void startScan();

    QString m_directory;
    JournalFolderScan m_scan;
    bool m_scanned = false, m_scanning = false;
    std::shared_ptr<std::atomic_bool> m_stop; // the scan under way's: shared with its worker
};

} // namespace gemmscope
