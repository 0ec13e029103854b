#include "stored_event.h"

namespace gemmscope {

StoredEvent::StoredEvent(const protocol::ResultEvent &result)
    : m_stored(std::make_shared<const Stored>(Stored{result, {}, {}}))
{
}

StoredEvent::StoredEvent(const protocol::ErrorEvent &error)
    : m_stored(std::make_shared<const Stored>(Stored{error, {}, {}}))
{
}

StoredEvent::StoredEvent(const protocol::ResultEvent &result, const QJsonObject &received)
    : m_stored(keepWhatTheTypedEventChanges({result, {}, {}}, received))
{
}

StoredEvent::StoredEvent(const protocol::ErrorEvent &error, const QJsonObject &received)
    : m_stored(keepWhatTheTypedEventChanges({error, {}, {}}, received))
{
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

QJsonObject StoredEvent::Stored::typedJson() const
{
    if (const auto *r = std::get_if<protocol::ResultEvent>(&event))
        return protocol::toJson(*r);
    if (const auto *e = std::get_if<protocol::ErrorEvent>(&event))
        return protocol::toJson(*e);
    return {};
}

// Compared field by field at the top level: a field whose typed writing differs from what came is
// kept whole, as it came (a newer runner's field inside "timing" keeps "timing" as received).
std::shared_ptr<const StoredEvent::Stored>
StoredEvent::keepWhatTheTypedEventChanges(Stored stored, const QJsonObject &received)
{
    const QJsonObject typed = stored.typedJson();
    for (auto it = received.constBegin(); it != received.constEnd(); ++it)
        if (typed.value(it.key()) != it.value())
            stored.rest.insert(it.key(), it.value());
    for (auto it = typed.constBegin(); it != typed.constEnd(); ++it)
        if (!received.contains(it.key()))
            stored.notThere << it.key();
    return std::make_shared<const Stored>(std::move(stored));
}

void StoredEvent::setResult(const protocol::ResultEvent &result)
{
    Stored changed = m_stored ? *m_stored : Stored{};
    const QJsonObject before = changed.typedJson();
    changed.event = result;
    const QJsonObject after = changed.typedJson();
    QStringList keys = before.keys() + after.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        if (before.value(key) == after.value(key))
            continue;
        changed.rest.remove(key);
        changed.notThere.removeAll(key);
    }
    m_stored = std::make_shared<const Stored>(std::move(changed));
}

QJsonObject StoredEvent::toJson() const
{
    if (!m_stored)
        return {};
    QJsonObject json = m_stored->typedJson();
    for (const QString &key : m_stored->notThere)
        json.remove(key);
    for (auto it = m_stored->rest.constBegin(); it != m_stored->rest.constEnd(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace gemmscope
