// Worklog step 0 / the guide's naive kernel: one thread per output element. Every thread walks a
// full row of A and a full column of B in global memory: 2 FLOPs per 8 bytes, 0.25 FLOP/B.
#pragma once
#include "common.cuh"

namespace gemmscope {

template <int BX, int BY> __global__ void naive(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int row = BY * blockIdx.y + threadIdx.y;
    const int col = BX * blockIdx.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        GEMMSCOPE_STORE_C(C[row * N + col], acc);
    }
}

} // namespace gemmscope
