// Drives gemmscope-runner (docs/protocol.md) from a worker thread. Lives in that thread: the UI
// talks to it through the thread-safe submit()/cancel() and listens to its signals only.
//
// Up to window() jobs are sent to the runner at a time (1 by default: the rest wait in a PendingRuns,
// so that a new interactive request can still replace the waiting ones; a sweep sets a larger
// window so that the runner's own queue is never empty and it can compile ahead). The runner
// answers jobs in arrival order: the oldest job in flight is the one running. A device fault (runner exit
// status 3) fails the running job with kind device_fault; a runner that crashes or is killed (a signal,
// another exit status) fails it with runner_crashed; either way the runner is restarted and the queue goes on
// (jobs sent after the running one never started: they are sent again to the new runner).
//
// A watchdog keeps a runner from hanging the client: no `ready` within the start-up limit, or no
// output for longer than the running job's own budget plus a margin, kills the runner and fails
// the job with runner_timeout; a cancelled job that does not end within a grace period is ended
// the same way (kind cancelled). Output is read linearly, a line at most kMaxLineBytes long: a
// longer one is a protocol_error that restarts the runner. The process, its lines, the watchdog's
// timer and the mapping of how a runner ended to a kind are RunnerTransport's (runner_transport.h).
#pragma once

#include "pending_runs.h"
#include "profile_record.h"
#include "run_record.h"
#include "runner_command.h"
#include "runner_transport.h"

#include <QAtomicInt>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QThread>
#include <QTimer>
#include <memory>

namespace gemmscope {

class RunnerClient : public QObject {
    Q_OBJECT
public:
    // `runnerPath` empty: locate it (see runner_locator.h).
    explicit RunnerClient(QString runnerPath = {}, QObject *parent = nullptr);
    ~RunnerClient() override;

    // Thread-safe. Assigns and returns the job id; the job is queued in the client's thread.
    QString submit(RunRequest request);
    void cancel(const QString &jobId); // queued: dropped (runFailed kind cancelled); running: protocol cancel
    void cancelAll();

    static constexpr int kDeviceFaultExitCode = RunnerTransport::kDeviceFaultExitCode;
    static constexpr int kProgressIntervalMs = 100; // progress signals at most this often per job
    static constexpr int kMaxConsecutiveRestarts = 3;
    static constexpr qsizetype kMaxLineBytes = RunnerTransport::kMaxLineBytes;

