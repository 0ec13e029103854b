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

bool runnerEndsAfter(ErrorKind kind)
{
    return kind == ErrorKind::DeviceFault || kind == ErrorKind::KernelTimeout;
}

} // namespace gemmscope::protocol
