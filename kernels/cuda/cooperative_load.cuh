// Worklog step 3's cooperative tile load, shared by every stage from step 3 on: the block's
// threads stride through each tile by linear thread id, so at every load instruction
// neighbouring lanes read neighbouring addresses (fully used 32-byte sectors).
#pragma once
#include "common.cuh"

namespace gemmscope {

template <int BM, int BN, int BK>
__device__ __forceinline__ void loadTilesCoalesced(float (&tileA)[BM][BK], float (&tileB)[BK][BN],
                                                   const float *A, const float *B, int M, int N, int K,
                                                   int blockRow, int blockCol, int k0)
{
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int numThreads = blockDim.x * blockDim.y;
    for (int i = tid; i < BM * BK; i += numThreads) {
        const int r = i / BK, c = i % BK;
        tileA[r][c] = loadOrZero(A, blockRow + r, k0 + c, M, K, K);
    }
    for (int i = tid; i < BK * BN; i += numThreads) {
        const int r = i / BN, c = i % BN;
        tileB[r][c] = loadOrZero(B, k0 + r, blockCol + c, K, N, N);
    }
}

} // namespace gemmscope
