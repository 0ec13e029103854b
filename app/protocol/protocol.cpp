#include "protocol.h"

#include <array>
#include <utility>

namespace gemmscope::protocol {

namespace {

struct RequestTypeEntry {
    RequestType type;
    const char *name;
    bool job;
};

constexpr std::array<RequestTypeEntry, 9> kRequestTypes{{
    {RequestType::Run, "run", true},
    {RequestType::Compile, "compile", true},
    {RequestType::TraceOwner, "trace_owner", true},
    {RequestType::Disassemble, "disassemble", true},
    {RequestType::Ceilings, "ceilings", true},
    {RequestType::Profile, "profile", true},
    {RequestType::Fault, "fault", true},
    {RequestType::Cancel, "cancel", false},
    {RequestType::Quit, "quit", false},
}};

constexpr std::array<std::pair<EventType, const char *>, 9> kEventTypes{{
    {EventType::Ready, "ready"},
    {EventType::Compiled, "compiled"},
    {EventType::Progress, "progress"},
    {EventType::Result, "result"},
    {EventType::Error, "error"},
    {EventType::Ceilings, "ceilings"},
    {EventType::OwnerMap, "owner_map"},
    {EventType::Disassembly, "disassembly"},
    {EventType::Profile, "profile"},
}};

constexpr std::array<std::pair<ErrorKind, const char *>, 14> kErrorKinds{{
    {ErrorKind::InvalidConfig, "invalid_config"},
    {ErrorKind::CompileError, "compile_error"},
    {ErrorKind::OutOfResources, "out_of_resources"},
    {ErrorKind::LaunchError, "launch_error"},
    {ErrorKind::DeviceFault, "device_fault"},
    {ErrorKind::OutOfMemory, "out_of_memory"},
    {ErrorKind::WrongResult, "wrong_result"},
    {ErrorKind::Cancelled, "cancelled"},
    {ErrorKind::NoGpu, "no_gpu"},
    {ErrorKind::ProtocolError, "protocol_error"},
    {ErrorKind::KernelTimeout, "kernel_timeout"},
    {ErrorKind::RunnerUnavailable, "runner_unavailable"},
    {ErrorKind::RunnerTimeout, "runner_timeout"},
    {ErrorKind::RunnerCrashed, "runner_crashed"},
}};

template <typename Enum, typename Table> QString nameIn(const Table &table, Enum value)
{
    for (const auto &[e, name] : table)
        if (e == value)
            return QString::fromLatin1(name);
    return {};
}

template <typename Enum, typename Table> std::optional<Enum> valueIn(const Table &table, const QString &name)
{
    for (const auto &[e, n] : table)
        if (name == QLatin1String(n))
            return e;
    return std::nullopt;
}

} // namespace

QString requestTypeName(RequestType type)
{
    for (const RequestTypeEntry &e : kRequestTypes)
        if (e.type == type)
            return QString::fromLatin1(e.name);
    return {};
}

std::optional<RequestType> requestTypeFromName(const QString &name)
{
    for (const RequestTypeEntry &e : kRequestTypes)
        if (name == QLatin1String(e.name))
            return e.type;
    return std::nullopt;
}

bool isJob(RequestType type)
{
    for (const RequestTypeEntry &e : kRequestTypes)
        if (e.type == type)
            return e.job;
    return false;
}

const QList<RequestType> &jobTypes()
{
    static const QList<RequestType> types = [] {
        QList<RequestType> out;
        for (const RequestTypeEntry &e : kRequestTypes)
            if (e.job)
                out.append(e.type);
        return out;
    }();
    return types;
}

QString eventTypeName(EventType type)
{
    return nameIn(kEventTypes, type);
}

std::optional<EventType> eventTypeFromName(const QString &name)
{
    return valueIn<EventType>(kEventTypes, name);
}

QString errorKindName(ErrorKind kind)
{
    return nameIn(kErrorKinds, kind);
}

bool runnerEndsAfter(ErrorKind kind)
{
    return kind == ErrorKind::DeviceFault || kind == ErrorKind::KernelTimeout;
}

std::optional<ErrorKind> errorKindFromName(const QString &name)
{
    return valueIn<ErrorKind>(kErrorKinds, name);
}

} // namespace gemmscope::protocol
