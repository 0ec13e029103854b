// Worklog step 3 (64x64) and step 6 (192x192, "double buffering removed"): step 2's kernel with
// cooperative, coalesced tile loads. Each thread still owns a contiguous TM x TN micro-tile.
#pragma once
#include "cooperative_load.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void coalesced(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tileA[BM][BK];
    __shared__ float tileB[BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    const int numTiles = (K + BK - 1) / BK;
    for (int t = 0; t < numTiles; ++t) {
        loadTilesCoalesced<BM, BN, BK>(tileA, tileB, A, B, M, N, K, blockRow, blockCol, t * BK);
        __syncthreads();

        for (int k = 0; k < BK; ++k) {
            float aFrag[TM], bFrag[TN];
            for (int i = 0; i < TM; ++i)
                aFrag[i] = GEMMSCOPE_SMEM_READ(tileA[ty * TM + i][k]);
            for (int j = 0; j < TN; ++j)
                bFrag[j] = GEMMSCOPE_SMEM_READ(tileB[k][tx * TN + j]);
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += aFrag[i] * bFrag[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; ++i) {
        const int row = blockRow + ty * TM + i;
        for (int j = 0; j < TN; ++j) {
            const int col = blockCol + tx * TN + j;
            if (row < M && col < N)
                GEMMSCOPE_STORE_C(C[row * N + col], acc[i][j]);
        }
    }
}

} // namespace gemmscope
