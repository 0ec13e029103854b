// What the nvcc tuning probes share: a CUDA error check, cuBLAS SGEMM (pedantic FP32, the
// reference) for row-major matrices, the relative Frobenius error, and the median of event-timed
// launches after a warm-up. Host code only; include after the CUDA and cuBLAS headers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
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

// A, B (seeded uniform in [-1, 1]), C and cuBLAS FP32's C (the reference) on the device, for one
// size. A probe's Buffers derives from it and adds how it launches its kernels.
struct ProbeMatrices {
    float *A = nullptr, *B = nullptr, *C = nullptr, *R = nullptr;
    int M, N, K;
    ProbeMatrices(int m, int n, int k) : M(m), N(n), K(k)
    {
        std::mt19937 gen(42);
        std::uniform_real_distribution<float> d(-1.f, 1.f);
        std::vector<float> a(size_t(m) * k), b(size_t(k) * n);
        for (auto &x : a)
            x = d(gen);
        for (auto &x : b)
            x = d(gen);
        CHECK(cudaMalloc(&A, a.size() * 4));
        CHECK(cudaMalloc(&B, b.size() * 4));
        CHECK(cudaMalloc(&C, size_t(m) * n * 4));
        CHECK(cudaMalloc(&R, size_t(m) * n * 4));
        CHECK(cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
        cublasGemm(A, B, R, m, n, k);
        CHECK(cudaDeviceSynchronize());
    }
    ~ProbeMatrices() { cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(R); }
    ProbeMatrices(const ProbeMatrices &) = delete;
    ProbeMatrices &operator=(const ProbeMatrices &) = delete;
    // C poisoned with NaN, `launch` run, the relative error of C against the reference.
    template <typename F> double errorAfter(F &&launch)
    {
        CHECK(cudaMemset(C, 0xff, size_t(M) * N * 4));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<float> got(size_t(M) * N), want(size_t(M) * N);
        CHECK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(want.data(), R, want.size() * 4, cudaMemcpyDeviceToHost));
        return relError(got, want);
    }
};