    // Watchdog limits; the defaults suit a GPU machine, tests shorten them. Call before start().
    struct Watchdog {
        int startupMs = 60000;        // until `ready`
        int silenceMarginMs = 120000; // silence allowed beyond the running job's budget_ms
        int cancelGraceMs = 5000;     // a cancelled running job must end within this
        // A profile job's silence: the protocol's limit for its child, plus silenceMarginMs, so
        // that the runner's own sentence about the child comes first.
        int profileSilenceMs = protocol::kProfileSilenceLimitMs;
        int faultExitMs = 10000; // a runner that reported a device fault must have ended by then
        qsizetype maxLineBytes = kMaxLineBytes;
    };
    void setWatchdog(const Watchdog &watchdog);
    // How the runner is started (runner_command.h); default: `runnerPath`, or the one located.
    // Call before start().
    void setCommand(const RunnerCommand &command);
    // Jobs sent to the runner before earlier ones have answered (at least 1). Call before start().
    void setWindow(int jobs);
    int window() const { return m_window; }

public slots:
    void start();    // starts the runner process; call in the client's thread (or queued)
    void shutdown(); // quits the runner (quit request, then kill after a grace period)

signals:
    void runnerStatusChanged(bool available, const QString &reason);
    void jobsReplaced(const QStringList &jobIds); // queued interactive jobs dropped by a newer one
    void runStarted(const QString &jobId);
    void progress(const QString &jobId, protocol::ProgressPhase phase, int done, int total);
    // The runner's median of the repetitions timed so far (after ~100 ms of timing), refined until
    // the budget ends; the result's median replaces it.
    void preliminaryMedian(const QString &jobId, double medianMs, int timedSoFar);
    void resultAvailable(const gemmscope::RunRecord &record);
    void runFailed(const gemmscope::RunRecord &record);
    void idle(); // the queue is empty and nothing runs
    // The runner's `ceilings` event (FMA peak, DRAM bandwidth; from its on-disk cache after the
    // first time), asked for once per runner start on a GPU.
    void ceilingsAvailable(const gemmscope::protocol::CeilingsEvent &ceilings);
    // The GPU the runner said it has in its `ready` (empty name: none), at every (re)start.
    void runnerGpu(const QString &name, const QString &arch);
    // A profile job (RunRequest::isProfile) answered with its `profile` event, typed; stamped
    // with the runner's GPU where the event names none. A profile never makes a RunRecord: its
    // failures (an error event, a runner that crashed, hung or is missing, a cancel) come as
    // profileFailed with the protocol's kind name ("runner_crashed") and a sentence.
    void profileAvailable(const gemmscope::protocol::ProfileEvent &profile);
    void profileFailed(const QString &jobId, const QString &kind, const QString &message);

private:
    void enqueue(const RunRequest &request);
    void cancelInThread(const QString &jobId);
    void startProcess();
    // A runner line: decoded here, once, by the protocol codec; only typed values leave the thread.
    void handleEvent(const QJsonObject &json, const DecodedEvent &decoded);
    void handleReady(const protocol::ReadyEvent &ready, const QJsonValue &version);
    void handleResult(const protocol::ResultEvent &result, const QJsonObject &json);
    void handleError(const protocol::ErrorEvent &error, const QJsonObject &json);
    void handleProfile(const protocol::ProfileEvent &profile);
    void runnerEnded(const RunnerEnd &end);
    void dispatchNext();
    void finishJob(const QString &jobId);
    struct InFlight {
        RunRequest request;
        std::optional<protocol::CompiledInfo> compiled; // its `compiled` event, once it came
    };
    InFlight *inFlight(const QString &jobId);
    // Stamps the runner's host and GPU on a record whose event did not name them (errors).
    void stamp(RunRecord &record) const;
    void failJob(const RunRequest &request, protocol::ErrorKind kind, const QString &message);
    void failAllQueued(protocol::ErrorKind kind, const QString &message);
    void send(const QJsonObject &object);
    void armWatchdog();
    void cancelGraceExpired();

    enum class State { Stopped, Starting, Ready, Unavailable, ShuttingDown };

    QString m_runnerPath;
    RunnerCommand m_command;
    int m_window = 1;
    QString m_host, m_gpuName, m_gpuArch, m_gpuUuid; // from the runner's `ready`
    int m_smCount = 0;
    QString m_unavailableReason;
    RunnerTransport *m_transport; // the runner process, its lines and its watchdog
    State m_state = State::Stopped;
    PendingRuns m_queue;
    QList<InFlight> m_inFlight; // sent, not yet answered, in the order sent (the first one runs)
    QElapsedTimer m_sinceProgress;
    Watchdog m_limits;
    QTimer *m_cancelTimer = nullptr; // a cancelled running job's grace period
    QStringList m_cancelledJobs;     // jobs in flight a cancel was sent for
    // The device_fault event's sentence, kept until the process exits: while it is set nothing
    // more is sent to this runner (the protocol says it ends), and it is watched to end.
    QString m_faultMessage;
    int m_consecutiveRestarts = 0;
    QAtomicInt m_nextJob{0};
    QString m_jobPrefix;
    int m_ceilingsRequests = 0; // ids of the ceilings requests, one per runner start
};

// Owns a worker QThread running a RunnerClient, and tears both down in the right order.
class RunnerHost : public QObject {
    Q_OBJECT
public:
    explicit RunnerHost(QString runnerPath = {}, QObject *parent = nullptr);
    // A runner started from `command` (runner_command.h), `window` jobs in flight, these limits.
    RunnerHost(const RunnerCommand &command, int window,
               const std::optional<RunnerClient::Watchdog> &watchdog, QObject *parent = nullptr);
    ~RunnerHost() override;
    RunnerClient *client() const { return m_client; }

private:
    void startThread();
    QThread m_thread;
    RunnerClient *m_client;
};

} // namespace gemmscope

Q_DECLARE_METATYPE(gemmscope::protocol::CeilingsEvent)
