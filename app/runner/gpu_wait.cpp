#include "gpu_wait.h"

#include "cuda_check.h"
#include "job_context.h"
#include "runner_error.h"
#include "runner_service.h"

#include <QElapsedTimer>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace gemmscope::runner {

namespace {

constexpr double kMinDeadlineSeconds = 10;
constexpr double kBudgetsPerDeadline = 20;
constexpr double kDefaultBudgetMs = 1000; // the protocol's default budget_ms

thread_local KernelDeadlineScope *t_scope = nullptr;

[[noreturn]] void kernelTimedOut(double seconds)
{
    const QString message = kernelTimeoutMessage(seconds);
    if (t_scope)
        t_scope->job.send(errorEvent(t_scope->job.id(), RunnerError(ErrorKind::KernelTimeout, message)));
    else
        std::fprintf(stderr, "gemmscope-runner: %s\n", message.toLocal8Bit().constData());
    std::fflush(nullptr);
    // No unwinding: a destructor's cudaFree would wait for the kernel that never ends.
    std::_Exit(RunnerService::DeviceFaulted);
}

// Polls `query` until it answers cudaSuccess: a few milliseconds of yielding (a short kernel is
// seen at once, as a spinning synchronize sees it), then short sleeps (a long one costs no core).
template <typename Query> void pollUntilDone(const char *call, Query query)
{
    const double seconds = t_scope ? t_scope->seconds : kernelDeadlineSeconds(kDefaultBudgetMs);
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        const cudaError_t result = query();
        if (result == cudaSuccess)
            return;
        if (result != cudaErrorNotReady)
            throwCudaError(result, call, __FILE__, __LINE__);
        // A "not ready" answer is kept as the thread's last error; it is no error at all.
        (void)cudaGetLastError();
        const qint64 ns = waited.nsecsElapsed();
        if (double(ns) / 1e9 >= seconds)
            kernelTimedOut(seconds);
        if (ns < 2'000'000)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(ns < 100'000'000 ? 100 : 1000));
    }
}

} // namespace

double kernelDeadlineSeconds(double budgetMs)
{
    const double budget = std::isfinite(budgetMs) && budgetMs > 0 ? budgetMs / 1000 : 0;
    return std::max(kMinDeadlineSeconds, kBudgetsPerDeadline * budget);
}

QString kernelTimeoutMessage(double seconds)
{
    return QStringLiteral("The kernel did not finish within %1 s; it was stopped and the runner restarted.")
        .arg(std::ceil(seconds), 0, 'f', 0);
}

KernelDeadlineScope::KernelDeadlineScope(JobContext &job, double seconds)
    : job(job), seconds(seconds), m_outer(t_scope)
{
    t_scope = this;
}

KernelDeadlineScope::~KernelDeadlineScope()
{
    t_scope = m_outer;
}

void waitForEvent(cudaEvent_t event)
{
    pollUntilDone("cudaEventQuery", [event] { return cudaEventQuery(event); });
}

void waitForDefaultStream()
{
    pollUntilDone("cudaStreamQuery", [] { return cudaStreamQuery(nullptr); });
}

} // namespace gemmscope::runner
