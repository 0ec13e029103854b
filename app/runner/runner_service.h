// The runner's main loop (docs/protocol.md): a reader thread turns stdin lines into queued jobs
// (`cancel` and `quit` act at once), the calling thread owns the CUDA context and runs the jobs
// in order. Malformed lines get a protocol_error and the runner keeps serving.
#pragma once

#include "event_sink.h"
#include "job_queue.h"

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <istream>
#include <string>

namespace gemmscope::runner {

// The longest request line the runner reads; a longer one is skipped to its end and answered
// with a protocol_error, so a runaway client cannot make the runner hold gigabytes.
inline constexpr std::size_t kMaxRequestLineBytes = 64u * 1024 * 1024;

enum class LineRead { Line, TooLong, End };
// One line of `in` without its '\n' into `line`, at most `maxBytes` of it. TooLong: the line was
// longer; it has been consumed up to and including its '\n', and `line` holds nothing. End: no
// more input. Reads in linear time through the stream's buffer.
LineRead readBoundedLine(std::istream &in, std::string &line, std::size_t maxBytes = kMaxRequestLineBytes);

class RunnerService {
public:
    RunnerService(QString cacheDir, EventSink &sink);

    enum ExitCode { Finished = 0, DeviceFaulted = 3 };
    // Sends `ready`, serves until EOF or `quit` (0) or a device fault (3). After a fault the
    // reader thread may still be blocked on `in`: the caller must end the process.
    int serve(std::istream &in);

    // One input line, as the reader thread handles it. Public for tests.
    void handleLine(const QByteArray &line);
    bool quitRequested() const { return m_quit.load(); }

private:
    void readLoop(std::istream &in);

    QString m_cacheDir;
    EventSink &m_sink;
    JobQueue m_queue;
    std::atomic<bool> m_quit{false};
};

} // namespace gemmscope::runner
