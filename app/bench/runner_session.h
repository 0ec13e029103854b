// gemmscope-bench's connection to gemmscope-runner (one found on PATH or beside the bench): the protocol over
// app/core's RunnerTransport (its line reader, watchdog and ending kinds), synchronously (the benchmark does
// one thing at a time). Restartable after a device fault ends the runner.
#pragma once

#include "events.h"
#include "runner_transport.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace gemmscope::bench {

class RunnerSession {
public:
    explicit RunnerSession(QString program, QStringList arguments = {});
    ~RunnerSession();

    // Starts the runner and waits for `ready`; false with `error` set when it does not come.
    bool start(QString *error);
    void stop();
    bool running() const { return m_transport.isRunning(); }
    const QJsonObject &ready() const { return m_ready; }

    // Sends one job and returns its final event (result, error, ceilings, owner_map, profile, or
    // compiled for a compile job). Other events of the job go to `onEvent`. A runner that dies first gives
    // an error of the kind the transport gives its end (runner_crashed, runner_timeout, ...).
    QJsonObject request(const QJsonObject &job, const std::function<void(const QJsonObject &)> &onEvent = {});

private:
    // The runner's next event; nothing when it has ended (m_end says how).
    std::optional<QJsonObject> nextEvent();

    QString m_program;
    QStringList m_arguments;
    RunnerTransport m_transport;
    QList<QJsonObject> m_events; // received, not yet read
    std::optional<RunnerEnd> m_end;
    QJsonObject m_ready;
};

// The bench's start-up: `runner` started and its GPU; otherwise the bench's exit status after saying
// why on standard error: 1 the runner did not start, 2 it has no GPU.
std::optional<protocol::GpuInfo> startWithGpu(RunnerSession &runner, int *exitCode);

} // namespace gemmscope::bench
