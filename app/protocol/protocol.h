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

// The longest event line a client reads (and the longest a runner relays from its profile
// child): a profile of a large kernel is a few MiB; a line past this is a broken or hostile writer.
inline constexpr qsizetype kMaxEventLineBytes = 64LL * 1024 * 1024;

// A `profile` job runs in a child process (docs/protocol.md "Profile"). One CUPTI pass of the
// slowest stage at a large size takes seconds, so a child silent this long is stuck in a kernel or
// the driver: the runner stops it and answers the job. A client waits this long plus its own
// margin before it gives up on the runner, so the runner's sentence comes first.
inline constexpr int kProfileSilenceLimitMs = 300000;
// However much it says, a child that has not answered after this long is stopped too (one that
// sends progress forever would otherwise never end without Cancel).
inline constexpr int kProfileTimeLimitMs = 1800000;
// After its answer the child exits; one still there after this long is stopped (its answer stands).
inline constexpr int kProfileExitGraceMs = 5000;

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
    // A launch did not finish within its deadline (a kernel that never ends): the runner exits
    // with status 3 after this event, as after a device fault, and the client starts a new one.
    KernelTimeout,
    // Never sent by the runner: the client's own kinds. RunnerUnavailable: no runner could take
    // the run. RunnerTimeout: the runner said nothing for longer than the run's budget plus a
    // margin (or never said `ready`), so the client killed it. RunnerCrashed: it ended by a signal
    // (kill -9 included) or with a status other than 0 and 3; not a device fault.
    RunnerUnavailable,
    RunnerTimeout,
    RunnerCrashed,
};
QString errorKindName(ErrorKind kind); // "invalid_config", "device_fault", ...
// The kinds after which the runner exits (status 3) and the client must start a new one.
bool runnerEndsAfter(ErrorKind kind);
std::optional<ErrorKind> errorKindFromName(const QString &name);

} // namespace gemmscope::protocol
