// A session: the runs a user has made or loaded, plus metadata, saved as a versioned JSON file
// {"format":"gemmscope-session","version":1,...}. Files are parsed completely into a
// SessionData before anything replaces the open session, so a corrupt, truncated or
// unknown-version file is refused with a sentence and never half-loaded. Every finished run is
// autosaved (atomically, through writeFileAtomically) so no result is lost; when the autosave
// cannot be written the session says so (autosaveFailed) and tries again at the next change. A
// running sweep's progress is autosaved once a second in a worker thread, from a copy of the
// session: written on this thread, a session of 10,000 sweep runs held the event loop ~0.7 s each
// second (its journal holds every answered run meanwhile).
#pragma once

#include "file_write.h"
#include "profile_record.h"
#include "run_record.h"
#include "sweep_record.h"

#include <QFuture>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

class QLockFile;
class QTimer;

namespace gemmscope {

inline constexpr int kSessionFormatVersion = 1;

// One GPU's roofline ceilings as a session keeps them, from the runner's `ceilings` event.
struct StoredCeilings {
    double fmaTflops = 0, dramGbs = 0;
    QString measuredAt;               // ISO date-time, as the runner wrote it
    QString origin;                   // "measured" (this session's runner) or "recorded" (a bench file)
    std::optional<double> tf32Tflops; // the TF32 tensor-core roof, where the runner measured one
    QString tf32Kernel;               // what measured it ("mma.sync.m16n8k8.tf32")
    // The L2 and L1/shared roofs (GB/s read), where the runner measured them.
    std::optional<double> l2Gbs, sharedGbs;
    bool isRecorded() const { return origin == QLatin1String("recorded"); }
    friend bool operator==(const StoredCeilings &, const StoredCeilings &) = default;
};

struct SessionData {
    QList<RunRecord> runs;
    QString title;
    QString description; // where the runs come from, e.g. "The worklog's published T4 runtimes"
    QDateTime created;
    // Roofline ceilings the runner measured, by GPU name ("ceilings" in the file).
    QMap<QString, StoredCeilings> ceilings;
    // Parameter sweeps (sweep_record.h), each with every run it answered; "sweeps" in the file,
    // left out when there are none (files without it load as before).
    QList<SweepData> sweeps;
    // Profiles (issue 23, profile_record.h): each runner `profile` event with its origin;
    // "profiles" in the file, left out when there are none (files without it load as before).
    QList<StoredProfile> profiles;
    // What reading the file left out, one sentence each (a damaged profile entry is skipped, the
    // rest of the session loads). Not saved; the window shows them when the session opens.
    QStringList notices;
};

// The ceilings entry for one GPU from a runner `ceilings` event, ready for SessionData::ceilings.
StoredCeilings ceilingsEntry(const protocol::CeilingsEvent &event, const QString &origin);

// A parse result: data, or the sentence that says why the file was refused.
struct SessionParse {
    std::optional<SessionData> data;
    QString error;
};

SessionParse parseSessionJson(const QByteArray &bytes);
SessionParse readSessionFile(const QString &path);
// readSessionFile, with its large profiles folded for the views (foldAhead): the work of opening a
// session but showing it, for a worker thread, so that a large file never holds up the window
// (SessionActions reads it so).
SessionParse readSessionFileForViews(const QString &path);
QByteArray serializeSession(const SessionData &data, const QString &savedFile = {});
// Through writeFileAtomically: the file is replaced whole or left as it was, with the reason.
bool writeSessionFile(const QString &path, const SessionData &data, QString *error,
                      const QString &savedFile = {}, const WriteOptions &options = {});

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

// Converts a bench JSON ({"format":"gemmscope-bench","version":1,...}, docs/protocol.md) into runs
// with origin "recorded".
SessionParse importBenchJson(const QByteArray &bytes);
SessionParse importBenchFile(const QString &path);

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject *parent = nullptr);
    ~Session() override; // after the autosave a worker may be writing

    const QList<RunRecord> &runs() const { return m_data.runs; }
    const SessionData &data() const { return m_data; }
    int indexOf(const QString &runId) const;
    const RunRecord *find(const QString &runId) const;
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }
    // The one problem size of every finished run measured on a GPU (this session's or recorded;
    // not the worklog's published ones); empty when there is none or there are several. What the
    // next run should use to compare with them.
    std::optional<ProblemSize> commonMeasuredSize() const;

    // Adds a run, or replaces the run with the same id (a queued run that finished).
    void addOrUpdate(const RunRecord &record);
    void removeRun(const QString &runId);
    // A whole new session; the old one's records are freed in a worker thread (10,000 runs took
    // tens of milliseconds of the UI thread).
    void replace(SessionData data, const QString &filePath);
    void clear();
    // Stores the runner's measured ceilings for its GPU (kept in the session file).
    void setCeilings(const QString &gpuName, const StoredCeilings &entry);
    // Adds a sweep, or replaces the one with the same id (a sweep that ran on), and autosaves: at
    // once with `autosaveNow` (a sweep started, stopped or finished), else within a second (a
    // sweep's progress: one autosave per second at most, however fast its runs answer; its
    // journal holds every run in between).
    void setSweep(const SweepData &sweep, bool autosaveNow = false);
    // A running sweep's new answer: appended to the sweep with that id (false: the session holds
    // none, as after another session was opened) and autosaved within a second, as setSweep does.
    // Constant work, where setSweep would replace (and copy) every run the sweep has; no
    // sweepsChanged either: the list of sweeps is the same.
    bool addSweepRun(const QString &sweepId, const RunRecord &run);
    const QList<SweepData> &sweeps() const { return m_data.sweeps; }

    // Profiles (issue 23). addProfile stores the runner's `profile` event (a newer profile of the same
    // configuration replaces the older one), announces it with profileAdded and autosaves at once.
    void addProfile(const protocol::ProfileEvent &profile,
                    const QString &origin = QStringLiteral("measured"));
    const QList<StoredProfile> &profiles() const { return m_data.profiles; }
    // The newest profile of a configuration: `key` as profileKeyOf makes it (an empty GPU: any).
    const StoredProfile *findProfile(const ProfileKey &key) const;
    const StoredProfile *profileForRun(const RunRecord &run) const; // the run's configuration, its GPU
    // The panel's configuration on `gpuName` (empty: on any GPU, the newest).
    const StoredProfile *profileForConfig(const RunConfig &config, const QString &gpuName = {}) const;
    // "Why not cuBLAS?": the cuBLAS profile of the same precision at the same size on the same GPU
    // as `profile` (a cuBLAS profile is its own baseline), or nullptr.
    const StoredProfile *baselineProfileFor(const protocol::ProfileEvent &profile) const;
    // What the profile views show (issue 23): the selected run's profile where the session has one
    // (`selectedRun` may be null), else the profile of the panel's configuration on `gpuName` (the
    // runner's), else on any GPU; and its cuBLAS baseline. The pointers stay valid until the next
    // profileAdded or profilesChanged: ask again then (views keep a copy, which is cheap: the
    // instruction list is implicitly shared).
    struct ShownProfiles {
        const StoredProfile *profile = nullptr;
        const StoredProfile *baseline = nullptr;
        bool ofSelectedRun = false; // else of the panel's configuration
    };
    ShownProfiles shownProfiles(const RunRecord *selectedRun, const RunConfig &config,
                                const QString &gpuName) const;
    // What the last open or load left out (SessionData::notices).
    QStringList notices() const { return m_data.notices; }
    // Counts every change of the session's data (a run, a profile, a sweep, a new session): whoever
    // reads a file while the user goes on working compares it before replacing what changed since.
    quint64 revision() const { return m_revision; }

    bool open(const QString &path, QString *error);          // nothing changes when it fails
    bool save(QString *error, bool replaceReadOnly = false); // to filePath()
    // A read-only file is refused with a sentence unless `replaceReadOnly` (the user confirmed).
    bool saveAs(const QString &path, QString *error, bool replaceReadOnly = false);
    // Appends the bench's runs and profiles; what it left out (a profile past the limits), one
    // sentence each, in `notices`.
    bool importBench(const QString &path, QString *error, QStringList *notices = nullptr);
    // The same with the bench as importBenchFile read it (in a worker thread, where the window
    // imports one); its notices are the caller's to show.
    void addImported(const SessionData &bench, const QString &path);
    bool loadDefault(QString *error, const QString &path = defaultSessionPath());
    // Adds the sweeps of the session at `path` (the default one: a parameter sweep and a size sweep
    // measured on an NVIDIA H200) that this session lacks, keeping everything else: a session of
    // one's own runs gets something to show on the Sweep workspace. Their titles, or std::nullopt
    // with the file's problem in `error`.
    std::optional<QStringList> addRecordedSweeps(QString *error, const QString &path = defaultSessionPath());

    // Autosave: every finished run lands in the autosave path (none by default; the window gives
    // each instance its own through AutosaveSlot). At start, recoverableAutosave() tells which
    // finished runs an autosave holds that its saved file (if any) lacks, and what it could not
    // read. It never opens anything but a regular file of bounded size.
    static QString defaultSessionPath() { return QStringLiteral(":/gemmscope/default_session.json"); }
    static QString autosavePath(); // the single autosave older GemmScopes shared (recovered, never written)
    // Writes the autosave now (never through a link planted at its name), after the one a worker
    // may be writing: an older copy never lands after a newer one. A failure is also reported
    // through autosaveFailed and on stderr (once, until it works again or fails for another
    // reason) and retried at every later change and every 30 s.
    bool autosave(QString *error = nullptr);
    static AutosaveRecovery recoverableAutosave(const QString &autosaveFile);
    static void discardAutosave(const QString &autosaveFile);
    void setAutosavePath(const QString &path) { m_autosavePath = path; }
    QString autosaveFile() const { return m_autosavePath; }
    // Takes recovered autosaves as the open session: the first one's data, the others' runs
    // appended (ids kept unique); marked modified and autosaved at once.
    void adoptRecovered(const QList<SessionData> &recovered);

    // Whether the user is at risk: measured runs that neither a saved file nor a current autosave
    // holds (the autosave failed, could not be set up, or there is none). The window asks before
    // closing while this is true.
    bool runsSavedNowhere() const;
    // Why the last autosave failed (the sentence autosaveFailed carried); empty while it works.
    QString autosaveError() const { return m_autosaveError; }
    // The window could not set up an autosave at all (AutosaveSlot::error()): reported as a failure.
    void setAutosaveUnavailable(const QString &reason);

