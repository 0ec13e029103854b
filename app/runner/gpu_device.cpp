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

QString noGpuSentence(cudaError_t error)
{
    const QString detail =
        QStringLiteral(" (%1: %2)")
            .arg(QString::fromUtf8(cudaGetErrorName(error)), QString::fromUtf8(cudaGetErrorString(error)));
    if (error == cudaErrorInsufficientDriver || error == cudaErrorStubLibrary) {
        // The runtime reports "insufficient driver" both when libcuda is missing and when it is too
        // old; telling them apart is worth one dlopen (the runner does not link libcuda).
        if (!QLibrary(QStringLiteral("cuda"), 1).load())
            return QStringLiteral("No CUDA driver is installed on this machine (libcuda.so.1 was not found); "
                                  "GPU runs are unavailable, compile-only mode works.") +
                   detail;
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

} // namespace

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
        probe.error = noGpuSentence(error);
        return probe;
    }

    DeviceInfo d;
    d.name = QString::fromUtf8(prop.name);
    d.cc = prop.major * 10 + prop.minor;
    d.sms = prop.multiProcessorCount;
    d.smClockMHz = attribute(cudaDevAttrClockRate, 0) / 1000; // kHz
    d.l2Bytes = attribute(cudaDevAttrL2CacheSize, 0);
    d.memBytes = static_cast<long long>(prop.totalGlobalMem);
    d.smemPerBlockOptin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    d.smemPerSm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
    d.reservedSmemPerBlock = attribute(cudaDevAttrReservedSharedMemoryPerBlock, 0);
    d.maxThreadsPerSm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, 0);
    d.maxThreadsPerBlock = prop.maxThreadsPerBlock;
    d.maxBlocksPerSm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, 0);
    d.registersPerSm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, 0);
    d.uuid = uuidText(prop.uuid);
    probe.device = d;
    return probe;
}

QJsonObject deviceJson(const DeviceInfo &d)
{
    return QJsonObject{{QStringLiteral("name"), d.name},
                       {QStringLiteral("arch"), d.arch()},
                       {QStringLiteral("cc"), d.cc},
                       {QStringLiteral("sms"), d.sms},
                       {QStringLiteral("sm_clock_mhz"), d.smClockMHz},
                       {QStringLiteral("sm_clock_source"), QStringLiteral("nominal")},
                       {QStringLiteral("l2_bytes"), double(d.l2Bytes)},
                       {QStringLiteral("mem_bytes"), double(d.memBytes)},
                       {QStringLiteral("smem_per_block_optin"), d.smemPerBlockOptin},
                       {QStringLiteral("uuid"), d.uuid}};
}

GpuSpec specFromDevice(const DeviceInfo &d)
{
    GpuSpec spec;
    if (const GpuSpec *known = findGpuForArch(d.cc))
        spec = *known;
    spec.key = QStringLiteral("measured").toStdString();
    spec.name = d.name.toStdString();
    spec.arch = d.cc;
    spec.sms = d.sms;
    spec.l2Bytes = double(d.l2Bytes);
    if (d.maxThreadsPerSm > 0)
        spec.maxThreadsPerSm = d.maxThreadsPerSm;
    if (d.maxBlocksPerSm > 0)
        spec.maxBlocksPerSm = d.maxBlocksPerSm;
    if (d.maxThreadsPerBlock > 0)
        spec.maxThreadsPerBlock = d.maxThreadsPerBlock;
    if (d.registersPerSm > 0)
        spec.registersPerSm = d.registersPerSm;
    if (d.smemPerSm > 0)
        spec.sharedMemPerSm = d.smemPerSm;
    if (d.smemPerBlockOptin > 0)
        spec.sharedMemPerBlockOptin = d.smemPerBlockOptin;
    if (d.reservedSmemPerBlock > 0)
        spec.sharedMemReservedPerBlock = d.reservedSmemPerBlock;
    spec.source = "queried from the device";
    return spec;
}

int parseArch(const QString &arch)
{
    if (!arch.startsWith(QStringLiteral("sm_")))
        return 0;
    bool ok = false;
    const int value = arch.mid(3).toInt(&ok);
    return ok && value > 0 ? value : 0;
}

} // namespace gemmscope::runner
