#include "cupti_support.h"

#include "cuda_check.h"

#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <QFile>
#include <QFileInfo>
#include <dlfcn.h>

namespace gemmscope::runner {

namespace {

// A driver function through the runtime, so that the runner needs no libcuda link (see the header).
template <typename Function> Function driverFunction(const char *symbol, unsigned int cudaVersion)
{
    void *function = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t error =
        cudaGetDriverEntryPointByVersion(symbol, &function, cudaVersion, cudaEnableDefault, &status);
    if (error != cudaSuccess || status != cudaDriverEntryPointSuccess || !function) {
        (void)cudaGetLastError();
        throw CuptiFailure{
            QStringLiteral("The CUDA driver does not provide %1, which CUPTI's profiling needs (%2).")
                .arg(QString::fromUtf8(symbol),
                     error != cudaSuccess ? QString::fromUtf8(cudaGetErrorName(error))
                                          : QStringLiteral("entry point query status %1").arg(int(status)))};
    }
    return reinterpret_cast<Function>(function);
}

} // namespace

QString resultName(CUptiResult result)
{
    const char *name = nullptr;
    if (cuptiGetResultString(result, &name) == CUPTI_SUCCESS && name)
        return QString::fromUtf8(name);
    return QStringLiteral("CUPTI error %1").arg(int(result));
}

QString cuptiSentence(CUptiResult result, const char *call)
{
    const QString where = QStringLiteral("%1 returned %2").arg(QString::fromUtf8(call), resultName(result));
    switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return QStringLiteral(
                   "Hardware counters need a permission this user does not have: run the runner as "
                   "root, or allow every user to read GPU performance counters (NVIDIA driver "
                   "option NVreg_RestrictProfilingToAdminUsers=0; see "
                   "https://developer.nvidia.com/CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) (%1).")
            .arg(where);
    case CUPTI_ERROR_HARDWARE_BUSY:
        return QStringLiteral("The GPU's performance counters are held by another profiler (Nsight Compute, "
                              "Nsight Systems, DCGM, ...); close it to read counters (%1).")
            .arg(where);
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return QStringLiteral("Another profiling tool is attached to the runner process, so CUPTI cannot "
                              "read counters for GemmScope (%1).")
            .arg(where);
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        return QStringLiteral("CUPTI does not know one of the requested metrics on this GPU (%1).")
            .arg(where);
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
        return QStringLiteral(
                   "CUPTI cannot read hardware counters on this GPU in its current configuration (%1).")
            .arg(where);
    default:
        break;
    }
    const char *message = nullptr;
    QString detail;
    if (cuptiGetErrorMessage(result, &message) == CUPTI_SUCCESS && message)
        detail = QString::fromUtf8(message).trimmed();
    QString sentence = QStringLiteral("CUPTI failed (%1").arg(where);
    if (!detail.isEmpty() && detail != resultName(result))
        sentence += QStringLiteral(": ") + detail;
    return sentence + QStringLiteral(").");
}

void check(CUptiResult result, const char *call)
{
    if (result != CUPTI_SUCCESS)
        throw CuptiFailure{cuptiSentence(result, call), result};
}

// The Profiler Host API in libcupti opens libnvperf_host.so by its bare name when profiling
// starts, which finds it only through the loader's search path. Loading it first from the
// directory libcupti itself came from (the same toolkit) makes that lookup succeed wherever the
// toolkit is not in ld.so.cache; the loader then matches the bare name to the loaded library.
// Failure is ignored: CUPTI then names its own error.
void preloadNvperfHost()
{
    static const bool once = [] {
        Dl_info info{};
        if (dladdr(reinterpret_cast<void *>(&cuptiGetResultString), &info) == 0 || !info.dli_fname)
            return false;
        const QString path = QFileInfo(QString::fromLocal8Bit(info.dli_fname)).absolutePath() +
                             QStringLiteral("/libnvperf_host.so");
        return dlopen(QFile::encodeName(path).constData(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
    }();
    (void)once;
}

CurrentDevice currentDevice()
{
    GEMMSCOPE_CUDA(cudaFree(nullptr)); // makes the device's primary context current on this thread
    // cuCtxGetDevice changed its signature in CUDA 13: ask for the 2.0 one explicitly.
    const auto getCurrent = driverFunction<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000);
    const auto getDevice = driverFunction<PFN_cuCtxGetDevice_v2000>("cuCtxGetDevice", 2000);
    CurrentDevice current;
    if (getCurrent(&current.context) != CUDA_SUCCESS || !current.context)
        throw CuptiFailure{QStringLiteral("No CUDA context is current, so CUPTI has nothing to profile.")};
    CUdevice_v1 device = 0;
    if (getDevice(&device) != CUDA_SUCCESS)
        throw CuptiFailure{QStringLiteral("cuCtxGetDevice failed for the runner's context.")};
    current.device = device;
    return current;
}

} // namespace gemmscope::runner
