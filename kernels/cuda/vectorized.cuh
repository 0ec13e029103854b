// Beyond the seeds, written from final.cuh (worklog step 8): 128-bit memory instructions.
// Global loads and the stores of C move four floats each (LDG.128 / STG.128), and the A tile is
// stored transposed (k-major) so that a thread's TM rows of one k sit side by side: the inner
// loop reads its A and B fragments four floats at a time (LDS.128) instead of one. For that a
// thread's micro-tile is contiguous again (rows ty*TM.., columns tx*TN..), not strided.
#pragma once
#include "vector_access.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void vectorized(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                           int M, int N, int K)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    __shared__ __align__(16) float tileAT[BK][BM]; // A transposed: tileAT[k][m]
    __shared__ __align__(16) float tileB[BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * blockDim.x + tx;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    float acc[TM][TN] = {};
    const int numTiles = (K + BK - 1) / BK;
    for (int t = 0; t < numTiles; ++t) {
        const int k0 = t * BK;
        for (int idx = tid; idx < BM * BK / 4; idx += THREADS) {
            const int r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
            const float4 v = load4OrZero(A, blockRow + r, k0 + c, M, K);
            tileAT[c + 0][r] = v.x;
            tileAT[c + 1][r] = v.y;
            tileAT[c + 2][r] = v.z;
            tileAT[c + 3][r] = v.w;
        }
        for (int idx = tid; idx < BK * BN / 4; idx += THREADS) {
            const int r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&tileB[r][c]) = load4OrZero(B, k0 + r, blockCol + c, K, N);
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4 *>(&tileAT[k][ty * TM + i]);
                a[i + 0] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 v = *reinterpret_cast<const float4 *>(&tileB[k][tx * TN + j]);
                b[j + 0] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4(C, blockRow + ty * TM + i, blockCol + tx * TN + j, M, N,
                   make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

} // namespace gemmscope
