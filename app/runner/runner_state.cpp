#include "runner_state.h"

#include "job_context.h"
#include "runner_error.h"

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
    QJsonObject ready{{QStringLiteral("event"), QStringLiteral("ready")},
                      {QStringLiteral("protocol"), 1},
                      {QStringLiteral("runner"), QStringLiteral(GEMMSCOPE_RUNNER_VERSION)},
                      {QStringLiteral("nvrtc"), NvrtcCompiler::nvrtcVersion()},
                      {QStringLiteral("cache_dir"), cacheDir}};
    if (probe.device) {
        ready.insert(QStringLiteral("gpu"), deviceJson(*probe.device));
    } else {
        ready.insert(QStringLiteral("gpu"), QJsonValue(QJsonValue::Null));
        ready.insert(QStringLiteral("gpu_error"),
                     QJsonObject{{QStringLiteral("kind"), QStringLiteral("no_gpu")},
                                 {QStringLiteral("message"), probe.error}});
    }
    return ready;
}

void runJob(RunnerState &state, const QJsonObject &request, JobContext &job)
{
    const QString type = request.value(QStringLiteral("type")).toString();
    if (type == QStringLiteral("compile"))
        runCompileJob(state, request, job);
    else if (type == QStringLiteral("run"))
        runGemmJob(state, request, job);
    else if (type == QStringLiteral("ceilings"))
        runCeilingsJob(state, request, job);
    else if (type == QStringLiteral("trace_owner"))
        runTraceOwnerJob(state, request, job);
    else if (type == QStringLiteral("fault"))
        runFaultJob(state, request, job);
    else if (type == QStringLiteral("disassemble"))
        runDisassembleJob(state, request, job);
    else
        throw RunnerError(ErrorKind::ProtocolError, QStringLiteral("Unknown request type \"%1\".").arg(type));
}

} // namespace gemmscope::runner
