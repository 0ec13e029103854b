// Beyond the seeds, written from pipelined.cuh: the same kernel with its two tile buffers in
// dynamic shared memory. At 128x256, BK 16 the two buffers fill the 48 KiB that static __shared__
// arrays may use, so pipelined drops A's padding there and its transposed A stores run 4-way bank
// conflicts (the Memory per instruction view shows them on its four tileAT stores). Dynamic
// shared memory (the launch opts in past 48 KiB) leaves room for the padding at every shape.
// Measured on an H100 at 8192x4096x6144 (docs/fp32-ladder.md): 92.3 -> 94.7 % of cuBLAS SGEMM.
#pragma once
#include "vector_access.cuh"

namespace gemmscope {

template <int BM, int BN, int BK, int TM, int TN, int SWIZZLE>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    pipelined_padded(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                     int N, int K)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int LANE_ROWS = 4, LANE_COLS = 8;                     // a warp's 32 lanes as 4 x 8
    constexpr int WM = LANE_ROWS * TM, WN = LANE_COLS * TN;         // the warp tile
    constexpr int WARPS_X = BN / WN;                                // warps across the block tile
    constexpr int FM = TM / 4, FN = TN / 4;                         // 4x4 fragments per thread
    constexpr int FRAG_ROW_STEP = WM / FM, FRAG_COL_STEP = WN / FN; // 16 and 32
    constexpr int A_LOADS = BM * BK / 4 / THREADS, B_LOADS = BK * BN / 4 / THREADS;
    // Four floats of padding per row of the transposed A tile spread its stores over the banks: a
    // warp's lanes write 32 / (BK/4) rows of BK/4 groups of k, and without padding every group lands
    // on the same banks (4-way at BK 16). With it, conflict-free at BK 8 and 2-way at BK 16; rows stay
    // 16-byte aligned for the float4 reads. (An XOR swizzle of the columns removes the conflicts
    // without padding, but its per-read address arithmetic cost more than it saved: 92.7 % against
    // 94.7 % on the same H100.)
    constexpr int A_PAD = 4, A_ROW = BM + A_PAD;
    static_assert(THREADS % 32 == 0 && BM % WM == 0 && BN % WN == 0, "warps must tile the block");
    static_assert(A_LOADS * THREADS * 4 == BM * BK && B_LOADS * THREADS * 4 == BK * BN, "whole float4 loads");

    // Two buffers of each tile in the launch's dynamic shared memory: A transposed (k-major), then B.
    extern __shared__ __align__(16) float tiles[];
    auto tileAT = reinterpret_cast<float(*)[BK][A_ROW]>(tiles);
    auto tileB = reinterpret_cast<float(*)[BK][BN]>(tiles + 2 * BK * A_ROW);

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warpRow = (warp / WARPS_X) * WM, warpCol = (warp % WARPS_X) * WN;
    const int laneRow = (lane / LANE_COLS) * 4, laneCol = (lane % LANE_COLS) * 4;

    int blockX = blockIdx.x, blockY = blockIdx.y;
    if (SWIZZLE > 1) {
        const int id = blockIdx.y * gridDim.x + blockIdx.x;
        const int groupSize = SWIZZLE * gridDim.x;
        const int firstY = (id / groupSize) * SWIZZLE;
        const int rowsInGroup = min(int(gridDim.y) - firstY, SWIZZLE);
        blockY = firstY + (id % groupSize) % rowsInGroup;
        blockX = (id % groupSize) / rowsInGroup;
    }
    const int blockRow = blockY * BM, blockCol = blockX * BN;

    // A block wholly inside C, with rows that allow 128-bit accesses, loads every tile but a
    // partial last one without bounds checks: the check is made once per block, not per load.
    const bool interior = blockRow + BM <= M && blockCol + BN <= N && K % 4 == 0 && N % 4 == 0;
    float4 nextA[A_LOADS], nextB[B_LOADS];
    auto loadTile = [&](int k0) {
        const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
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
            const int idx = tid + l * THREADS, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
            tileAT[buf][c + 0][r] = nextA[l].x;
            tileAT[buf][c + 1][r] = nextA[l].y;
            tileAT[buf][c + 2][r] = nextA[l].z;
            tileAT[buf][c + 3][r] = nextA[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&tileB[buf][r][c]) = nextB[l];
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
            loadTile((t + 1) * BK); // in flight while the FFMAs below run
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int f = 0; f < FM; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileAT[cur][k][warpRow + f * FRAG_ROW_STEP + laneRow]);
                a[4 * f + 0] = v.x, a[4 * f + 1] = v.y, a[4 * f + 2] = v.z, a[4 * f + 3] = v.w;
            }
#pragma unroll
            for (int f = 0; f < FN; ++f) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&tileB[cur][k][warpCol + f * FRAG_COL_STEP + laneCol]);
                b[4 * f + 0] = v.x, b[4 * f + 1] = v.y, b[4 * f + 2] = v.z, b[4 * f + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        // Buffer cur^1 was last read in iteration t-1, which ended with the barrier below.
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
