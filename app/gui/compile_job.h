// The Compile action (Ctrl+B): the stage compiled by NVRTC for a chosen architecture, without a GPU,
// through the runner's compile-only mode (docs/protocol.md, `compile`). A one-shot runner process of
// its own, so that it works when the GPU runner is unavailable (no driver) and never waits behind
// queued runs. Registers, spills, shared memory and occupancy come back in the `compiled` event.
#pragma once

#include "events.h"
#include "runner_transport.h"
#include "stage_catalog.h"

#include <QObject>
#include <QPointer>

namespace gemmscope {

class RunnerTransport;
struct RunnerEnd;

class CompileJob : public QObject {
    Q_OBJECT
public:
    // Compile: the `compiled` event (registers, spills, occupancy). Disassemble: the `disassembly`
    // event (PTX and SASS with source lines, for the machine-code view). Both need no GPU.
    enum class Kind { Compile, Disassemble };

    explicit CompileJob(Kind kind = Kind::Compile, QObject *parent = nullptr);
    ~CompileJob() override;

    // Starts a compile; false (with the reason) when none can start: no runner, a library stage,
    // one already compiling.
    bool start(StageId stage, const ParamValues &params, const ProblemSize &size, const QString &arch,
               QString *whyNot);
    bool isRunning() const;

    // "sm_90a: 168 registers per thread, no spills, 193.1 KiB (0 B static + 197696 B dynamic) shared
    // memory per block; 1 block(s) per SM, 14 % occupancy (limited by shared memory (197696 bytes
    // per block) and registers (168 per thread))": the architecture built, all the shared memory a
    // block holds, and every resource that limits the blocks per SM.
    static QString summary(const protocol::CompiledInfo &compiled);
    // The architecture a compile for `arch` ("sm_90") builds for `stage`: "sm_90a" for the stages
    // that use Hopper's wgmma and TMA, `arch` itself for the others (for window texts).
    static QString builtArchitecture(StageId stage, const QString &arch);
    // "4.0 KiB (4096 B)", "193.1 KiB (0 B static + 197696 B dynamic)", "512 B".
    static QString smemText(int staticBytes, int dynamicBytes);
    // "limited by shared memory (197696 bytes per block) and registers (168 per thread)".
    static QString limiterText(const protocol::OccupancyInfo &occupancy);
    // The last compile's report (Kind::Compile, after finished()).
    const protocol::CompiledInfo &compiled() const { return m_compiled; }
    // The compiler's log of the last answer (NVRTC's errors after failed(), ptxas's report after
    // finished()) and the stage it compiled: the Editor marks a user's kernel's lines with it.
    const QString &lastLog() const { return m_lastLog; }
    StageId lastStage() const { return m_stage; }
    // The last disassembly's PTX and SASS (Kind::Disassemble, after finished()).
    const protocol::DisassemblyEvent &disassembly() const { return m_disassembly; }

signals:
    // `kernel`: the kernel's name expression; `summary`: summary() of a compile, "kernel for arch"
    // of a disassembly.
    void finished(const QString &kernel, const QString &summary);
    void failed(const QString &message);

private:
    // How long a compile may keep the runner silent before it is stopped (NVRTC and nvdisasm take
    // seconds; a hung one must not keep "A compile is already running" forever).
    static constexpr int kSilenceLimitMs = 120000;

    void handleEvent(const QJsonObject &json, const DecodedEvent &decoded);
    void runnerEnded(const RunnerEnd &end);
    void releaseRunner(); // after the answer: the job is over, the exiting runner cleans up itself

    Kind m_kind;
    QPointer<RunnerTransport> m_runner;
    QString m_stageTitle;
    StageId m_stage;
    QString m_lastLog;
    protocol::DisassemblyEvent m_disassembly;
    protocol::CompiledInfo m_compiled;
};

} // namespace gemmscope
