// What the nvcc tuning probes share: a CUDA error check, cuBLAS SGEMM (pedantic FP32, the
// reference) for row-major matrices, the relative Frobenius error, and the median of event-timed
// launches after a warm-up. Host code only; include after the CUDA and cuBLAS headers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                             \
    do {                                                                                                     \
        cudaError_t e = (x);                                                                                 \
        if (e != cudaSuccess) {                                                                              \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));           \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

using Kernel = void (*)(const float *, const float *, float *, int, int, int);

static cublasHandle_t handle;

static void cublasGemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}

static double relError(const std::vector<float> &got, const std::vector<float> &want)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (!std::isfinite(got[i]))
            return INFINITY;
        num += double(got[i] - want[i]) * double(got[i] - want[i]);
        den += double(want[i]) * double(want[i]);
    }
    return std::sqrt(num / std::max(den, 1e-30));
}

template <typename F> static double medianMs(F &&launch, int reps)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i)
        launch();
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[t.size() / 2];
}
