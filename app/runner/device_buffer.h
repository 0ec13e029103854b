// A cudaMalloc'ed array that frees itself; allocation failure becomes an out_of_memory error
// with a sentence naming what could not be allocated.
#pragma once

#include "runner_error.h"

#include <cstddef>
#include <cuda_runtime_api.h>
#include <utility>

namespace gemmscope::runner {

template <typename T> class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(size_t count, const char *what) { allocate(count, what); }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer &&o) noexcept
        : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(std::exchange(o.m_count, 0))
    {
    }
    DeviceBuffer &operator=(DeviceBuffer &&o) noexcept
    {
        if (this != &o) {
            reset();
            m_ptr = std::exchange(o.m_ptr, nullptr);
            m_count = std::exchange(o.m_count, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    void allocate(size_t count, const char *what)
    {
        reset();
        void *p = nullptr;
        const cudaError_t error = cudaMalloc(&p, count * sizeof(T));
        if (error != cudaSuccess) {
            (void)cudaGetLastError();
            const ErrorKind kind =
                error == cudaErrorMemoryAllocation ? ErrorKind::OutOfMemory : ErrorKind::DeviceFault;
            throw RunnerError(
                kind, QStringLiteral("Could not allocate %1 MiB on the GPU for %2: %3.")
                          .arg(double(count * sizeof(T)) / (1024.0 * 1024.0), 0, 'f', 1)
                          .arg(QString::fromUtf8(what), QString::fromUtf8(cudaGetErrorString(error))));
        }
        m_ptr = static_cast<T *>(p);
        m_count = count;
    }
    void reset()
    {
        if (m_ptr)
            cudaFree(m_ptr);
        m_ptr = nullptr;
        m_count = 0;
    }
    T *get() const { return m_ptr; }
    size_t count() const { return m_count; }
    size_t bytes() const { return m_count * sizeof(T); }

private:
    T *m_ptr = nullptr;
    size_t m_count = 0;
};

} // namespace gemmscope::runner
