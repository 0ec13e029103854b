// The Profile action's work, out of the window: profiles the current configuration
// through the runner, off the UI thread (the RunnerClient's worker, like a run), and the cuBLAS
// stage of its precision at its size when the session has no profile of that on the runner's GPU
// yet, so that "Why not cuBLAS?" has both sides. Each `profile` event lands in the Session
// (Session::addProfile, autosaved at once); failures come as a kind and a sentence and change
// nothing in the session. A profile never creates or alters a run record.
#pragma once

#include "profile_record.h"
#include "run_request.h"

#include <QHash>
#include <QObject>
#include <QStringList>

namespace gemmscope {

class RunnerClient;
class Session;

class ProfileController : public QObject {
    Q_OBJECT
public:
    explicit ProfileController(Session *session, QObject *parent = nullptr);

    // Listens to `client` (RunController does this when it starts the runner).
    void attach(RunnerClient *client);
    bool hasRunner() const { return m_client != nullptr; }
    // The runner's GPU from its `ready` (empty: none yet, or none at all).
    QString gpuName() const { return m_gpuName; }

    // Profiles `config` and then, where the session lacks it (and it is not queued already), its
    // cuBLAS baseline at the same size; the job ids (the configuration's first), empty without a
    // runner.
    QStringList profile(const RunConfig &config, const ProfileOptions &options = {});
    bool isProfiling() const { return !m_pending.isEmpty(); }
    bool isPending(const QString &jobId) const { return m_pending.contains(jobId); }
    // What a job profiles, as the status bar names it: "fp32-tuned at 4096x4096x4096".
    QString describe(const QString &jobId) const { return m_pending.value(jobId); }

signals:
    void profileStarted(const QString &jobId, const QString &what);
    void progress(const QString &jobId, const QString &what, protocol::ProgressPhase phase, int done,
                  int total);
    void profileFinished(const gemmscope::protocol::ProfileEvent &profile); // after the session has it
    // `kind`: the protocol's error kind name ("runner_crashed", "cancelled", ...).
    void profileFailed(const QString &jobId, const QString &what, const QString &kind,
                       const QString &message);
    void idle(); // the last profile asked for has answered

private:
    QString submit(const RunRequest &request, const QString &what);
    void finish(const QString &jobId);

    Session *m_session;
    RunnerClient *m_client = nullptr;
    QString m_gpuName;
    QHash<QString, QString> m_pending; // job id -> what it profiles
};

} // namespace gemmscope
