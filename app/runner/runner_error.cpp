#include "runner_error.h"

namespace gemmscope::runner {

std::string_view errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::InvalidConfig:
        return "invalid_config";
    case ErrorKind::CompileError:
        return "compile_error";
    case ErrorKind::OutOfResources:
        return "out_of_resources";
    case ErrorKind::LaunchError:
        return "launch_error";
    case ErrorKind::DeviceFault:
        return "device_fault";
    case ErrorKind::OutOfMemory:
        return "out_of_memory";
    case ErrorKind::WrongResult:
        return "wrong_result";
    case ErrorKind::Cancelled:
        return "cancelled";
    case ErrorKind::NoGpu:
        return "no_gpu";
    case ErrorKind::ProtocolError:
        return "protocol_error";
    }
    return "launch_error";
}

RunnerError::RunnerError(ErrorKind kind, const QString &message, const QString &log, QJsonObject extra)
    : std::runtime_error(message.toStdString()), m_kind(kind), m_message(message), m_log(log),
      m_extra(std::move(extra))
{
}

} // namespace gemmscope::runner
