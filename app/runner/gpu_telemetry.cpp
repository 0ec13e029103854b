#include "gpu_telemetry.h"

#include <dlfcn.h>

namespace gemmscope::runner {

namespace {

// NVML's C ABI, as documented in the NVML API reference (docs.nvidia.com/deploy/nvml-api): the
// toolkit installs no nvml.h here, and these few declarations are all the runner calls.
using NvmlReturn = int; // nvmlReturn_t: 0 is NVML_SUCCESS
using NvmlDevice = void *;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;        // nvmlClockType_t NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0; // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU

// nvmlClocksEventReason* bits.
constexpr unsigned long long kSwPowerCap = 0x4, kHwSlowdown = 0x8, kSwThermal = 0x20, kHwThermal = 0x40,
                             kHwPowerBrake = 0x80;

template <typename F> F symbol(void *library, const char *name)
{
    return reinterpret_cast<F>(dlsym(library, name));
}

} // namespace

struct GpuTelemetry::Api {
    void *library = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    const char *(*errorString)(NvmlReturn) = nullptr;
    NvmlReturn (*byUuid)(const char *, NvmlDevice *) = nullptr;
    NvmlReturn (*clockInfo)(NvmlDevice, int, unsigned *) = nullptr;
    NvmlReturn (*powerUsage)(NvmlDevice, unsigned *) = nullptr;
    NvmlReturn (*powerLimit)(NvmlDevice, unsigned *) = nullptr;
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned *) = nullptr;
    NvmlReturn (*reasons)(NvmlDevice, unsigned long long *) = nullptr;
};

QList<protocol::ThrottleReason> throttleReasonsOf(unsigned long long reasons)
{
    using protocol::ThrottleReason;
    QList<ThrottleReason> names;
    if (reasons & kSwPowerCap)
        names << ThrottleReason::PowerCap;
    if (reasons & (kSwThermal | kHwThermal))
        names << ThrottleReason::Thermal;
    if (reasons & kHwSlowdown)
        names << ThrottleReason::HwSlowdown;
    if (reasons & kHwPowerBrake)
        names << ThrottleReason::PowerBrake;
    return names;
}

bool holdsClockDown(unsigned long long reasons)
{
    return (reasons & (kSwPowerCap | kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake)) != 0;
}

GpuTelemetry::GpuTelemetry(const QString &gpuUuid)
{
    void *library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        m_unavailable =
            QStringLiteral("No power, temperature or throttle readings: the driver's NVML library "
                           "(libnvidia-ml.so.1) could not be loaded.");
        return;
    }
    auto api = new Api;
    api->library = library;
    api->init = symbol<decltype(api->init)>(library, "nvmlInit_v2");
    api->shutdown = symbol<decltype(api->shutdown)>(library, "nvmlShutdown");
    api->errorString = symbol<decltype(api->errorString)>(library, "nvmlErrorString");
    api->byUuid = symbol<decltype(api->byUuid)>(library, "nvmlDeviceGetHandleByUUID");
    api->clockInfo = symbol<decltype(api->clockInfo)>(library, "nvmlDeviceGetClockInfo");
    api->powerUsage = symbol<decltype(api->powerUsage)>(library, "nvmlDeviceGetPowerUsage");
    api->powerLimit = symbol<decltype(api->powerLimit)>(library, "nvmlDeviceGetEnforcedPowerLimit");
    api->temperature = symbol<decltype(api->temperature)>(library, "nvmlDeviceGetTemperature");
    // Renamed in CUDA 12.2's NVML ("throttle" became "event"); older drivers have only the old name.
    api->reasons = symbol<decltype(api->reasons)>(library, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!api->reasons)
        api->reasons = symbol<decltype(api->reasons)>(library, "nvmlDeviceGetCurrentClocksThrottleReasons");
    m_api = api;
    if (!api->init || !api->shutdown || !api->byUuid) {
        m_unavailable =
            QStringLiteral("No power, temperature or throttle readings: this driver's NVML library "
                           "lacks nvmlInit_v2 or nvmlDeviceGetHandleByUUID.");
        return;
    }
    if (const NvmlReturn rc = api->init(); rc != kNvmlSuccess) {
        m_unavailable =
            QStringLiteral("No power, temperature or throttle readings: NVML did not start (%1).")
                .arg(api->errorString ? QString::fromUtf8(api->errorString(rc)) : QString::number(rc));
        api->shutdown = nullptr; // nothing to shut down
        return;
    }
    NvmlDevice device = nullptr;
    if (const NvmlReturn rc = api->byUuid(gpuUuid.toUtf8().constData(), &device); rc != kNvmlSuccess) {
        m_unavailable =
            QStringLiteral("No power, temperature or throttle readings: NVML does not know the GPU "
                           "%1 (%2).")
                .arg(gpuUuid,
                     api->errorString ? QString::fromUtf8(api->errorString(rc)) : QString::number(rc));
        return;
    }
    m_device = device;
}

GpuTelemetry::~GpuTelemetry()
{
    if (!m_api)
        return;
    if (m_api->shutdown)
        m_api->shutdown();
    dlclose(m_api->library);
    delete m_api;
}

TelemetryReading GpuTelemetry::read() const
{
    TelemetryReading r;
    if (!m_device)
        return r;
    unsigned value = 0;
    if (m_api->powerUsage && m_api->powerUsage(m_device, &value) == kNvmlSuccess)
        r.powerW = value / 1000.0; // milliwatts
    if (m_api->temperature && m_api->temperature(m_device, kNvmlTemperatureGpu, &value) == kNvmlSuccess)
        r.temperatureC = int(value);
    if (m_api->clockInfo && m_api->clockInfo(m_device, kNvmlClockSm, &value) == kNvmlSuccess)
        r.smClockMhz = int(value);
    unsigned long long reasons = 0;
    if (m_api->reasons && m_api->reasons(m_device, &reasons) == kNvmlSuccess)
        r.reasons = reasons;
    return r;
}

std::optional<double> GpuTelemetry::powerLimitW() const
{
    unsigned milliwatts = 0;
    if (!m_device || !m_api->powerLimit || m_api->powerLimit(m_device, &milliwatts) != kNvmlSuccess)
        return std::nullopt;
    return milliwatts / 1000.0;
}

} // namespace gemmscope::runner
