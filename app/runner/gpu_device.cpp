#include "gpu_device.h"

#include <QLibrary>
#include <cuda_runtime_api.h>

namespace gemmscope::runner {

namespace {

QString uuidText(const cudaUUID_t &uuid)
{
    // nvidia-smi's spelling: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
    QString hex;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            hex += QLatin1Char('-');
        hex += QStringLiteral("%1").arg(quint8(uuid.bytes[i]), 2, 16, QLatin1Char('0'));
    }
    return QStringLiteral("GPU-") + hex;
}

int attribute(cudaDeviceAttr attr, int device)
{
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess)
        return 0;
    return value;
}

} // namespace

QString noGpuSentence(int cudaError, bool driverLibraryFound)
{
    const auto error = cudaError_t(cudaError);
    const QString detail =
        QStringLiteral(" (%1: %2)")
            .arg(QString::fromUtf8(cudaGetErrorName(error)), QString::fromUtf8(cudaGetErrorString(error)));
    if (error == cudaErrorInsufficientDriver || error == cudaErrorStubLibrary) {
        // The runtime reports "insufficient driver" both when libcuda is missing and when it is too
        // old; probeDevice tells them apart with one dlopen (the runner does not link libcuda). Its
        // words would contradict "missing", so they are left out here.
        if (!driverLibraryFound)
            return QStringLiteral("No CUDA driver is installed on this machine (libcuda.so.1 was not found): "
                                  "GPU runs are unavailable; compiling works without one.");
        return QStringLiteral(
                   "The installed CUDA driver is older than the CUDA %1.%2 runtime the runner was built "
                   "with; update the NVIDIA driver to run on the GPU.")
                   .arg(CUDART_VERSION / 1000)
                   .arg(CUDART_VERSION % 1000 / 10) +
               detail;
    }
    if (error == cudaErrorNoDevice) {
        const QString visible = qEnvironmentVariable("CUDA_VISIBLE_DEVICES");
        QString sentence = QStringLiteral("A CUDA driver is installed but it reports no CUDA device");
        if (qEnvironmentVariableIsSet("CUDA_VISIBLE_DEVICES"))
            sentence += QStringLiteral(" (CUDA_VISIBLE_DEVICES=\"%1\" hides the others)").arg(visible);
        return sentence + QStringLiteral(".") + detail;
    }
    return QStringLiteral("The CUDA runtime could not initialise a GPU.") + detail;
}

DeviceProbe probeDevice()
{
    DeviceProbe probe;
    int count = 0;
    cudaError_t error = cudaGetDeviceCount(&count);
    if (error == cudaSuccess && count == 0)
        error = cudaErrorNoDevice;
    if (error == cudaSuccess)
        error = cudaSetDevice(0);
    if (error == cudaSuccess)
        error = cudaFree(nullptr); // creates the primary context now, not inside the first job
    cudaDeviceProp prop{};
    if (error == cudaSuccess)
        error = cudaGetDeviceProperties(&prop, 0);
    if (error != cudaSuccess) {
        (void)cudaGetLastError();
        const bool driverQuestion = error == cudaErrorInsufficientDriver || error == cudaErrorStubLibrary;
        probe.error = noGpuSentence(error, !driverQuestion || QLibrary(QStringLiteral("cuda"), 1).load());
        return probe;
    }

    // The datasheet of this architecture underneath, the device's own figures over it.
    DeviceInfo d;
    GpuSpec &spec = d.spec;
    if (const GpuSpec *known = findGpuForArch(prop.major * 10 + prop.minor))
        spec = *known;
    spec.key = "measured";
    spec.name = prop.name;
    spec.arch = prop.major * 10 + prop.minor;
    spec.sms = prop.multiProcessorCount;
    spec.smClockMHz = attribute(cudaDevAttrClockRate, 0) / 1000; // kHz
    spec.l2Bytes = attribute(cudaDevAttrL2CacheSize, 0);
    // An attribute the runtime does not answer (0) leaves the datasheet's value.
    auto take = [](int &field, int queried) {
        if (queried > 0)
            field = queried;
    };
    take(spec.maxThreadsPerSm, attribute(cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    take(spec.maxBlocksPerSm, attribute(cudaDevAttrMaxBlocksPerMultiprocessor, 0));
    take(spec.maxThreadsPerBlock, prop.maxThreadsPerBlock);
    take(spec.registersPerSm, attribute(cudaDevAttrMaxRegistersPerMultiprocessor, 0));
    take(spec.sharedMemPerSm, attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    take(spec.sharedMemPerBlockOptin, attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    take(spec.sharedMemReservedPerBlock, attribute(cudaDevAttrReservedSharedMemoryPerBlock, 0));
    spec.source = "queried from the device";
    d.memBytes = static_cast<long long>(prop.totalGlobalMem);
    d.uuid = uuidText(prop.uuid);
    probe.device = d;
    return probe;
}

protocol::GpuInfo gpuIdentity(const DeviceInfo &d)
{
    protocol::GpuInfo gpu;
    gpu.name = d.name();
    gpu.arch = d.arch();
    gpu.uuid = d.uuid;
    return gpu;
}

protocol::GpuInfo gpuInfo(const DeviceInfo &d)
{
    protocol::GpuInfo gpu = gpuIdentity(d);
    gpu.cc = d.cc();
    gpu.sms = d.spec.sms;
    gpu.smClockMhz = int(d.spec.smClockMHz);
    gpu.smClockSource = protocol::valueName(protocol::ClockSource::Nominal);
    gpu.l2Bytes = d.spec.l2Bytes;
    gpu.memBytes = double(d.memBytes);
    gpu.smemPerBlockOptin = d.spec.sharedMemPerBlockOptin;
    return gpu;
}

int parseArch(const QString &arch)
{
    return parseSmArch(arch.toStdString()).value_or(0); // toStdString keeps an embedded NUL: refused
}

} // namespace gemmscope::runner
