// Tuning probe for the FP32 stages past the worklog (vectorized, warptiled, pipelined,
// async_pipelined): each configuration verified against cuBLAS SGEMM and timed beside it in one
// process, so ratios are within one run. The product measures through gemmscope-bench; this
// probe exists to sweep template parameters quickly with nvcc while tuning.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I kernels/cuda -I scripts/probes scripts/probes/fp32_stages_probe.cu
//   -lcublas
//   ./a.out [--quick]      prints one JSON object per line
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "probe_common.h"

#include "async_pipelined.cuh"
#include "pipelined.cuh"
#include "vectorized.cuh"
#include "warptiled.cuh"

struct Config {
    std::string name;
    Kernel kernel;
    int bm, bn;
    dim3 block;
    bool swizzleAware = false;
};

struct Buffers : ProbeMatrices {
    using ProbeMatrices::ProbeMatrices;
    double check(const Config &c)
    {
        return errorAfter([&] { launch(c); });
    }
    void launch(const Config &c)
    {
        dim3 grid((N + c.bn - 1) / c.bn, (M + c.bm - 1) / c.bm);
        c.kernel<<<grid, c.block>>>(A, B, C, M, N, K);
    }
};

#define PIPE(BM, BN, BK, TM, TN, SW)                                                                         \
    Config                                                                                                   \
    {                                                                                                        \
        "pipelined<" #BM "," #BN "," #BK "," #TM "," #TN "," #SW ">",                                        \
            gemmscope::pipelined<BM, BN, BK, TM, TN, SW>, BM, BN, dim3((BM / TM) * (BN / TN))                \
    }
#define ASYNC(BM, BN, BK, TM, TN, ST)                                                                        \
    Config                                                                                                   \
    {                                                                                                        \
        "async_pipelined<" #BM "," #BN "," #BK "," #TM "," #TN "," #ST ">",                                  \
            gemmscope::async_pipelined<BM, BN, BK, TM, TN, ST>, BM, BN, dim3((BM / TM) * (BN / TN))          \
    }
#define WARP(BM, BN, BK, TM, TN)                                                                             \
    Config                                                                                                   \
    {                                                                                                        \
        "warptiled<" #BM "," #BN "," #BK "," #TM "," #TN ">", gemmscope::warptiled<BM, BN, BK, TM, TN>, BM,  \
            BN, dim3((BM / TM) * (BN / TN))                                                                  \
    }
#define VEC(BM, BN, BK, TM, TN)                                                                              \
    Config                                                                                                   \
    {                                                                                                        \
        "vectorized<" #BM "," #BN "," #BK "," #TM "," #TN ">", gemmscope::vectorized<BM, BN, BK, TM, TN>,    \
            BM, BN, dim3(BN / TN, BM / TM)                                                                   \
    }

// Why does a per-launch timing of cuBLAS TF32 read slower than a plain loop? Times the same
// GEMM three ways: each launch bracketed by events and synchronised before the next (the bench
// before 2026-11-30), the same with no host synchronisation between launches (events queued
// back to back, read at the end), and a plain loop of N launches between two events.
static void tf32Baseline(int M, int N, int K)
{
    Buffers buf(M, N, K);
    cublasHandle_t tf32;
    cublasCreate(&tf32);
    cublasSetMathMode(tf32, CUBLAS_TF32_TENSOR_OP_MATH);
    auto gemm = [&] {
        const float one = 1.f, zero = 0.f;
        cublasSgemm(tf32, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, buf.B, N, buf.A, K, &zero, buf.C, N);
    };
    const int reps = 200;
    for (int round = 0; round < 6; ++round) {
        const double synced = medianMs(gemm, reps);
        std::vector<cudaEvent_t> ev(reps + 1);
        for (auto &event : ev)
            CHECK(cudaEventCreate(&event));
        for (int i = 0; i < 3; ++i)
            gemm();
        CHECK(cudaEventRecord(ev[0]));
        for (int i = 0; i < reps; ++i) {
            gemm();
            CHECK(cudaEventRecord(ev[i + 1]));
        }
        CHECK(cudaEventSynchronize(ev[reps]));
        std::vector<float> each(reps);
        for (int i = 0; i < reps; ++i)
            CHECK(cudaEventElapsedTime(&each[i], ev[i], ev[i + 1]));
        float loop = 0;
        CHECK(cudaEventElapsedTime(&loop, ev[0], ev[reps]));
        std::sort(each.begin(), each.end());
        std::printf("{\"tf32_baseline\":\"%dx%dx%d\",\"round\":%d,\"synced_median_ms\":%.4f,"
                    "\"queued_median_ms\":%.4f,\"loop_mean_ms\":%.4f}\n",
                    M, N, K, round, synced, each[reps / 2], loop / reps);
        for (auto &event : ev)
            cudaEventDestroy(event);
    }
    cublasDestroy(tf32);
}

