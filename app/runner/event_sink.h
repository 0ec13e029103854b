// Where the runner's events go: one JSON object per line. StdoutEventSink serializes writes from
// the reader and worker threads and flushes each line, so a client never sees half an event.
#pragma once

#include <QJsonObject>
#include <cstdio>
#include <mutex>

namespace gemmscope::runner {

class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void send(const QJsonObject &event) = 0;
};

class StdoutEventSink : public EventSink {
public:
    explicit StdoutEventSink(std::FILE *out = stdout) : m_out(out) {}
    void send(const QJsonObject &event) override;

private:
    std::FILE *m_out;
    std::mutex m_mutex;
};

} // namespace gemmscope::runner
