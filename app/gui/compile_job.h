// The Compile action (Ctrl+B): the stage compiled by NVRTC for a chosen architecture, without a GPU,
// through the runner's compile-only mode (docs/protocol.md, `compile`). A one-shot runner process of
// its own, so that it works when the GPU runner is unavailable (no driver) and never waits behind
// queued runs. Registers, spills, shared memory and occupancy come back in the `compiled` event.
#pragma once

#include "stage_catalog.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

class QProcess;

namespace gemmscope {

class CompileJob : public QObject {
    Q_OBJECT
public:
    explicit CompileJob(QObject *parent = nullptr);
    ~CompileJob() override;

    // Starts a compile; false (with the reason) when none can start: no runner, a library stage,
    // one already compiling.
    bool start(StageId stage, const ParamValues &params, const ProblemSize &size, const QString &arch,
               QString *whyNot);
    bool isRunning() const;

    // "sm_90: 56 registers, no spills, 4096 B shared memory per block; 4 blocks of 256 threads per SM
    // (50 % occupancy, limited by registers)".
    static QString summary(const QJsonObject &compiled);

signals:
    void finished(const QJsonObject &compiled, const QString &summary);
    void failed(const QString &message);

private:
    void readLines();
    void processEnded();

    QPointer<QProcess> m_process;
    QByteArray m_buffer;
    bool m_answered = false;
    QString m_stageTitle;
};

} // namespace gemmscope
