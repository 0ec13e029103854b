// The protocol's name tables (protocol.cpp's event and error kinds, values.cpp's enumerated values)
// are arrays of {enum, spelling} pairs; these read them both ways. Internal to app/protocol.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::protocol::detail {

// The spelling of `value`; empty where the table has none (an Unknown).
template <typename Enum, typename Table> QString nameIn(const Table &table, Enum value)
{
    for (const auto &[e, name] : table)
        if (e == value)
            return QString::fromLatin1(name);
    return {};
}

// The value `name` spells, or none.
template <typename Enum, typename Table> std::optional<Enum> valueIn(const Table &table, const QString &name)
{
    for (const auto &[e, n] : table)
        if (name == QLatin1String(n))
            return e;
    return std::nullopt;
}

// Every spelling, in the table's order.
template <typename Table> QStringList namesIn(const Table &table)
{
    QStringList names;
    for (const auto &entry : table)
        names << QString::fromLatin1(entry.second);
    return names;
}

} // namespace gemmscope::protocol::detail
