#include "compile_ahead.h"

#include <QElapsedTimer>
#include <QtGlobal>
#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gemmscope::runner {

namespace {

// Compiles yield the CPU to the GPU worker: a timed launch is bracketed by two CUDA events, so a
// worker thread descheduled between recording the start event and launching would add the wait to
// the kernel's time. Nice 10 on each compile thread (Linux: per thread) lets the scheduler run
// the worker at once; the compiles lose little, since they are only ahead.
void yieldToTheGpuThread()
{
#ifdef __linux__
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

} // namespace

CompileAhead::CompileAhead(Compile compile, int threads, int maxReady)
    : m_compile(std::move(compile)),
      m_maxReady(maxReady > 0 ? maxReady : std::max(8, 4 * std::max(1, threads)))
{
    for (int i = 0; i < std::max(1, threads); ++i)
        m_workers.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_pending.clear();
        m_entries.clear();
    }
    m_changed.notify_all();
    for (std::thread &worker : m_workers)
        worker.join();
}

int CompileAhead::defaultThreads()
{
    bool set = false;
    const int fromEnv = qEnvironmentVariableIntValue("GEMMSCOPE_COMPILE_THREADS", &set);
    if (set)
        return std::max(0, fromEnv);
    return std::max(1, int(std::thread::hardware_concurrency()));
}

void CompileAhead::submit(const QString &jobId, const NvrtcProgram &program)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stop || m_entries.count(jobId))
            return;
        auto entry = std::make_shared<Entry>();
        entry->program = program;
        m_entries.emplace(jobId, entry);
        m_pending.push_back(std::move(entry));
    }
    m_changed.notify_all();
}

void CompileAhead::abandon(const QString &jobId)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(jobId);
    if (it == m_entries.end())
        return;
    it->second->abandoned = true; // a worker skips it, or drops its result
    if (it->second->state == Entry::State::Done)
        --m_held;
    std::erase(m_pending, it->second);
    m_entries.erase(it);
    m_changed.notify_all(); // room for one more finished kernel
}

CompileAhead::Taken CompileAhead::take(const QString &jobId, const NvrtcProgram &program)
{
    QElapsedTimer waited;
    waited.start();
    std::unique_lock lock(m_mutex);
    std::shared_ptr<Entry> entry;
    if (const auto it = m_entries.find(jobId); it != m_entries.end()) {
        entry = it->second;
        m_entries.erase(it);
    }
    if (entry && entry->program == program && entry->state != Entry::State::Queued) {
        m_changed.wait(lock, [&] { return entry->state == Entry::State::Done; });
        --m_held;
        m_changed.notify_all(); // room for one more finished kernel
        Taken taken;
        taken.ahead = true;
        taken.waitMs = double(waited.nsecsElapsed()) / 1e6;
        if (entry->error)
            std::rethrow_exception(entry->error);
        taken.kernel = std::move(*entry->kernel);
        return taken;
    }
    // Not started (or not this program): no worker will take it now; compiling here is as soon as
    // it can be done.
    if (entry) {
        if (entry->state == Entry::State::Done)
            --m_held;
        entry->abandoned = true;
        std::erase(m_pending, entry);
        m_changed.notify_all();
    }
    lock.unlock();
    Taken taken;
    taken.kernel = m_compile(program);
    taken.waitMs = double(waited.nsecsElapsed()) / 1e6;
    return taken;
}

void CompileAhead::work()
{
    yieldToTheGpuThread();
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [this] { return m_stop || (!m_pending.empty() && m_held < m_maxReady); });
        if (m_stop)
            return;
        std::shared_ptr<Entry> entry = std::move(m_pending.front());
        m_pending.pop_front();
        entry->state = Entry::State::Running;
        ++m_held;
        lock.unlock();
        std::optional<CompiledKernel> kernel;
        std::exception_ptr error;
        try {
            kernel = m_compile(entry->program);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        entry->kernel = std::move(kernel);
        entry->error = error;
        entry->state = Entry::State::Done;
        if (entry->abandoned)
            --m_held; // no longer in m_entries: nobody will take it
        m_changed.notify_all();
    }
}

} // namespace gemmscope::runner