signals:
    void ceilingsChanged();
    void sweepsChanged();
    // A profile was stored at `index` of profiles() (new, or replacing the older profile of the same
    // configuration there); profilesChanged: the whole list changed (a session opened).
    void profileAdded(int index);
    void profilesChanged();
    // The about-to signals let item models bracket the change (beginInsertRows...).
    void runAboutToBeAdded(int index);
    void runAdded(int index);
    void runAboutToBeRemoved(int index);
    void aboutToReset();
    void runChanged(int index);
    void runRemoved(int index);
    void reset();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);
    // The autosave could not be written: a sentence for the window to show where the user sees
    // it (the runs since the last save are kept nowhere until it works again). Emitted when it
    // starts failing and when the reason changes, not at every retry.
    void autosaveFailed(const QString &message);
    void autosaveRestored(); // a later autosave worked: the runs are safe again

private:
    void setModified(bool modified);
    void changed();                // the data changed: retry a failing autosave
    void autosaveReported();       // autosave() for a timer or a change: autosave() says a failure, once
    void autosaveSweeps(bool now); // at once, or within a second
    void autosaveInBackground();   // sweep progress: a copy of the data, written by a worker
    // The outcome of the autosave numbered `write` (numbered as they start): an older one than
    // the last noted is stale and ignored.
    bool noteAutosave(quint64 write, const QString &failure, QString *error);
    // Replaces the same configuration's profile or appends it; its index.
    // `announce`: profileAdded (an import of many announces them once, with profilesChanged).
    int storeProfile(const StoredProfile &profile, bool announce = true);
    void reindexProfiles();
    void appendRun(const RunRecord &record); // with its signals, and into the index
    void reindexRuns();
    SessionData m_data;
    // Run id -> index in m_data.runs (the first, should a file repeat an id): a run's progress and
    // result each look their run up, and a scan of a 10,000-run session took a few ms each time.
    QHash<QString, int> m_runIndex;
    // Profile key -> index in m_data.profiles (the first, should a file repeat one): an import of
    // 10,000 profiles compared each with every one before it (22 s).
    QHash<ProfileKey, int> m_profileIndex;
    quint64 m_revision = 0;
    QString m_filePath;
    QString m_autosavePath;
    bool m_modified = false;
    QTimer *m_sweepAutosave = nullptr;     // the pending autosave of sweep progress
    QTimer *m_autosaveRetry = nullptr;     // while the autosave fails
    QString m_autosaveError;               // empty while the autosave works
    QFuture<QString> m_backgroundAutosave; // the worker's write: why it failed, empty when it worked
    quint64 m_autosaveWrites = 0, m_autosaveNoted = 0;
    QStringList m_importedFiles; // bench files this session read: never saved over
};

} // namespace gemmscope
