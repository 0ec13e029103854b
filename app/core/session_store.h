// The session's data in memory (session_data.h) and the signals that announce each change, with
// the lookups views need: a run by id, a profile by configuration, the profiles to show. It knows
// no file and no autosave: Session adds those, through edited(), which every change calls after
// its signals.
#pragma once

#include "session_data.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <optional>

namespace gemmscope {

class SessionStore : public QObject {
    Q_OBJECT
public:
    explicit SessionStore(QObject *parent = nullptr);

    const SessionData &data() const { return m_data; }
    const QList<RunRecord> &runs() const { return m_data.runs; }
    int indexOf(const QString &runId) const { return m_runIndex.value(runId, -1); }
    const RunRecord *find(const QString &runId) const;
    // The one problem size of every finished run measured on a GPU (this session's or recorded;
    // not the worklog's published ones); empty when there is none or there are several. What the
    // next run should use to compare with them.
    std::optional<ProblemSize> commonMeasuredSize() const;
    // What the last open or load left out (SessionData::notices).
    QStringList notices() const { return m_data.notices; }
    // Counts every change of the data (a run, a profile, a sweep, a new session): whoever reads a
    // file while the user goes on working compares it before replacing what changed since.
    quint64 revision() const { return m_revision; }

    // Adds a run, or replaces the run with the same id (a queued run that finished).
    void addOrUpdate(const RunRecord &record);
    void removeRun(const QString &runId);
    // Stores the runner's measured ceilings for its GPU (kept in the session file).
    void setCeilings(const QString &gpuName, const StoredCeilings &entry);
    // Appends a bench's runs (their ids prefixed with `idPrefix`, kept unique), ceilings and
    // profiles; its title and description where this session has none.
    void appendImported(const SessionData &bench, const QString &idPrefix);

    // Adds a sweep, or replaces the one with the same id (a sweep that ran on). `settled`: it
    // started, stopped or finished, rather than made progress (Edit::SweepSettled).
    void setSweep(const SweepData &sweep, bool settled = false);
    // A running sweep's new answer: appended to the sweep with that id (false: the store holds
    // none, as after another session was opened). Constant work, where setSweep would replace (and
    // copy) every run the sweep has; no sweepsChanged either: the list of sweeps is the same.
    bool addSweepRun(const QString &sweepId, const RunRecord &run);
    const QList<SweepData> &sweeps() const { return m_data.sweeps; }

    // Stores the runner's `profile` event (a newer profile of the same configuration replaces the
    // older one) and announces it with profileAdded.
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
    // What the profile views show: the selected run's profile where the session has one
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

    // The kernels the user wrote, as sources (parsing and registering them is the caller's).
    const std::vector<CustomKernelSource> &customKernels() const { return m_data.customKernels; }
    // Keeps a kernel's text unless the store holds the same one. An edited kernel is another
    // text, kept beside the first: a run names its kernel by its text's key (customStageKey), so
    // every version that was compiled or run stays with the runs it explains.
    void setCustomKernel(const CustomKernelSource &kernel);
    // Removes every version of that file name; false when the store holds none.
    bool removeCustomKernel(const std::string &fileName);

    // A whole new session; the old one's records are freed in a worker thread (10,000 runs took
    // tens of milliseconds of the UI thread). Calls no edited(): a new session is no edit of one.
    void replace(SessionData data);

signals:
    void ceilingsChanged();
    void sweepsChanged();
    // A profile was stored at `index` of profiles() (new, or replacing the older profile of the same
    // configuration there); profilesChanged: the whole list changed (a session opened).
    void profileAdded(int index);
    void profilesChanged();
    void customKernelsChanged();
    // The about-to signals let item models bracket the change (beginInsertRows...), and views that
    // share the list of runs let go of it first (a write to a shared list copies every record).
    void runAboutToBeAdded(int index);
    void runAboutToChange(int index);
    void runAdded(int index);
    void runAboutToBeRemoved(int index);
    void aboutToReset();
    void runChanged(int index);
    void runRemoved(int index);
    void reset();

protected:
    // What a change was, for whoever keeps the data somewhere (Session: the modified flag and
    // when to autosave).
    enum class Edit {
        Measured,      // a finished run, a profile, a kernel the user wrote: never to be lost
        SweepSettled,  // a sweep started, stopped or finished
        SweepProgress, // a running sweep's answer
        Other,         // a queued run, a removal, ceilings, an import
    };
    // Called after every change but replace(), after its signals.
    virtual void edited(Edit edit) { Q_UNUSED(edit); }

private:
    void touch(Edit edit);
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
};

} // namespace gemmscope
