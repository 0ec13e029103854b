// Tuning probe for the tensor-core stages (mma_tf32, wgmma_tf32): each configuration verified
// against cuBLAS pedantic FP32 at the TF32 tolerance and timed beside cuBLAS TF32 in one
// process, so ratios are within one run. The product measures through gemmscope-bench; this
// probe sweeps template parameters quickly with nvcc while tuning.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels/cuda -I scripts/probes \
//        scripts/probes/tensor_core_probe.cu -lcublas -lcuda -o tc_probe
//   ./tc_probe [--small|--big]   one JSON object per line; --small: the awkward sizes only (for
//                                compute-sanitizer), --big: 4096^3 only (for ncu); PROBE_ONLY=name
//                                keeps the configurations whose name contains it
#include <cublas_v2.h>
#include <cuda.h>
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

#include "mma_tf32.cuh"
#include "transpose.cuh"
#include "wgmma_tf32.cuh"
#include "wgmma_tma_tf32.cuh"
#include "wgmma_ws_experiment.cuh" // scripts/probes: a negative result, kept to re-measure

using TmaKernel = void (*)(const float *, const float *, float *, int, int, int, const gemmscope::TensorMap,
                           const gemmscope::TensorMap);

struct Config {
    std::string name;
    Kernel kernel;
    int bm, bn, threads, smemBytes;
    bool transposeB = false;       // the kernel reads B^T: transpose_b runs first, inside the timing
    TmaKernel tmaKernel = nullptr; // reads A and BT through tensor maps (kernel is unused then)
};

// A row-major rows x cols FP32 matrix with rows `pitch` floats apart, read in boxes of
// boxRows x 32 floats into 128-byte-swizzled shared tiles; what lies outside reads as zero.
static gemmscope::TensorMap tileMap(const float *base, int rows, int cols, int pitch, int boxRows)
{
    static_assert(sizeof(CUtensorMap) == sizeof(gemmscope::TensorMap));
    gemmscope::TensorMap map;
    const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
    const cuuint64_t strides[1] = {cuuint64_t(pitch) * 4};
    const cuuint32_t box[2] = {32, cuuint32_t(boxRows)}, elementStrides[2] = {1, 1};
    const CUresult r = cuTensorMapEncodeTiled(
        reinterpret_cast<CUtensorMap *>(&map), CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float *>(base),
        dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
        std::exit(1);
    }
    return map;
}

static cublasHandle_t tf32Handle;

