// Compiles the kernels of queued jobs ahead, on a pool of CPU threads, while the GPU worker is
// still busy with earlier jobs (the GPU should never wait for a compile that could have
// been done earlier). The reader thread submits a job's NVRTC program when the job is queued; the
// GPU worker, when it reaches the job, takes the finished kernel, waits if it is still compiling,
// or compiles it itself if nobody started it yet. Only the CPU part runs here (NVRTC -> CUBIN and
// the CUBIN cache, both safe for separate programs on separate threads); loading and launching
// stay on the thread that owns the CUDA context.
//
// Results and their order do not change: each job still gets its own kernel (or its own
// compile_error) at its turn. A cancelled or dropped job's compile is abandoned: never started if
// it had not started, thrown away when it ends otherwise.
#pragma once

#include "nvrtc_compiler.h"

#include <QString>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace gemmscope::runner {

class CompileAhead {
public:
    using Compile = std::function<CompiledKernel(const NvrtcProgram &)>;

    // `threads` >= 1 workers calling `compile` (thread-safe for separate programs). At most
    // `maxReady` kernels are compiling or waiting to be taken (0: 4 per thread, at least 8): a sweep of
    // hundreds of queued jobs does not hold hundreds of CUBINs and PTX texts in memory, and the
    // pool works on what the GPU needs next, since it takes the oldest first.
    CompileAhead(Compile compile, int threads, int maxReady = 0);
    // Compiles not yet started are dropped; those in flight finish first (each is one NVRTC call,
    // which cannot be interrupted), so this returns after at most the longest of them.
    ~CompileAhead();
    CompileAhead(const CompileAhead &) = delete;
    CompileAhead &operator=(const CompileAhead &) = delete;

    // Queues the compile of `program` for job `jobId`; compiles start in submission order. A job
    // that already has one keeps it (ids are unique among live jobs).
    void submit(const QString &jobId, const NvrtcProgram &program);
    // The job will not take its compile (cancelled, dropped at quit, or finished without it).
    void abandon(const QString &jobId);

    // Where a job's kernel came from, for the `compiled` event (how long the GPU worker waited).
    struct Taken {
        CompiledKernel kernel;
        bool ahead = false; // compiled on the pool before the job asked for it, or while it waited
        double waitMs = 0;  // how long the caller waited for it
    };
    // The kernel of `program` for `jobId`: the compile done ahead (waiting while it is in flight),
    // or compiled on the calling thread when none was submitted for this job and program or none
    // had started yet. A compile's RunnerError (compile_error) is rethrown here, for this job only.
    Taken take(const QString &jobId, const NvrtcProgram &program);

    int threads() const { return int(m_workers.size()); }

    // The pool size: GEMMSCOPE_COMPILE_THREADS when set (0 turns compile-ahead off), else the
    // machine's hardware threads.
    static int defaultThreads();

private:
    struct Entry {
        NvrtcProgram program;
        enum class State { Queued, Running, Done } state = State::Queued;
        bool abandoned = false;
        std::optional<CompiledKernel> kernel;
        std::exception_ptr error;
    };
    void work();

    Compile m_compile;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::shared_ptr<Entry>> m_pending;        // not started, oldest first
    std::map<QString, std::shared_ptr<Entry>> m_entries; // by job id, until taken or abandoned
    int m_maxReady;
    int m_held = 0; // compiling or finished, not yet taken (or abandoned and finished)
    bool m_stop = false;
    std::vector<std::thread> m_workers;
};

} // namespace gemmscope::runner
