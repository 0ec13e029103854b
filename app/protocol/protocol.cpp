#include "protocol.h"

#include "name_table.h"

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
    return detail::nameIn(kEventTypes, type);
}

std::optional<EventType> eventTypeFromName(const QString &name)
{
    return detail::valueIn<EventType>(kEventTypes, name);
}

bool runnerEndsAfter(ErrorKind kind)
{
    return kind == ErrorKind::DeviceFault || kind == ErrorKind::KernelTimeout;
}

} // namespace gemmscope::protocol
