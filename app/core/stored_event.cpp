#include "stored_event.h"

#include <QCborMap>
#include <QCborValue>
#include <QStringList>

namespace gemmscope {

StoredEvent::StoredEvent(Kind kind, const QJsonObject &json)
    : m_kind(kind), m_cbor(QCborMap::fromJsonObject(json).toCborValue().toCbor())
{
}

StoredEvent::StoredEvent(const protocol::ResultEvent &result)
    : StoredEvent(Kind::Result, protocol::toJson(result))
{
}

StoredEvent::StoredEvent(const protocol::ErrorEvent &error)
    : StoredEvent(Kind::Error, protocol::toJson(error))
{
}

// What came is kept as it came, the typed event only saying which kind it is: the typed event,
// written back, would equal it wherever it is typed (a field it cannot read, or one it would write
// otherwise, is kept as received), so writing it back only to compare cost most of a large
// session's read and changed nothing.
StoredEvent::StoredEvent(const protocol::ResultEvent &, const QJsonObject &received)
    : StoredEvent(Kind::Result, received)
{
}

StoredEvent::StoredEvent(const protocol::ErrorEvent &, const QJsonObject &received)
    : StoredEvent(Kind::Error, received)
{
}

StoredEvent StoredEvent::fromSession(const QJsonObject &stored, std::optional<protocol::ResultEvent> *decoded)
{
    if (decoded)
        decoded->reset();
    if (stored.isEmpty())
        return {};
    if (protocol::eventTypeOf(stored) == protocol::EventType::Error)
        return StoredEvent(Kind::Error, stored);
    if (decoded) {
        protocol::ResultEvent result;
        protocol::fromJson(stored, result); // a damaged field reads as absent; the rest keeps it
        *decoded = std::move(result);
    }
    return StoredEvent(Kind::Result, stored);
}

std::optional<protocol::ResultEvent> StoredEvent::result() const
{
    if (m_kind != Kind::Result)
        return std::nullopt;
    protocol::ResultEvent result;
    protocol::fromJson(toJson(), result);
    return result;
}

std::optional<protocol::ErrorEvent> StoredEvent::error() const
{
    if (m_kind != Kind::Error)
        return std::nullopt;
    protocol::ErrorEvent error;
    protocol::fromJson(toJson(), error);
    return error;
}

// What is kept equals what came where the typed event did not change it (the decoding of what is
// kept is the decoding of what came), so a field whose typed writing the new result changes is
// written as the new result writes it, or left out where it no longer writes it.
void StoredEvent::setResult(const protocol::ResultEvent &result)
{
    QJsonObject json = toJson();
    QJsonObject before;
    if (m_kind == Kind::Result)
        before = protocol::toJson(*this->result());
    else if (m_kind == Kind::Error)
        before = protocol::toJson(*error());
    const QJsonObject after = protocol::toJson(result);
    QStringList keys = before.keys() + after.keys();
    keys.removeDuplicates();
    for (const QString &key : std::as_const(keys)) {
        if (before.value(key) == after.value(key))
            continue;
        if (after.contains(key))
            json.insert(key, after.value(key));
        else
            json.remove(key);
    }
    *this = StoredEvent(Kind::Result, json);
}

QJsonObject StoredEvent::toJson() const
{
    if (m_kind == Kind::None)
        return {};
    return QCborValue::fromCbor(cbor()).toMap().toJsonObject();
}

QByteArray StoredEvent::cbor() const
{
    return m_spool ? m_spool->read(m_spoolOffset, m_spoolLength) : m_cbor;
}

void StoredEvent::moveToSpool(const std::vector<StoredEvent *> &events,
                              const std::shared_ptr<EventSpool> &spool)
{
    if (!spool)
        return;
    qsizetype size = 0;
    for (const StoredEvent *event : events)
        size += event->m_spool ? 0 : event->m_cbor.size();
    QByteArray bytes;
    bytes.reserve(size);
    for (const StoredEvent *event : events)
        if (!event->m_spool)
            bytes.append(event->m_cbor);
    const qint64 offset = spool->append(bytes);
    if (offset < 0)
        return;
    qint64 at = offset;
    for (StoredEvent *event : events) {
        if (event->m_spool || event->m_cbor.isEmpty())
            continue;
        event->m_spool = spool;
        event->m_spoolOffset = at;
        event->m_spoolLength = event->m_cbor.size();
        at += event->m_cbor.size();
        event->m_cbor = QByteArray();
    }
}

} // namespace gemmscope
