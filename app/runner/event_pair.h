// A start and a stop CUDA event, created together and destroyed however the scope ends: what a
// timed launch is measured with (the kernel timer, the profile job's one launch).
#pragma once

#include "cuda_check.h"

#include <cuda_runtime_api.h>

namespace gemmscope::runner {

class EventPair {
public:
    EventPair()
    {
        GEMMSCOPE_CUDA(cudaEventCreate(&start));
        GEMMSCOPE_CUDA(cudaEventCreate(&stop));
    }
    ~EventPair()
    {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    EventPair(const EventPair &) = delete;
    EventPair &operator=(const EventPair &) = delete;
    cudaEvent_t start = nullptr, stop = nullptr;
};

} // namespace gemmscope::runner
