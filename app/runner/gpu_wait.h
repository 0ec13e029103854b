// Bounded waits for the GPU. A user's kernel may never end (an endless loop, a barrier some
// threads never reach); cudaEventSynchronize would then wait for ever and the client would only
// see silence. Every wait of a timed or verified launch polls instead, up to a deadline derived
// from the job's budget. Past it the runner sends `kernel_timeout` for the job and ends the
// process at once, with status 3 like a device fault: the CUDA context dies with the process
// (the only way to stop a running kernel), and no destructor runs a CUDA call that would wait for
// the kernel. The client starts a new runner.
#pragma once

#include <QString>
#include <cuda_runtime_api.h>

namespace gemmscope::runner {

class JobContext;

// The longest a launch may take, in seconds, for a job with this timing budget: 20 times the
// budget, at least 10 s (a launch longer than the whole budget is already far out of the
// ordinary; a small budget still leaves a slow GPU time to finish a large problem). A budget
// that is not a positive finite number counts as none.
double kernelDeadlineSeconds(double budgetMs);

// What the user reads: "The kernel did not finish within 20 s; it was stopped and the runner
// restarted."
QString kernelTimeoutMessage(double seconds);

// While it lives, the waits on this thread have `seconds` and report to `job`. Jobs that launch a
// user-visible kernel (run, trace_owner) hold one; without one the deadline is
// kernelDeadlineSeconds(1000) and the timeout is reported on stderr only.
class KernelDeadlineScope {
public:
    KernelDeadlineScope(JobContext &job, double seconds);
    ~KernelDeadlineScope();
    KernelDeadlineScope(const KernelDeadlineScope &) = delete;
    KernelDeadlineScope &operator=(const KernelDeadlineScope &) = delete;

    JobContext &job;
    const double seconds;

private:
    KernelDeadlineScope *m_outer;
};

// In place of cudaEventSynchronize(event) and cudaStreamSynchronize(nullptr) /
// cudaDeviceSynchronize() (the runner launches on the default stream alone). A CUDA error
// (a fault) is thrown as GEMMSCOPE_CUDA throws it.
void waitForEvent(cudaEvent_t event);
void waitForDefaultStream();

} // namespace gemmscope::runner
