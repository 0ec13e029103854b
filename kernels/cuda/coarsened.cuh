// Worklog step 2: thread coarsening. A block of (BN/TN) x (BM/TM) threads computes a BM x BN
// tile; each thread keeps a TM x TN micro-tile of accumulators in registers and reuses every
// shared-memory value TM or TN times. Loads as in the worklog: only threads with tx < BK load A
// (a vertical strip of TM elements each), only threads with ty < BK load B (TN consecutive
// columns each) — so neighbouring lanes' B loads are TN floats apart and use 1/TN of a sector.
#pragma once
#include "common.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void coarsened(const float *A, const float *B, float *C, int M, int N, int K)
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
        const int k0 = t * BK;
        if (tx < BK)
            for (int i = 0; i < TM; ++i)
                tileA[ty * TM + i][tx] = loadOrZero(A, blockRow + ty * TM + i, k0 + tx, M, K, K);
        if (ty < BK)
            for (int j = 0; j < TN; ++j)
                tileB[ty][tx * TN + j] = loadOrZero(B, k0 + ty, blockCol + tx * TN + j, K, N, N);
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
