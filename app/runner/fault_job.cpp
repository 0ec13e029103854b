// The `fault` job (test hook): a kernel that stores through an invalid pointer. The sticky error
// surfaces at the synchronize, becomes a device_fault RunnerError, and the service ends the
// process with status 3 — the path a crashing stage takes.
#include "cuda_check.h"
#include "job_context.h"
#include "loaded_kernel.h"
#include "runner_error.h"
#include "runner_state.h"

namespace gemmscope::runner {

namespace {
const char *const kFaultSource = R"cuda(
extern "C" __global__ void gemmscope_fault(float *p)
{
    // An address in no allocation (the low 4 KiB page is never mapped).
    volatile float *bad = reinterpret_cast<volatile float *>(reinterpret_cast<unsigned long long>(p) & 0xFF0ull);
    *bad = 1.0f;
}
)cuda";
}

void runFaultJob(RunnerState &state, const protocol::FaultJob &, JobContext &)
{
    const DeviceInfo &device = state.requireDevice();
    NvrtcProgram program;
    program.programName = QStringLiteral("fault.cu");
    program.mainSource = kFaultSource;
    program.withKernelHeaders = false;
    program.nameExpression = QStringLiteral("gemmscope_fault");
    program.arch = device.cc();
    const LoadedKernel kernel(state.compiler.compile(program));
    float *p = reinterpret_cast<float *>(0x100);
    void *args[] = {&p};
    kernel.launch(dim3(1), dim3(1), args);
    GEMMSCOPE_CUDA(cudaDeviceSynchronize());
    throw RunnerError(ErrorKind::LaunchError,
                      QStringLiteral("The fault kernel ran without a fault; the GPU did not "
                                     "report the invalid store."));
}

} // namespace gemmscope::runner
