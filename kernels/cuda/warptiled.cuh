// Beyond the seeds, written from vectorized.cuh: warp tiling. The block tile is split into warp
// tiles (WM x WN = 4*TM x 8*TN), and a warp's 32 lanes sit as 4 x 8 inside it. Each thread's
// TM x TN micro-tile is a grid of 4x4 fragments spaced 16 rows and 32 columns apart, so at
// every 128-bit shared read the lanes of a quarter-warp read the same A fragment (a broadcast)
// and eight neighbouring B fragments (128 contiguous bytes): no bank conflicts, and each warp
// touches a compact region of the tiles, which keeps its operands in registers longer.
#pragma once
#include "vector_access.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    warptiled(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
              int K)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int LANE_ROWS = 4, LANE_COLS = 8;             // a warp's 32 lanes as 4 x 8
    constexpr int WM = LANE_ROWS * TM, WN = LANE_COLS * TN; // the warp tile
    constexpr int WARPS_X = BN / WN;
    constexpr int FM = TM / 4, FN = TN / 4;                         // 4x4 fragments per thread
    constexpr int FRAG_ROW_STEP = WM / FM, FRAG_COL_STEP = WN / FN; // 16 and 32
    constexpr int A_PAD = 4; // spreads the transposed stores of A over the banks (conflict-free at BK 8)
    static_assert(THREADS % 32 == 0 && BM % WM == 0 && BN % WN == 0, "warps must tile the block");

    __shared__ __align__(16) float tileAT[BK][BM + A_PAD];
    __shared__ __align__(16) float tileB[BK][BN];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warpRow = (warp / WARPS_X) * WM, warpCol = (warp % WARPS_X) * WN;
    const int laneRow = (lane / LANE_COLS) * 4, laneCol = (lane % LANE_COLS) * 4;
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
            for (int f = 0; f < FM; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileAT[k][warpRow + f * FRAG_ROW_STEP + laneRow]);
                a[4 * f + 0] = v.x, a[4 * f + 1] = v.y, a[4 * f + 2] = v.z, a[4 * f + 3] = v.w;
            }
#pragma unroll
            for (int f = 0; f < FN; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileB[k][warpCol + f * FRAG_COL_STEP + laneCol]);
                b[4 * f + 0] = v.x, b[4 * f + 1] = v.y, b[4 * f + 2] = v.z, b[4 * f + 3] = v.w;
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
    for (int fm = 0; fm < FM; ++fm)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int row = blockRow + warpRow + fm * FRAG_ROW_STEP + laneRow + i;
#pragma unroll
            for (int fn = 0; fn < FN; ++fn) {
                const int col = blockCol + warpCol + fn * FRAG_COL_STEP + laneCol;
                const float *v = &acc[4 * fm + i][4 * fn];
                store4(C, row, col, M, N, make_float4(v[0], v[1], v[2], v[3]));
            }
        }
}

} // namespace gemmscope
