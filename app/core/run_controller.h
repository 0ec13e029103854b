// Run orchestration, out of the window: runs the current configuration or the whole ladder
// through the runner, keeps the session's records in step with the runner's events (queued,
// running, finished, failed, replaced), stores the ceilings it measures, and says which measured
// roof the roofline should draw. QtCore only; the window shows its signals, nothing more.
// Sweeps will be one more method here.
#pragma once

#include "run_record.h"
#include "run_request.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <optional>

namespace gemmscope {

class ProfileController;
class RunnerClient;
class RunnerHost;
class Session;

// A measured roof for the roofline: the ceilings stored for one GPU.
struct MeasuredCeilings {
    QString gpuName;
    double fmaTflops = 0;
    double dramGbs = 0;
    QString measuredAt; // ISO date-time, as the runner wrote it
    bool recorded = false;
    double tf32Tflops = 0; // the TF32 tensor-core roof; 0 where none was measured
    QString tf32Kernel;    // what measured it: "wgmma.m64n256k8.tf32" (Hopper), "mma.sync.m16n8k8.tf32"
    double l2Gbs = 0, sharedGbs = 0; // the L2 and L1/shared read bandwidths; 0 where not measured
};

class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(Session *session, QObject *parent = nullptr);
    ~RunController() override; // stops the runner before the session it reports into goes away

    // Starts gemmscope-runner on its worker thread (RunnerHost); `runnerPath` empty: found by
    // runner_locator. Without this call the controller runs nothing (model-only mode).
    void startRunner(const QString &runnerPath = {});
    RunnerClient *client() const;
    bool hasRunner() const { return m_host != nullptr; }
    // Profiles on the same runner: the Profile action's controller. Its jobs' progress
    // and start come from it, not from this controller's progress()/runStarted().
    ProfileController *profiles() const { return m_profiles; }

    // Queues one interactive run (a slider drag replaces queued ones) and adds its queued record;
    // the job id, empty without a runner.
    QString runCurrent(const RunConfig &config);
    // Queues every preset at one size; the job ids. ladderFinished() when the last has answered.
    QStringList runLadder(const ProblemSize &size, const TimingOptions &timing);
    void cancelAll();

    // The ceilings of the most recent run's GPU that has some in the session, if any.
    std::optional<MeasuredCeilings> measuredCeilings() const;

signals:
    void runnerStatusChanged(bool available, const QString &reason);
    void runStarted(const QString &jobId);
    void progress(const QString &jobId, protocol::ProgressPhase phase, int done, int total);
    // The median of the repetitions timed so far; the run's record has it too (throttled).
    void preliminaryMedian(const QString &jobId, double medianMs, int timedSoFar);
    void runFinished(const RunRecord &record); // after the session has it (ok or failed)
    void idle();
    void ladderFinished();

private:
    void addQueued(const QString &jobId, const RunRequest &request);
    void onResult(const RunRecord &record);
    void onFailed(const RunRecord &record);
    void finishLadderJob(const QString &jobId);

    Session *m_session;
    RunnerHost *m_host = nullptr;
    ProfileController *m_profiles;
    QStringList m_pendingLadder;
    QElapsedTimer m_preliminaryThrottle;
};

} // namespace gemmscope
