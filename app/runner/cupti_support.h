// What the runner's CUPTI users share (hardware counters, PC sampling, SASS metrics): CUPTI's
// parameter structs, its errors as sentences a user understands, the current device's context
// (through the runtime: the runner does not link libcuda), and the libnvperf_host preload.
#pragma once

#include <cuda.h> // types only
#include <cupti_result.h>

#include <QString>
#include <cstddef>

namespace gemmscope::runner {

// CUPTI's parameter structs: zeroed, with structSize set (CUPTI's version check of the struct).
template <typename Params> Params cuptiParams(size_t structSize)
{
    Params params{};
    params.structSize = structSize;
    return params;
}

// Why a CUPTI measurement could not be made, as the sentence its part of the answer will carry.
struct CuptiFailure {
    QString sentence;
    CUptiResult result = CUPTI_ERROR_UNKNOWN;
};

QString resultName(CUptiResult result);
// "Hardware counters need a permission ...", "... held by another profiler ...": the sentence
// for `result` of `call`.
QString cuptiSentence(CUptiResult result, const char *call);
// Throws CuptiFailure unless `result` is CUPTI_SUCCESS.
void check(CUptiResult result, const char *call);

struct CurrentDevice {
    CUcontext context = nullptr;
    CUdevice device = 0;
};
// The device's primary context, made current on this thread. Throws CuptiFailure.
CurrentDevice currentDevice();

// See the definition: makes libcupti's later dlopen of libnvperf_host.so find it.
void preloadNvperfHost();

} // namespace gemmscope::runner
