#include "cuda_check.h"

#include <QFileInfo>

namespace gemmscope::runner {

namespace {

QString callSite(const char *call, const char *file, int line)
{
    return QStringLiteral("%1 at %2:%3")
        .arg(QString::fromUtf8(call), QFileInfo(QString::fromUtf8(file)).fileName())
        .arg(line);
}

// One sentence per kind, so that the user reads what happened before the CUDA detail.
QString sentenceFor(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::DeviceFault:
        return QStringLiteral(
            "The GPU reported a fatal fault; the CUDA context is lost and the runner must restart.");
    case ErrorKind::OutOfMemory:
        return QStringLiteral("The GPU ran out of memory.");
    case ErrorKind::OutOfResources:
        return QStringLiteral(
            "The kernel needs more registers or shared memory than the GPU allows for this launch.");
    case ErrorKind::NoGpu:
        return QStringLiteral("No usable CUDA GPU is available.");
    default:
        return QStringLiteral("A CUDA call failed.");
    }
}

} // namespace

bool isStickyCudaError(cudaError_t error)
{
    switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorUnknown:
        return true;
    default:
        return false;
    }
}

ErrorKind classifyCudaError(cudaError_t error)
{
    if (isStickyCudaError(error))
        return ErrorKind::DeviceFault;
    switch (error) {
    case cudaErrorMemoryAllocation:
        return ErrorKind::OutOfMemory;
    case cudaErrorLaunchOutOfResources:
    case cudaErrorCooperativeLaunchTooLarge:
        return ErrorKind::OutOfResources;
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorStubLibrary:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInitializationError:
        return ErrorKind::NoGpu;
    default:
        return ErrorKind::LaunchError;
    }
}

ErrorKind classifyCublasStatus(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED:
        return ErrorKind::OutOfMemory;
    case CUBLAS_STATUS_NOT_INITIALIZED:
        return ErrorKind::NoGpu;
    default:
        return ErrorKind::LaunchError;
    }
}

void throwCudaError(cudaError_t error, const char *call, const char *file, int line)
{
    const ErrorKind kind = classifyCudaError(error);
    // A non-sticky error stays recorded as the "last error" and would fail the next, unrelated
    // check; clear it so that the runner can go on with the next job.
    if (!isStickyCudaError(error))
        (void)cudaGetLastError();
    const QString detail = QStringLiteral("%1 (%2) in %3")
                               .arg(QString::fromUtf8(cudaGetErrorString(error)),
                                    QString::fromUtf8(cudaGetErrorName(error)), callSite(call, file, line));
    throw RunnerError(kind, sentenceFor(kind) + QStringLiteral(" ") + detail, detail);
}

void throwNvrtcError(nvrtcResult result, const char *call, const char *file, int line)
{
    const QString detail =
        QStringLiteral("%1 in %2")
            .arg(QString::fromUtf8(nvrtcGetErrorString(result)), callSite(call, file, line));
    const ErrorKind kind =
        result == NVRTC_ERROR_OUT_OF_MEMORY ? ErrorKind::OutOfMemory : ErrorKind::CompileError;
    throw RunnerError(kind, QStringLiteral("NVRTC failed: ") + detail, detail);
}

void throwCublasError(cublasStatus_t status, const char *call, const char *file, int line)
{
    const ErrorKind kind = classifyCublasStatus(status);
    // cuBLAS reports a kernel fault as EXECUTION_FAILED; the CUDA runtime knows whether it is sticky.
    const cudaError_t pending = cudaPeekAtLastError();
    if (status == CUBLAS_STATUS_EXECUTION_FAILED && isStickyCudaError(pending))
        throwCudaError(pending, call, file, line);
    const QString detail =
        QStringLiteral("%1 (%2) in %3")
            .arg(QString::fromUtf8(cublasGetStatusString(status)),
                 QString::fromUtf8(cublasGetStatusName(status)), callSite(call, file, line));
    throw RunnerError(kind, QStringLiteral("cuBLAS failed: ") + detail, detail);
}

} // namespace gemmscope::runner
