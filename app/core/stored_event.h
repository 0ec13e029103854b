// The runner's final event of a run, as a session keeps it: decoded once (the typed result or
// error), plus what of the event as received the typed one would not write back the same — a
// newer runner's fields, a damaged one, an integer written as a decimal. That rest is opaque:
// nothing reads it but toJson(), so that a session loaded and saved again loses nothing while
// every field a view shows comes from the typed event. A value type; it travels with its
// RunRecord between the runner thread and the UI. Its contents are shared and never changed once
// made (setResult makes new ones): a copy costs a pointer, as a RunRecord is copied often (a
// session of 10,000 runs is copied for each autosave), and no thread sees another's change.
#pragma once

#include "events.h"

#include <QJsonObject>
#include <QStringList>
#include <memory>
#include <variant>

namespace gemmscope {

class StoredEvent {
public:
    StoredEvent() = default; // none (a run not yet answered)
    explicit StoredEvent(const protocol::ResultEvent &result);
    explicit StoredEvent(const protocol::ErrorEvent &error);
    // `received` is the event as it came; the typed one is its decoding (protocol::decodeEvent).
    StoredEvent(const protocol::ResultEvent &result, const QJsonObject &received);
    StoredEvent(const protocol::ErrorEvent &error, const QJsonObject &received);
    // A session's stored event: an error event, else read as a result (a session written before
    // the runner said "event" holds a result's fields), decoded once here. A field of another
    // type reads as absent in the typed event and is kept, as it came, in the opaque rest.
    static StoredEvent fromSession(const QJsonObject &stored);

    bool isEmpty() const { return !m_stored; }
    const protocol::ResultEvent *result() const
    {
        return m_stored ? std::get_if<protocol::ResultEvent>(&m_stored->event) : nullptr;
    }
    const protocol::ErrorEvent *error() const
    {
        return m_stored ? std::get_if<protocol::ErrorEvent>(&m_stored->event) : nullptr;
    }
    // Replaces the typed result; the fields it changes are written as changed, the rest as received.
    void setResult(const protocol::ResultEvent &result);

    // The event as received (the typed one, written by the codec, with the opaque rest laid over it).
    QJsonObject toJson() const;

    friend bool operator==(const StoredEvent &a, const StoredEvent &b)
    {
        return a.m_stored == b.m_stored || (a.m_stored && b.m_stored && *a.m_stored == *b.m_stored);
    }

private:
    struct Stored {
        std::variant<std::monostate, protocol::ResultEvent, protocol::ErrorEvent> event;
        QJsonObject rest;     // received fields the typed event writes otherwise, as they came
        QStringList notThere; // fields the typed event writes that the received one did not have
        QJsonObject typedJson() const;
        friend bool operator==(const Stored &, const Stored &) = default;
    };
    static std::shared_ptr<const Stored> keepWhatTheTypedEventChanges(Stored stored,
                                                                      const QJsonObject &received);

    std::shared_ptr<const Stored> m_stored; // none: no event
};

} // namespace gemmscope
