// Everything the worker thread keeps between jobs: the device (or why there is none), the
// compiler with its cache, and the GEMM workspace. Only the worker thread touches it.
#pragma once

#include "clock_probe.h"
#include "compile_ahead.h"
#include "gemm_workspace.h"
#include "gpu_device.h"
#include "gpu_telemetry.h"
#include "kernel_timer.h"
#include "nvrtc_compiler.h"
#include "profile_process.h"
#include "requests.h"

#include <QJsonObject>
#include <memory>

namespace gemmscope::runner {

class JobContext;

struct RunnerState {
    explicit RunnerState(QString cacheDir);

    QString cacheDir;
    DeviceProbe probe;
    NvrtcCompiler compiler;
    GemmWorkspace workspace;
    // The pool compiling queued jobs' kernels ahead (owned by RunnerService::serve); null: every
    // compile runs in its job (tests, or GEMMSCOPE_COMPILE_THREADS=0).
    CompileAhead *compileAhead = nullptr;
    // How `profile` jobs start and bound their child (the runner's command line may change it).
    ProfileChildOptions profileChild;

    // The device, or RunnerError(no_gpu) with the probe's sentence.
    const DeviceInfo &requireDevice() const;
    // What measures a timed result's conditions (kernel_timer.h), made on first use: the clock
    // probe (compiled once for the device) and NVML (opened once; it may say why it cannot be).
    TimingProbes timingProbes(JobContext &job);

private:
    std::unique_ptr<ClockProbe> m_clockProbe;
    std::unique_ptr<GpuTelemetry> m_telemetry;

public:
    QJsonObject readyEvent() const;
};

// The job handlers, each on its typed request (app/protocol); each throws RunnerError and sends its
// own events through `job`.
void runCompileJob(RunnerState &state, const protocol::CompileJob &request, JobContext &job);
void runGemmJob(RunnerState &state, const protocol::RunJob &request, JobContext &job);
void runCeilingsJob(RunnerState &state, const protocol::CeilingsJob &request, JobContext &job);
void runTraceOwnerJob(RunnerState &state, const protocol::TraceOwnerJob &request, JobContext &job);
void runFaultJob(RunnerState &state, const protocol::FaultJob &request, JobContext &job);
void runDisassembleJob(RunnerState &state, const protocol::DisassembleJob &request, JobContext &job);
void runProfileJob(RunnerState &state, const protocol::ProfileJob &request, JobContext &job);

// Decodes the request through the codec by its "type" and runs its handler: a field the codec
// refuses is a protocol_error with its sentence, an unknown type one too.
void runJob(RunnerState &state, const QJsonObject &request, JobContext &job);

} // namespace gemmscope::runner
