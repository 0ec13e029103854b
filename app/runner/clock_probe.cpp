#include "clock_probe.h"

#include "cuda_check.h"
#include "gpu_wait.h"
#include "nvrtc_compiler.h"

namespace gemmscope::runner {

namespace {

// The global timer may advance in coarse ticks (1 us on some GPUs): the window starts on a tick
// and ends at the first reading past 20 us, itself a fresh tick, so both ends are tick edges and
// the cycle count is over the window the nanoseconds say.
constexpr const char *kClockProbeSource = R"cuda(
extern "C" __global__ void gemmscope_clock_probe(unsigned long long *out)
{
    unsigned long long first, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(first));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now == first);
    const long long cyclesStart = clock64();
    const unsigned long long start = now;
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < 20000ull);
    const long long cyclesEnd = clock64();
    out[0] = (unsigned long long)(cyclesEnd - cyclesStart);
    out[1] = now - start;
}
)cuda";

} // namespace

ClockProbe::ClockProbe(const NvrtcCompiler &compiler, int arch)
{
    m_kernel = std::make_unique<LoadedKernel>(compiler.compile(standaloneProgram(
        QStringLiteral("clock_probe.cu"), kClockProbeSource, QStringLiteral("gemmscope_clock_probe"), arch)));
    m_device.allocate(2, "the clock probe's reading");
    GEMMSCOPE_CUDA(cudaMallocHost(reinterpret_cast<void **>(&m_host), 2 * sizeof(unsigned long long)));
}

ClockProbe::~ClockProbe()
{
    if (m_host)
        cudaFreeHost(m_host);
}

void ClockProbe::enqueue()
{
    unsigned long long *out = m_device.get();
    void *args[] = {&out};
    m_kernel->launch(dim3(1), dim3(1), args);
    GEMMSCOPE_CUDA(cudaMemcpyAsync(m_host, m_device.get(), m_device.bytes(), cudaMemcpyDeviceToHost));
}

double ClockProbe::readMhz()
{
    waitForDefaultStream(); // behind the timed launch: bounded like every wait for it
    const unsigned long long cycles = m_host[0], nanoseconds = m_host[1];
    return nanoseconds > 0 ? 1000.0 * double(cycles) / double(nanoseconds) : 0;
}

} // namespace gemmscope::runner
