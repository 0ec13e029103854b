// What the driver says of the GPU's state while a result is timed — power draw and its limit,
// temperature, the SM clock and why the clocks are held down — read through NVML, the library
// nvidia-smi uses. NVML comes with the driver (libnvidia-ml.so.1), not with the CUDA Toolkit, so it
// is loaded at run time like libcuda (docs/protocol.md, "conditions"): where it is missing or
// refuses, every reading is empty and unavailableReason() says why in one sentence.
#pragma once

#include "values.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::runner {

struct TelemetryReading {
    std::optional<double> powerW;
    std::optional<int> temperatureC, smClockMhz;
    // NVML's "clocks event reasons" bit mask (nvmlClocksEventReason*); empty when not read.
    std::optional<unsigned long long> reasons;
};

// The reasons that hold the clock down, as the protocol names them (power cap, thermal, hardware
// slowdown, power brake), in a fixed order. Idle, application-clock and display reasons
// are not limits on a running kernel and are left out.
QList<protocol::ThrottleReason> throttleReasonsOf(unsigned long long reasons);
// Whether `reasons` holds any of the limits above.
bool holdsClockDown(unsigned long long reasons);

class GpuTelemetry {
public:
    // Opens NVML for the GPU with this CUDA UUID ("GPU-8c1f..."). Never throws.
    explicit GpuTelemetry(const QString &gpuUuid);
    ~GpuTelemetry();
    GpuTelemetry(const GpuTelemetry &) = delete;
    GpuTelemetry &operator=(const GpuTelemetry &) = delete;

    bool available() const { return m_device != nullptr; }
    QString unavailableReason() const { return m_unavailable; }
    TelemetryReading read() const;
    std::optional<double> powerLimitW() const;

private:
    struct Api;
    Api *m_api = nullptr;
    void *m_device = nullptr;
    QString m_unavailable;
};

} // namespace gemmscope::runner
