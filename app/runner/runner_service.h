// The runner's main loop (docs/protocol.md): a reader thread turns stdin lines into queued jobs
// (`cancel` and `quit` act at once), the calling thread owns the CUDA context and runs the jobs
// in order. Malformed lines get a protocol_error and the runner keeps serving. While the GPU
// worker runs one job, a pool of CPU threads compiles the kernels of the queued `run` and
// `compile` jobs ahead (CompileAhead).
#pragma once

#include "event_sink.h"
#include "job_queue.h"
#include "profile_process.h"

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <istream>
#include <mutex>
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
    // `compileThreads`: the compile-ahead pool's size; 0 compiles each kernel in its job.
    RunnerService(QString cacheDir, EventSink &sink, int compileThreads = 0);

    // How profile jobs start and bound their child process. Before serve().
    void setProfileChildOptions(const ProfileChildOptions &options) { m_profileChild = options; }

    enum ExitCode { Finished = 0, DeviceFaulted = 3 };
    // Sends `ready`, serves until EOF or `quit` (0) or a device fault (3). After a fault the
    // reader thread may still be blocked on `in`: the caller must end the process.
    int serve(std::istream &in);

    // One input line, as the reader thread handles it. Public for tests.
    void handleLine(const QByteArray &line);
    bool quitRequested() const { return m_quit.load(); }

private:
    void readLoop(std::istream &in);

    // Hands a queued job's kernel to the compile-ahead pool; forgets a dropped job's.
    void compileAhead(const QJsonObject &request, const QString &id);
    void abandonAhead(const QString &id);

    QString m_cacheDir;
    EventSink &m_sink;
    int m_compileThreads;
    ProfileChildOptions m_profileChild;
    JobQueue m_queue;
    std::atomic<bool> m_quit{false};
    // Set by serve() while it runs (the reader thread reads them under the mutex).
    std::mutex m_aheadMutex;
    class CompileAhead *m_ahead = nullptr;
    const struct RunnerState *m_state = nullptr;
};

} // namespace gemmscope::runner
