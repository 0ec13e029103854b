// Worklog step 8: step 7's kernel with __restrict__ pointers (no aliasing, so the compiler may
// keep values in registers) and #pragma unroll on the loops with compile-time trip counts
// (BK, TM, TN), which exposes independent FMAs and lets the micro-tile live in registers.
#pragma once
#include "cooperative_load.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void final_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                             int M, int N, int K)
{
    constexpr int ROW_STRIDE = BM / TM;
    constexpr int COL_STRIDE = BN / TN;
    __shared__ float tileA[BM][BK];
    __shared__ float tileB[BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    const int numTiles = (K + BK - 1) / BK;
    for (int t = 0; t < numTiles; ++t) {
        loadTilesCoalesced<BM, BN, BK>(tileA, tileB, A, B, M, N, K, blockRow, blockCol, t * BK);
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float aFrag[TM], bFrag[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                aFrag[i] = GEMMSCOPE_SMEM_READ(tileA[ty + i * ROW_STRIDE][k]);
#pragma unroll
            for (int j = 0; j < TN; ++j)
                bFrag[j] = GEMMSCOPE_SMEM_READ(tileB[k][tx + j * COL_STRIDE]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += aFrag[i] * bFrag[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = blockRow + ty + i * ROW_STRIDE;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = blockCol + tx + j * COL_STRIDE;
            if (row < M && col < N)
                GEMMSCOPE_STORE_C(C[row * N + col], acc[i][j]);
        }
    }
}

} // namespace gemmscope
