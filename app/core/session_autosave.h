// Keeping a session on disk while the window runs, so that no finished result is lost: the
// autosave writer (every finished run at once, a running sweep's progress once a second in a
// worker thread, a failure said once and retried), each instance's own locked autosave file, and
// recovery of the autosaves that ended instances left behind.
#pragma once

#include "session_data.h"

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

class QLockFile;
class QTimer;

namespace gemmscope {

class SessionStore;

// What an autosave holds that its saved file (if any) lacks, and what of it could not be read.
// Recovery is lenient where loading is not: a run that cannot be read is left out and named in
// `problems`, so that one damaged run never costs the others.
struct AutosaveRecovery {
    QString path;                     // the autosave file
    std::optional<SessionData> data;  // its session without the runs that could not be read
    int unsavedRuns = 0;              // measured runs its saved file lacks: what recovering gains
    int unsavedProfiles = 0;          // measured profiles its saved file lacks
    QStringList problems;             // what could not be recovered and why, one sentence each
    bool damaged = false;             // the autosave itself, or a run in it, could not be read
    std::shared_ptr<QLockFile> claim; // held while it is offered, so no other instance offers it too
    bool worthOffering() const { return unsavedRuns > 0 || unsavedProfiles > 0 || !problems.isEmpty(); }
};

// Reads an autosave for recovery. It never opens anything but a regular file of bounded size (the
// autosave, and the saved file it names).
AutosaveRecovery readAutosaveForRecovery(const QString &autosaveFile);
void removeAutosave(const QString &autosaveFile);
// Recovered autosaves as one session: the first one's data, the others' runs appended (a run in
// two autosaves once, other ids kept unique), their ceilings, profiles and kernels added.
SessionData mergeRecovered(const QList<SessionData> &recovered);

// One running instance's own autosave, `<directory>/autosave-<pid>-<n>.json`, held with a
// QLockFile (`<file>.lock`) for as long as the instance runs: two GemmScopes never write the same
// autosave, and neither offers the other's runs while it runs. The file stays after the instance
// ends; the next start offers it if it holds unsaved runs.
class AutosaveSlot {
public:
    explicit AutosaveSlot(const QString &directory = defaultDirectory());
    ~AutosaveSlot();
    AutosaveSlot(const AutosaveSlot &) = delete;
    AutosaveSlot &operator=(const AutosaveSlot &) = delete;
    bool isValid() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    QString error() const { return m_error; }

    static QString defaultDirectory(); // the application data folder
    // Every autosave in `directory` (autosave*.json, the single autosave.json of older GemmScopes
    // included) whose instance has ended — its lock is free or stale — except `ownFile`. Each one
    // returned is claimed (locked) until its AutosaveRecovery is dropped. Autosaves with nothing
    // to offer are deleted on the way.
    static QList<AutosaveRecovery> orphans(const QString &directory, const QString &ownFile = {});

private:
    std::unique_ptr<QLockFile> m_lock;
    QString m_path;
    QString m_error;
};

// Writes a store's data to the autosave path (none by default): at once (writeNow), or, for a
// running sweep's progress, within a second from a copy in a worker thread (writeSoon): written on
// the UI thread, a session of 10,000 sweep runs held the event loop ~0.7 s each second. Writes
// never go through a link planted at the autosave's name, and an older copy never lands after a
// newer one. A failure is said through `failed` and on stderr (once, until it works again or
// fails for another reason) and retried at every later change (retryIfFailing) and every 30 s.
class AutosaveWriter : public QObject {
    Q_OBJECT
public:
    // `savedFile`: the file the session is saved in, written into the autosave (which it shadows).
    AutosaveWriter(const SessionStore &store, std::function<QString()> savedFile, QObject *parent = nullptr);
    ~AutosaveWriter() override; // after the write a worker may be doing

    void setPath(const QString &path) { m_path = path; }
    QString path() const { return m_path; }
    bool writeNow(QString *error = nullptr);
    void writeSoon();      // within a second, in a worker
    void writeSettled();   // now, in place of a pending writeSoon
    void retryIfFailing(); // the data changed: a failing autosave may work now
    // No autosave could be set up at all (AutosaveSlot::error()): reported as a failure.
    void setUnavailable(const QString &reason);
    // Why the last autosave failed (the sentence `failed` carried); empty while it works.
    QString error() const { return m_error; }
    bool keepsTheData() const { return !m_path.isEmpty() && m_error.isEmpty(); }

signals:
    // A sentence for the window to show where the user sees it (the runs since the last save are
    // kept nowhere until it works again). Emitted when it starts failing and when the reason
    // changes, not at every retry.
    void failed(const QString &message);
    void restored(); // a later autosave worked: the runs are safe again

private:
    void writeInBackground();
    // The outcome of the write numbered `write` (numbered as they start): an older one than the
    // last noted is stale and ignored.
    bool note(quint64 write, const QString &failure, QString *error);
    const SessionStore &m_store;
    std::function<QString()> m_savedFile;
    QString m_path;
    QTimer *m_soon = nullptr;      // the pending write of sweep progress
    QTimer *m_retry = nullptr;     // while the autosave fails
    QString m_error;               // empty while the autosave works
    QFuture<QString> m_background; // the worker's write: why it failed, empty when it worked
    quint64 m_writes = 0, m_noted = 0;
};

} // namespace gemmscope
