/* gemmscope:kernel
name      gemmscope::fp32_variant
title     FP32 pipelined variant
precision fp32
param BM  64..256 step 64 default 128
param BN  64..256 step 64 default 256
param BK  8..32 step 8 default 16
param TM  4..16 step 4 default 8
param TN  4..16 step 4 default 16
param KU  1..16 step 1 default 16
param APAD 0..8 step 4 default 0
param FRAGBUF 0..1 step 1 default 0
param MINB 1..2 step 1 default 1
param SWZ 0..1 step 1 default 0
param DYN 0..1 step 1 default 1
param AMAP 0..1 step 1 default 0
require   BK % KU == 0
block     (BM / TM) * (BN / TN)
grid      ceil_div(N, BN), ceil_div(M, BM)
dynamic_shared DYN * 4 * 2 * BK * (BM + APAD + BN)
shared    (1 - DYN) * 4 * 2 * BK * (BM + APAD + BN)
*/
#include "vector_access.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN, int KU, int APAD, int FRAGBUF, int MINB, int SWZ, int DYN, int AMAP>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), MINB)
    fp32_variant(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                 int K)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int LANE_ROWS = 4, LANE_COLS = 8;
    constexpr int WM = LANE_ROWS * TM, WN = LANE_COLS * TN;
    constexpr int WARPS_X = BN / WN;
    constexpr int FM = TM / 4, FN = TN / 4;
    constexpr int FRAG_ROW_STEP = WM / FM, FRAG_COL_STEP = WN / FN;
    constexpr int A_LOADS = BM * BK / 4 / THREADS, B_LOADS = BK * BN / 4 / THREADS;
    constexpr int AS = BM + APAD;

    // Column of A^T's row k where element (k, m) lives: XOR of bits 3-4 with k's group of four.
    auto acol = [](int k, int m) { return SWZ ? (m ^ (((k >> 2) & 3) << 3)) : m; };
    extern __shared__ __align__(16) float smem[];
    __shared__ __align__(16) float sAT[DYN ? 1 : 2][BK][AS];
    __shared__ __align__(16) float sB[DYN ? 1 : 2][BK][BN];
    auto tileAT = DYN ? reinterpret_cast<float(*)[BK][AS]>(smem) : sAT;
    auto tileB = DYN ? reinterpret_cast<float(*)[BK][BN]>(smem + 2 * BK * AS) : sB;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warpRow = (warp / WARPS_X) * WM, warpCol = (warp % WARPS_X) * WN;
    const int laneRow = (lane / LANE_COLS) * 4, laneCol = (lane % LANE_COLS) * 4;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    const bool interior = blockRow + BM <= M && blockCol + BN <= N && K % 4 == 0 && N % 4 == 0;
    float4 nextA[A_LOADS], nextB[B_LOADS];
    auto loadTile = [&](int k0) {
        const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = AMAP ? idx % BM : idx / (BK / 4), c = AMAP ? (idx / BM) * 4 : (idx % (BK / 4)) * 4;
            nextA[l] = unchecked ? *reinterpret_cast<const float4 *>(A + (blockRow + r) * K + k0 + c)
                                 : load4OrZero(A, blockRow + r, k0 + c, M, K);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            nextB[l] = unchecked ? *reinterpret_cast<const float4 *>(B + (k0 + r) * N + blockCol + c)
                                 : load4OrZero(B, k0 + r, blockCol + c, K, N);
        }
    };
    auto storeTile = [&](int buf) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = AMAP ? idx % BM : idx / (BK / 4), c = AMAP ? (idx / BM) * 4 : (idx % (BK / 4)) * 4;
            tileAT[buf][c + 0][acol(c + 0, r)] = nextA[l].x;
            tileAT[buf][c + 1][acol(c + 1, r)] = nextA[l].y;
            tileAT[buf][c + 2][acol(c + 2, r)] = nextA[l].z;
            tileAT[buf][c + 3][acol(c + 3, r)] = nextA[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&tileB[buf][r][c]) = nextB[l];
        }
    };
    auto loadFrag = [&](int buf, int k, float (&a)[TM], float (&b)[TN]) {
#pragma unroll
        for (int f = 0; f < FM; ++f) {
            const float4 v = *reinterpret_cast<const float4 *>(&tileAT[buf][k][acol(k, warpRow + f * FRAG_ROW_STEP + laneRow)]);
            a[4 * f + 0] = v.x, a[4 * f + 1] = v.y, a[4 * f + 2] = v.z, a[4 * f + 3] = v.w;
        }
#pragma unroll
        for (int f = 0; f < FN; ++f) {
            const float4 v = *reinterpret_cast<const float4 *>(&tileB[buf][k][warpCol + f * FRAG_COL_STEP + laneCol]);
            b[4 * f + 0] = v.x, b[4 * f + 1] = v.y, b[4 * f + 2] = v.z, b[4 * f + 3] = v.w;
        }
    };

    float acc[TM][TN] = {};
    const int numTiles = (K + BK - 1) / BK;
    loadTile(0);
    storeTile(0);
    __syncthreads();
    for (int t = 0; t < numTiles; ++t) {
        const int cur = t % 2;
        if (t + 1 < numTiles)
            loadTile((t + 1) * BK);
        if (FRAGBUF) {
            float a[2][TM], b[2][TN];
            loadFrag(cur, 0, a[0], b[0]);
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                if (k + 1 < BK)
                    loadFrag(cur, k + 1, a[(k + 1) % 2], b[(k + 1) % 2]);
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < TN; ++j)
                        acc[i][j] += a[k % 2][i] * b[k % 2][j];
            }
        } else {
#pragma unroll 1
            for (int k0 = 0; k0 < BK; k0 += KU) {
#pragma unroll
                for (int kk = 0; kk < KU; ++kk) {
                    float a[TM], b[TN];
                    loadFrag(cur, k0 + kk, a, b);
#pragma unroll
                    for (int i = 0; i < TM; ++i)
#pragma unroll
                        for (int j = 0; j < TN; ++j)
                            acc[i][j] += a[i] * b[j];
                }
            }
        }
        if (t + 1 < numTiles)
            storeTile(cur ^ 1);
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
