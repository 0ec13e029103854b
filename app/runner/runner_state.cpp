#include "runner_state.h"

#include "events.h"
#include "requests.h"

#include "job_context.h"
#include "request_options.h"
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

TimingProbes RunnerState::timingProbes(JobContext &job)
{
    const DeviceInfo &device = requireDevice();
    if (!m_telemetry)
        m_telemetry = std::make_unique<GpuTelemetry>(device.uuid);
    if (!m_clockProbe) {
        m_clockProbe = std::make_unique<ClockProbe>(compiler, device.cc());
        job.checkCancelled();
    }
    return {m_clockProbe.get(), m_telemetry.get(), double(device.spec.smClockMHz)};
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
        ready.gpu = gpuInfo(*probe.device);
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
        return runCompileJob(state, decodeRequest<protocol::CompileJob>(request), job);
    case RequestType::Run:
        return runGemmJob(state, decodeRequest<protocol::RunJob>(request), job);
    case RequestType::Ceilings:
        return runCeilingsJob(state, decodeRequest<protocol::CeilingsJob>(request), job);
    case RequestType::TraceOwner:
        return runTraceOwnerJob(state, decodeRequest<protocol::TraceOwnerJob>(request), job);
    case RequestType::Fault:
        return runFaultJob(state, decodeRequest<protocol::FaultJob>(request), job);
    case RequestType::Disassemble:
        return runDisassembleJob(state, decodeRequest<protocol::DisassembleJob>(request), job);
    case RequestType::Profile:
        return runProfileJob(state, decodeRequest<protocol::ProfileJob>(request), job);
    case RequestType::Cancel:
    case RequestType::Quit:
        break;
    }
    throw RunnerError(ErrorKind::ProtocolError,
                      QStringLiteral("Unknown job type \"%1\".").arg(protocol::envelopeOf(request).typeName));
}

} // namespace gemmscope::runner
