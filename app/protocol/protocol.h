// The gemmscope-runner protocol's vocabulary in one place: its version, the request types (which
// of them are jobs), the event types and the error kinds, each with the one spelling
// docs/protocol.md gives it. QtCore only; the runner, RunnerClient, the bench and the tests use it.
#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope::protocol {

// `protocol` in the `ready` event. A change that removes or renames a field increments it; new
// optional fields do not. Clients refuse a runner that speaks another version.
inline constexpr int kVersion = 1;

enum class RequestType { Run, Compile, TraceOwner, Disassemble, Ceilings, Profile, Fault, Cancel, Quit };
QString requestTypeName(RequestType type); // "run", "trace_owner", ...
std::optional<RequestType> requestTypeFromName(const QString &name);
// Jobs carry an id, queue and run one at a time; cancel and quit act at once.
bool isJob(RequestType type);
const QList<RequestType> &jobTypes(); // in the order docs/protocol.md lists them

enum class EventType { Ready, Compiled, Progress, Result, Error, Ceilings, OwnerMap, Disassembly, Profile };
QString eventTypeName(EventType type); // "ready", "owner_map", ...
std::optional<EventType> eventTypeFromName(const QString &name);

enum class ErrorKind {
    InvalidConfig,
    CompileError,
    OutOfResources,
    LaunchError,
    DeviceFault,
    OutOfMemory,
    WrongResult,
    Cancelled,
    NoGpu,
    ProtocolError,
    // Never sent by the runner: the client's own kinds. RunnerUnavailable: no runner could take
    // the run. RunnerTimeout: the runner said nothing for longer than the run's budget plus a
    // margin (or never said `ready`), so the client killed it. RunnerCrashed: it ended by a signal
    // (kill -9 included) or with a status other than 0 and 3; not a device fault.
    RunnerUnavailable,
    RunnerTimeout,
    RunnerCrashed,
};
QString errorKindName(ErrorKind kind); // "invalid_config", "device_fault", ...
std::optional<ErrorKind> errorKindFromName(const QString &name);

} // namespace gemmscope::protocol
