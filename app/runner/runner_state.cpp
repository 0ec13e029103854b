#include "runner_state.h"

#include "events.h"
#include "requests.h"

#include "job_context.h"
#include "runner_error.h"

#include <QSysInfo>

namespace gemmscope::runner {

RunnerState::RunnerState(QString dir) : cacheDir(std::move(dir)), probe(probeDevice()), compiler(cacheDir) {}

const DeviceInfo &RunnerState::requireDevice() const
{
    if (!probe.device)
        throw RunnerError(ErrorKind::NoGpu, probe.error);
    return *probe.device;
}

QJsonObject RunnerState::readyEvent() const
{
    protocol::ReadyEvent ready;
    ready.protocol = protocol::kVersion;
    ready.runner = QStringLiteral(GEMMSCOPE_RUNNER_VERSION);
    ready.nvrtc = NvrtcCompiler::nvrtcVersion();
    ready.cacheDir = cacheDir;
    ready.host = QSysInfo::machineHostName(); // so that results from several machines name theirs
    if (probe.device) {
        const DeviceInfo &d = *probe.device;
        protocol::GpuInfo gpu;
        gpu.name = d.name;
        gpu.arch = d.arch();
        gpu.cc = d.cc;
        gpu.sms = d.sms;
        gpu.smClockMhz = d.smClockMHz;
        gpu.smClockSource = QStringLiteral("nominal");
        gpu.l2Bytes = double(d.l2Bytes);
        gpu.memBytes = double(d.memBytes);
        gpu.smemPerBlockOptin = d.smemPerBlockOptin;
        gpu.uuid = d.uuid;
        ready.gpu = gpu;
    } else {
        ready.gpuErrorKind = protocol::errorKindName(ErrorKind::NoGpu);
        ready.gpuErrorMessage = probe.error;
    }
    return protocol::toJson(ready);
}

void runJob(RunnerState &state, const QJsonObject &request, JobContext &job)
{
    using protocol::RequestType;
    const std::optional<RequestType> type = protocol::requestTypeOf(request);
    switch (type.value_or(RequestType::Quit)) {
    case RequestType::Compile:
        return runCompileJob(state, request, job);
    case RequestType::Run:
        return runGemmJob(state, request, job);
    case RequestType::Ceilings:
        return runCeilingsJob(state, request, job);
    case RequestType::TraceOwner:
        return runTraceOwnerJob(state, request, job);
    case RequestType::Fault:
        return runFaultJob(state, request, job);
    case RequestType::Disassemble:
        return runDisassembleJob(state, request, job);
    case RequestType::Cancel:
    case RequestType::Quit:
        break;
    }
    throw RunnerError(
        ErrorKind::ProtocolError,
        QStringLiteral("Unknown job type \"%1\".").arg(request.value(QStringLiteral("type")).toString()));
}

} // namespace gemmscope::runner
