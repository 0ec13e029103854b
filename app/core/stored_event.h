// The runner's final event of a run, as a session keeps it: the event as received, so that a
// session loaded and saved again loses nothing (a newer runner's fields, a damaged one, an integer
// written as a decimal), while every field a view shows is typed in the RunRecord. It is kept as
// the compact CBOR of what toJson() writes, a few kilobytes a run: a session of 100,000 runs held
// each event decoded (its strings as UTF-16, its metrics as map nodes) and took gigabytes. The
// typed event is decoded again only where it is asked for (result(), error(), setResult()). A
// value type; it travels with its RunRecord between the runner thread and the UI. Its bytes are
// shared and never changed once made (setResult makes new ones): a copy costs a reference count,
// as a RunRecord is copied often (a session of 10,000 runs is copied for each autosave), and no
// thread sees another's change.
#pragma once

#include "event_spool.h"
#include "events.h"

#include <QByteArray>
#include <QJsonObject>
#include <memory>
#include <optional>
#include <vector>

namespace gemmscope {

class StoredEvent {
public:
    StoredEvent() = default; // none (a run not yet answered)
    explicit StoredEvent(const protocol::ResultEvent &result);
    explicit StoredEvent(const protocol::ErrorEvent &error);
    // `received` is the event as it came, kept as it came; the typed one, its decoding
    // (protocol::decodeEvent), says which kind it is.
    StoredEvent(const protocol::ResultEvent &result, const QJsonObject &received);
    StoredEvent(const protocol::ErrorEvent &error, const QJsonObject &received);
    // A session's stored event: an error event, else read as a result (a session written before
    // the runner said "event" holds a result's fields). A field of another type reads as absent in
    // the typed event and is written back as it came. `decoded`, where given, gets the typed
    // result (none for an error), so that the record reading it decodes it once.
    static StoredEvent fromSession(const QJsonObject &stored,
                                   std::optional<protocol::ResultEvent> *decoded = nullptr);

    bool isEmpty() const { return m_kind == Kind::None; }
    // The typed event, decoded from what is kept: none where the event is of the other kind.
    std::optional<protocol::ResultEvent> result() const;
    std::optional<protocol::ErrorEvent> error() const;
    // Replaces the typed result; the fields it changes are written as changed, the rest as received.
    void setResult(const protocol::ResultEvent &result);

    // The event as received.
    QJsonObject toJson() const;

    // Moves the events' bytes to `spool` in one write (a piece of a session's runs), each keeping
    // only where its bytes are; where the spool is none or the write fails they stay in RAM.
    static void moveToSpool(const std::vector<StoredEvent *> &events,
                            const std::shared_ptr<EventSpool> &spool);
    bool isSpooled() const { return m_spool != nullptr; }

    friend bool operator==(const StoredEvent &a, const StoredEvent &b)
    {
        if (a.m_kind != b.m_kind)
            return false;
        // Two copies of one spooled event are equal without reading the disk (a session's runs
        // are compared when a view follows a change).
        if (a.m_spool && a.m_spool == b.m_spool && a.m_spoolOffset == b.m_spoolOffset)
            return true;
        return a.cbor() == b.cbor();
    }

private:
    enum class Kind : unsigned char { None, Result, Error };
    StoredEvent(Kind kind, const QJsonObject &json);

    QByteArray cbor() const; // from RAM, or read back from the spool

    Kind m_kind = Kind::None;
    QByteArray m_cbor; // toJson() as CBOR (integers and decimals stay apart, as the text had them)
    // Where m_cbor went, for an event moved to a spool (m_cbor then empty).
    std::shared_ptr<const EventSpool> m_spool;
    qint64 m_spoolOffset = 0;
    qsizetype m_spoolLength = 0;
};

} // namespace gemmscope