int main(int argc, char **argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    cublasCreate(&handle);
    cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
    if (argc > 1 && std::strcmp(argv[1], "--tf32-baseline") == 0) {
        tf32Baseline(8192, 4096, 6144);
        tf32Baseline(4096, 4096, 4096);
        return 0;
    }
    std::vector<Config> configs = {
        VEC(128, 128, 8, 8, 8),       WARP(128, 128, 16, 8, 8),     PIPE(128, 128, 16, 8, 16, 1),
        PIPE(128, 256, 16, 8, 16, 1), PIPE(128, 128, 16, 8, 16, 2), ASYNC(128, 128, 16, 8, 16, 2),
        ASYNC(128, 128, 8, 8, 16, 3), ASYNC(128, 128, 8, 8, 16, 4), ASYNC(128, 256, 8, 8, 16, 3),
        ASYNC(128, 128, 8, 16, 8, 3), ASYNC(128, 128, 8, 8, 8, 3),
    };
    for (auto &c : configs) {
        cudaFuncAttributes attr{};
        CHECK(cudaFuncGetAttributes(&attr, c.kernel));
        int blocks = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, c.kernel, c.block.x * c.block.y, 0));
        std::printf("{\"config\":\"%s\",\"regs\":%d,\"local_bytes\":%zu,\"smem\":%zu,\"blocks_per_sm\":%d}\n",
                    c.name.c_str(), attr.numRegs, attr.localSizeBytes, attr.sharedSizeBytes, blocks);
    }
    // Correctness at awkward sizes first.
    const int awkward[][3] = {
        {1, 1, 1}, {1000, 777, 333}, {129, 65, 17}, {257, 511, 1031}, {1024, 1024, 1024}};
    for (auto &s : awkward) {
        Buffers buf(s[0], s[1], s[2]);
        for (auto &c : configs) {
            const double err = buf.check(c);
            std::printf("{\"check\":\"%s\",\"size\":\"%dx%dx%d\",\"rel_err\":%.3g,\"ok\":%s}\n",
                        c.name.c_str(), s[0], s[1], s[2], err, err < 1e-5 ? "true" : "false");
        }
    }
    const int sizes[][3] = {{8192, 4096, 6144}, {4096, 4096, 4096}};
    for (auto &s : sizes) {
        Buffers buf(s[0], s[1], s[2]);
        const double flops = 2.0 * s[0] * s[1] * double(s[2]);
        const int reps = quick ? 7 : 21;
        const double cublasMs = medianMs([&] { cublasGemm(buf.A, buf.B, buf.C, buf.M, buf.N, buf.K); }, reps);
        std::printf("{\"size\":\"%dx%dx%d\",\"config\":\"cublas_sgemm\",\"ms\":%.4f,\"tflops\":%.2f}\n", s[0],
                    s[1], s[2], cublasMs, flops / cublasMs / 1e9);
        for (auto &c : configs) {
            const double err = buf.check(c);
            const double ms = medianMs([&] { buf.launch(c); }, reps);
            std::printf(
                "{\"size\":\"%dx%dx%d\",\"config\":\"%s\",\"ms\":%.4f,\"tflops\":%.2f,\"pct_cublas\":%.1f,"
                "\"rel_err\":%.3g}\n",
                s[0], s[1], s[2], c.name.c_str(), ms, flops / ms / 1e9, 100.0 * cublasMs / ms, err);
        }
        const double cublasMs2 =
            medianMs([&] { cublasGemm(buf.A, buf.B, buf.C, buf.M, buf.N, buf.K); }, reps);
        std::printf("{\"size\":\"%dx%dx%d\",\"config\":\"cublas_sgemm_again\",\"ms\":%.4f}\n", s[0], s[1],
                    s[2], cublasMs2);
    }
    return 0;
}
