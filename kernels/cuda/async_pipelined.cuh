// Beyond the seeds, written from pipelined.cuh: tiles copied global -> shared by cp.async
// (sm_80+), STAGES tiles in flight. The copy engine writes shared memory directly, so no
// registers hold the next tile, and up to STAGES - 1 tiles are on their way while the FFMAs
// run. B moves 16 bytes per copy; A, stored transposed, moves 4 bytes per copy, lanes along k
// so that each request still reads whole 32-byte sectors. The inner loop is pipelined's.
#pragma once
#include "async_copy.cuh"
#include "vector_access.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN, int STAGES>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    async_pipelined(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                    int N, int K)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int LANE_ROWS = 4, LANE_COLS = 8;
    constexpr int WM = LANE_ROWS * TM, WN = LANE_COLS * TN;
    constexpr int WARPS_X = BN / WN;
    constexpr int FM = TM / 4, FN = TN / 4;
    constexpr int FRAG_ROW_STEP = WM / FM, FRAG_COL_STEP = WN / FN;
    constexpr int A_COPIES = BM * BK / THREADS, B_COPIES = BK * BN / 4 / THREADS;
    constexpr int A_PAD = 4; // transposed 4-byte copies land in 32 different banks
    static_assert(STAGES >= 2, "a pipeline needs two stages");
    static_assert(THREADS % 32 == 0 && BM % WM == 0 && BN % WN == 0, "warps must tile the block");
    static_assert(A_COPIES * THREADS == BM * BK && B_COPIES * THREADS * 4 == BK * BN,
                  "whole copies per thread");

    __shared__ __align__(16) float tileAT[STAGES][BK][BM + A_PAD]; // A transposed: k-major
    __shared__ __align__(16) float tileB[STAGES][BK][BN];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warpRow = (warp / WARPS_X) * WM, warpCol = (warp % WARPS_X) * WN;
    const int laneRow = (lane / LANE_COLS) * 4, laneCol = (lane % LANE_COLS) * 4;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    // As in pipelined.cuh: a block wholly inside C copies every full tile without bounds checks.
    const bool interior = blockRow + BM <= M && blockCol + BN <= N && N % 4 == 0;
    auto issueTile = [&](int stage, int k0) {
        const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
        for (int l = 0; l < A_COPIES; ++l) {
            const int idx = tid + l * THREADS, r = idx / BK, c = idx % BK;
            if (unchecked)
                copyAsync<4>(&tileAT[stage][c][r], A + (blockRow + r) * K + k0 + c, 4);
            else
                copy1Async(&tileAT[stage][c][r], A, blockRow + r, k0 + c, M, K);
        }
#pragma unroll
        for (int l = 0; l < B_COPIES; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            if (unchecked)
                copyAsync<16>(&tileB[stage][r][c], B + (k0 + r) * N + blockCol + c, 16);
            else
                copy4Async(&tileB[stage][r][c], B, k0 + r, blockCol + c, K, N);
        }
    };

    float acc[TM][TN] = {};
    const int numTiles = (K + BK - 1) / BK;
    // Every thread commits one group per tile, even an empty one, so "STAGES - 2 groups still
    // pending" always means "tile t has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < numTiles)
            issueTile(s, s * BK);
        commitAsyncCopies();
    }
    for (int t = 0; t < numTiles; ++t) {
        waitAsyncCopies<STAGES - 2>();
        __syncthreads(); // tile t is visible to all; every thread is done with tile t-1's stage
        const int refill = t + STAGES - 1;
        if (refill < numTiles)
            issueTile(refill % STAGES, refill * BK);
        commitAsyncCopies();

        const int s = t % STAGES;
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int f = 0; f < FM; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileAT[s][k][warpRow + f * FRAG_ROW_STEP + laneRow]);
                a[4 * f + 0] = v.x, a[4 * f + 1] = v.y, a[4 * f + 2] = v.z, a[4 * f + 3] = v.w;
            }
#pragma unroll
            for (int f = 0; f < FN; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileB[s][k][warpCol + f * FRAG_COL_STEP + laneCol]);
                b[4 * f + 0] = v.x, b[4 * f + 1] = v.y, b[4 * f + 2] = v.z, b[4 * f + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
    }
    waitAsyncCopies<0>(); // no copy may outlive the block

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
