// gemmscope-bench's connection to gemmscope-runner (one found on PATH or beside the bench): the protocol over
// QProcess, synchronously (the benchmark does one thing at a time). Restartable after a device fault ends the
// runner.
#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <functional>

namespace gemmscope::bench {

class RunnerSession {
public:
    explicit RunnerSession(QString program, QStringList arguments = {});
    ~RunnerSession();

    // Starts the runner and waits for `ready`; false with `error` set when it does not come.
    bool start(QString *error);
    void stop();
    bool running() const { return m_process.state() == QProcess::Running; }
    const QJsonObject &ready() const { return m_ready; }

    // Sends one job and returns its final event (result, error, ceilings, owner_map, or compiled
    // for a compile job). Other events of the job go to `onEvent`. A runner that dies first gives
    // a synthesized error of kind runner_unavailable.
    QJsonObject request(const QJsonObject &job, const std::function<void(const QJsonObject &)> &onEvent = {});

private:
    bool readEvent(QJsonObject *event, int timeoutMs);

    QString m_program;
    QStringList m_arguments;
    QProcess m_process;
    QJsonObject m_ready;
};

} // namespace gemmscope::bench
