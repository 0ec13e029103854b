// A run record from the JSON of a result or error event, as the tests write their events: decoded
// through the protocol's codec first, as the runner transport does with what it receives.
#pragma once

#include "events.h"
#include "requests.h"
#include "run_record.h"

#include <QJsonObject>

namespace gemmscope {

inline RunRecord fromResultEvent(const QJsonObject &event)
{
    protocol::ResultEvent decoded;
    protocol::fromJson(event, decoded); // a field of another type reads as absent: the checks decide
    return fromResultEvent(decoded, event);
}

// `request` in protocol shape ("type" may be left out): it supplies what an error event lacks.
inline RunRecord fromErrorEvent(const QJsonObject &event, const QJsonObject &request = {})
{
    QJsonObject typedRequest = request;
    typedRequest.insert(QStringLiteral("type"), protocol::requestTypeName(protocol::RequestType::Run));
    protocol::RunJob job;
    protocol::fromJson(typedRequest, job);
    protocol::ErrorEvent e;
    protocol::fromJson(event, e);
    return fromErrorEvent(e, job, event);
}

} // namespace gemmscope
