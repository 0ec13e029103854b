// A run record from the JSON of a result event, as the tests write their events: decoded through
// the protocol's codec first, as the runner client does with what it receives.
#pragma once

#include "events.h"
#include "run_record.h"

#include <QJsonObject>

namespace gemmscope {

inline RunRecord fromResultEvent(const QJsonObject &event)
{
    protocol::ResultEvent decoded;
    protocol::fromJson(event, decoded); // a field of another type reads as absent: the checks decide
    return fromResultEvent(decoded, event);
}

} // namespace gemmscope
