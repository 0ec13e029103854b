// Worklog step 1 (TILE = 16) and the guide's 32x32 kernel with a +1 padded B tile (PAD = 1).
// Each thread still computes one output, but the block loads a TILE x TILE tile of A and of B
// into shared memory once and every thread reuses it: T/4 FLOP per global byte.
#pragma once
#include "common.cuh"

namespace gemmscope {

template <int TILE, int PAD>
__global__ void smem_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE + PAD]; // the guide's padding against bank conflicts

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = TILE * blockIdx.y + ty;
    const int col = TILE * blockIdx.x + tx;

    float acc = 0.0f;
    const int numTiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < numTiles; ++t) {
        tileA[ty][tx] = loadOrZero(A, row, t * TILE + tx, M, K, K);
        tileB[ty][tx] = loadOrZero(B, t * TILE + ty, col, K, N, N);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += GEMMSCOPE_SMEM_READ(tileA[ty][k]) * GEMMSCOPE_SMEM_READ(tileB[k][tx]);
        __syncthreads();
    }
    if (row < M && col < N)
        GEMMSCOPE_STORE_C(C[row * N + col], acc);
}

} // namespace gemmscope