struct Buffers : ProbeMatrices {
    float *BT = nullptr; // B transposed, for the kernels that read it
    float *Ap = nullptr; // A with rows padded to a multiple of 4 floats (TMA, when K is not one)
    int pitch;           // K rounded up to a multiple of 4
    Buffers(int m, int n, int k) : ProbeMatrices(m, n, k), pitch((k + 3) / 4 * 4)
    {
        CHECK(cudaMalloc(&BT, size_t(pitch) * n * 4));
        CHECK(cudaMalloc(&Ap, size_t(pitch) * m * 4));
    }
    ~Buffers() { cudaFree(BT), cudaFree(Ap); }
    double check(const Config &c)
    {
        return errorAfter([&] { launch(c); });
    }
    void launch(const Config &c)
    {
        dim3 grid((N + c.bn - 1) / c.bn, (M + c.bm - 1) / c.bm);
        if (c.tmaKernel) {
            const bool padded = K % 4 != 0;
            gemmscope::transpose_b<<<dim3((N + 31) / 32, (K + 31) / 32), dim3(32, 8)>>>(B, BT, K, N, pitch, 0);
            if (padded)
                CHECK(cudaMemcpy2DAsync(Ap, pitch * 4, A, K * 4, K * 4, M, cudaMemcpyDeviceToDevice));
            const float *a = padded ? Ap : A;
            c.tmaKernel<<<grid, c.threads, c.smemBytes>>>(A, BT, C, M, N, K, tileMap(a, M, K, pitch, c.bm),
                                                          tileMap(BT, N, K, pitch, c.bn));
        } else if (c.transposeB) {
            gemmscope::transpose_b<<<dim3((N + 31) / 32, (K + 31) / 32), dim3(32, 8)>>>(B, BT, K, N, K, 0);
            c.kernel<<<grid, c.threads, c.smemBytes>>>(A, BT, C, M, N, K);
        } else {
            c.kernel<<<grid, c.threads, c.smemBytes>>>(A, B, C, M, N, K);
        }
    }
    void tf32()
    {
        const float one = 1.f, zero = 0.f;
        cublasSgemm(tf32Handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    }
};

#define MMA(BM, BN, BK, WM, WN, ST)                                                                          \
    Config                                                                                                   \
    {                                                                                                        \
        "mma_tf32<" #BM "," #BN "," #BK "," #WM "," #WN "," #ST ">",                                         \
            gemmscope::mma_tf32<BM, BN, BK, WM, WN, ST>, BM, BN, (BM / WM) * (BN / WN) * 32,                 \
            ST *(BM * (BK + 4) + BK * (BN + 8)) * 4                                                          \
    }
#define WG(BM, BN, ST)                                                                                       \
    Config                                                                                                   \
    {                                                                                                        \
        "wgmma_tf32<" #BM "," #BN "," #ST ">", gemmscope::wgmma_tf32<BM, BN, ST>, BM, BN, BN / 64 * 128,     \
            ST *(BM + BN) * 32 * 4 + 1024, true                                                              \
    }
#define WS(BM, BN, ST)                                                                                       \
    Config                                                                                                   \
    {                                                                                                        \
        "wgmma_ws<" #BM "," #BN "," #ST ">", gemmscope::wgmma_ws<BM, BN, ST>, BM, BN, 128 + BN / 64 * 128,   \
            (ST * BM * 32 + ST * BN * 32 + ST * 32 * (BN + 4)) * 4 + 16 * ST + 1024                          \
    }

#define TMA(BM, BN, ST)                                                                                      \
    Config                                                                                                   \
    {                                                                                                        \
        "wgmma_tma<" #BM "," #BN "," #ST ">", nullptr, BM, BN, BN / 64 * 128 + 32,                           \
            ST *(BM + BN) * 32 * 4 + 1024 + 16 * ST, true, gemmscope::wgmma_tma_tf32<BM, BN, ST>             \
    }

int main(int argc, char **argv)
{
    CHECK(cudaSetDevice(0));
    cublasCreate(&handle);
    cublasCreate(&tf32Handle);
    cublasSetMathMode(tf32Handle, CUBLAS_TF32_TENSOR_OP_MATH);
    std::vector<Config> configs = {
        MMA(128, 128, 32, 64, 64, 3),
        WG(128, 256, 4),
        WG(256, 128, 4),
        WG(128, 256, 3),
        WG(128, 128, 6),
        WS(256, 128, 3),
        TMA(128, 256, 4),
        TMA(256, 128, 4),
        TMA(128, 128, 6),
        TMA(256, 64, 5),
        TMA(128, 256, 3),
    };
    for (Config &c : configs)
        CHECK(
            c.tmaKernel
                ? cudaFuncSetAttribute(c.tmaKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, c.smemBytes)
                : cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, c.smemBytes));
    const int sizes[][3] = {
        {1000, 777, 333}, {1, 1, 1}, {129, 65, 37}, {8192, 4096, 6144}, {4096, 4096, 4096}};
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const bool big = argc > 1 && std::strcmp(argv[1], "--big") == 0; // 4096^3 only (for ncu)
    if (const char *only = std::getenv("PROBE_ONLY")) // keep the configurations whose name has it
        configs.erase(
            std::remove_if(configs.begin(), configs.end(),
                           [only](const Config &c) { return c.name.find(only) == std::string::npos; }),
            configs.end());
    for (const auto &s : sizes) {
        if ((small && s[0] >= 4096) || (big && s[0] != 4096))
            continue;
        Buffers buf(s[0], s[1], s[2]);
        const bool big = s[0] >= 4096;
        const double tf32Ms = big ? medianMs([&] { buf.tf32(); }, 20) : 0;
        const double fp32Ms =
            big ? medianMs([&] { cublasGemm(buf.A, buf.B, buf.C, buf.M, buf.N, buf.K); }, 10) : 0;
        for (const Config &c : configs) {
            const double err = buf.check(c);
            const double ms = big && err < 5e-3 ? medianMs([&] { buf.launch(c); }, 20) : 0;
            const double flops = 2.0 * s[0] * s[1] * s[2];
            std::printf("{\"config\":\"%s\",\"size\":\"%dx%dx%d\",\"rel_error\":%.3g,\"ms\":%.4f,"
                        "\"tflops\":%.1f,\"cublas_tf32_ms\":%.4f,\"pct_of_cublas_tf32\":%.1f,\"cublas_fp32_"
                        "ms\":%.4f}\n",
                        c.name.c_str(), s[0], s[1], s[2], err, ms, ms > 0 ? flops / ms / 1e9 : 0, tf32Ms,
                        ms > 0 ? 100 * tf32Ms / ms : 0, fp32Ms);
            std::fflush(stdout);
        }
    }
    return 0;
}
