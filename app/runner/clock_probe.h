// The SM clock as the SMs count it: a one-thread kernel counts clock64() cycles over ~20 us of
// %globaltimer nanoseconds (docs/protocol.md, "conditions"). Launched right after each timed
// sample, outside its events, it tells at what clock that sample ran — the clock a power cap or a
// hot chip lowers within a second of load — where cudaDevAttrClockRate only gives the nominal one.
#pragma once

#include "device_buffer.h"
#include "loaded_kernel.h"

#include <memory>

namespace gemmscope::runner {

class NvrtcCompiler;

class ClockProbe {
public:
    // Compiles (or takes from the cache) the probe for sm_<arch>; throws RunnerError.
    ClockProbe(const NvrtcCompiler &compiler, int arch);
    ~ClockProbe();
    ClockProbe(const ClockProbe &) = delete;
    ClockProbe &operator=(const ClockProbe &) = delete;

    // Enqueues the probe on the default stream, behind what is queued there.
    void enqueue();
    // Waits for the last enqueued probe (and so for the stream) and returns its clock in MHz.
    double readMhz();
    double measureMhz()
    {
        enqueue();
        return readMhz();
    }

private:
    std::unique_ptr<LoadedKernel> m_kernel;
    DeviceBuffer<unsigned long long> m_device; // cycles, nanoseconds
    unsigned long long *m_host = nullptr;      // pinned: the copy back is asynchronous
};

} // namespace gemmscope::runner
