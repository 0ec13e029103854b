#include "stored_event.h"


namespace gemmscope {

StoredEvent::StoredEvent(const protocol::ResultEvent &result, const QJsonObject &received) : m_event(result)
{
    keepWhatTheTypedEventChanges(received);
}

StoredEvent::StoredEvent(const protocol::ErrorEvent &error, const QJsonObject &received) : m_event(error)
{
    keepWhatTheTypedEventChanges(received);
}

StoredEvent StoredEvent::fromSession(const QJsonObject &stored)
{
    if (stored.isEmpty())
        return {};
    if (protocol::eventTypeOf(stored) == protocol::EventType::Error) {
        protocol::ErrorEvent error;
        protocol::fromJson(stored, error); // a damaged field reads as absent; the rest keeps it
        return StoredEvent(error, stored);
    }
    protocol::ResultEvent result;
    protocol::fromJson(stored, result);
    return StoredEvent(result, stored);
}

QJsonObject StoredEvent::typedJson() const
{
    if (const auto *r = result())
        return protocol::toJson(*r);
    if (const auto *e = error())
        return protocol::toJson(*e);
    return {};
}

// Compared field by field at the top level: a field whose typed writing differs from what came is
// kept whole, as it came (a newer runner's field inside "timing" keeps "timing" as received).
void StoredEvent::keepWhatTheTypedEventChanges(const QJsonObject &received)
{
    const QJsonObject typed = typedJson();
    for (auto it = received.constBegin(); it != received.constEnd(); ++it)
        if (typed.value(it.key()) != it.value())
            m_rest.insert(it.key(), it.value());
    for (auto it = typed.constBegin(); it != typed.constEnd(); ++it)
        if (!received.contains(it.key()))
            m_notThere << it.key();
}

void StoredEvent::setResult(const protocol::ResultEvent &result)
{
    const QJsonObject before = typedJson();
    m_event = result;
    const QJsonObject after = typedJson();
    QStringList keys = before.keys() + after.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        if (before.value(key) == after.value(key))
            continue;
        m_rest.remove(key);
        m_notThere.removeAll(key);
    }
}

QJsonObject StoredEvent::toJson() const
{
    QJsonObject json = typedJson();
    for (const QString &key : m_notThere)
        json.remove(key);
    for (auto it = m_rest.constBegin(); it != m_rest.constEnd(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace gemmscope
