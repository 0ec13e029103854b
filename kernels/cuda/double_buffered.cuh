// Worklog steps 4, 5a and 5b: two shared-memory buffers; the block loads tile t+1 while it
// computes on tile t (ordinary loads through registers, as on the worklog's T4: no cp.async).
// One barrier per tile instead of two, at the price of twice the shared memory.
#pragma once
#include "cooperative_load.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void double_buffered(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tileA[2][BM][BK];
    __shared__ float tileB[2][BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    const int numTiles = (K + BK - 1) / BK;
    loadTilesCoalesced<BM, BN, BK>(tileA[0], tileB[0], A, B, M, N, K, blockRow, blockCol, 0);
    __syncthreads();
    for (int t = 0; t < numTiles; ++t) {
        const int curr = t % 2, next = (t + 1) % 2;
        // Safe without a barrier before it: buffer `next` was last read in iteration t-1,
        // which ended with the barrier below.
        if (t + 1 < numTiles)
            loadTilesCoalesced<BM, BN, BK>(tileA[next], tileB[next], A, B, M, N, K, blockRow, blockCol,
                                           (t + 1) * BK);

        for (int k = 0; k < BK; ++k) {
            float aFrag[TM], bFrag[TN];
            for (int i = 0; i < TM; ++i)
                aFrag[i] = GEMMSCOPE_SMEM_READ(tileA[curr][ty * TM + i][k]);
            for (int j = 0; j < TN; ++j)
                bFrag[j] = GEMMSCOPE_SMEM_READ(tileB[curr][k][tx * TN + j]);
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
