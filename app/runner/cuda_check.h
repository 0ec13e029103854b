// CUDA, NVRTC and cuBLAS status checks in nvbench's `cuda_call` style: a failing call becomes a
// RunnerError that carries the call text, file and line, classified into a protocol error kind.
//
//   GEMMSCOPE_CUDA(cudaMalloc(&p, bytes));
//   GEMMSCOPE_NVRTC(nvrtcCreateProgram(...));
//   GEMMSCOPE_CUBLAS(cublasSgemm(...));
#pragma once

#include "runner_error.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

namespace gemmscope::runner {

// Sticky errors (illegal address, launch failure, ...) leave the context unusable for the rest of
// the process; see README.md and docs/protocol.md (device_fault).
ErrorKind classifyCudaError(cudaError_t error);
bool isStickyCudaError(cudaError_t error);
ErrorKind classifyCublasStatus(cublasStatus_t status);

[[noreturn]] void throwCudaError(cudaError_t error, const char *call, const char *file, int line);
[[noreturn]] void throwNvrtcError(nvrtcResult result, const char *call, const char *file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t status, const char *call, const char *file, int line);

} // namespace gemmscope::runner

#define GEMMSCOPE_CUDA(call)                                                                                 \
    do {                                                                                                     \
        const cudaError_t gemmscope_status_ = (call);                                                        \
        if (gemmscope_status_ != cudaSuccess)                                                                \
            ::gemmscope::runner::throwCudaError(gemmscope_status_, #call, __FILE__, __LINE__);               \
    } while (false)

#define GEMMSCOPE_NVRTC(call)                                                                                \
    do {                                                                                                     \
        const nvrtcResult gemmscope_status_ = (call);                                                        \
        if (gemmscope_status_ != NVRTC_SUCCESS)                                                              \
            ::gemmscope::runner::throwNvrtcError(gemmscope_status_, #call, __FILE__, __LINE__);              \
    } while (false)

#define GEMMSCOPE_CUBLAS(call)                                                                               \
    do {                                                                                                     \
        const cublasStatus_t gemmscope_status_ = (call);                                                     \
        if (gemmscope_status_ != CUBLAS_STATUS_SUCCESS)                                                      \
            ::gemmscope::runner::throwCublasError(gemmscope_status_, #call, __FILE__, __LINE__);             \
    } while (false)
