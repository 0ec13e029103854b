// Everything the worker thread keeps between jobs: the device (or why there is none), the
// compiler with its cache, and the GEMM workspace. Only the worker thread touches it.
#pragma once

#include "gemm_workspace.h"
#include "gpu_device.h"
#include "nvrtc_compiler.h"

#include <QJsonObject>

namespace gemmscope::runner {

class JobContext;

struct RunnerState {
    explicit RunnerState(QString cacheDir);

    QString cacheDir;
    DeviceProbe probe;
    NvrtcCompiler compiler;
    GemmWorkspace workspace;

    // The device, or RunnerError(no_gpu) with the probe's sentence.
    const DeviceInfo &requireDevice() const;
    QJsonObject readyEvent() const;
};

// The job handlers; each throws RunnerError and sends its own events through `job`.
void runCompileJob(RunnerState &state, const QJsonObject &request, JobContext &job);
void runGemmJob(RunnerState &state, const QJsonObject &request, JobContext &job);
void runCeilingsJob(RunnerState &state, const QJsonObject &request, JobContext &job);
void runTraceOwnerJob(RunnerState &state, const QJsonObject &request, JobContext &job);
void runFaultJob(RunnerState &state, const QJsonObject &request, JobContext &job);
void runDisassembleJob(RunnerState &state, const QJsonObject &request, JobContext &job);

// Dispatches on "type"; an unknown type is a protocol_error.
void runJob(RunnerState &state, const QJsonObject &request, JobContext &job);

} // namespace gemmscope::runner
