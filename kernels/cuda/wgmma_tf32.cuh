// Beyond the seeds, Hopper's tensor cores (sm_90a), written from mma_tf32.cuh: the same cp.async
// multistage pipeline, but a warpgroup (four consecutive warps, 128 threads) issues one
// wgmma.mma_async.m64nNk8 where a warp issued (N/8) x 4 mma.sync instructions, and the tensor
// core runs it asynchronously, reading both operands from shared memory, while the threads
// copy the next tiles.
//
// For TF32, wgmma accepts only K-major operands: k must be the contiguous dimension of both
// tiles. Our A (M x K, row-major) is; our B (K x N) is not. So the runner transposes B first
// (transpose_b in transpose.cuh, inside every timed launch) and this kernel reads BT (N x K).
// Transposing inside the kernel instead (a staging tile and a second barrier per k tile) was
// measured at 49-54 % of cuBLAS TF32 against this design's 69 %: the extra shared-memory traffic
// and instructions cost more than one pass over B (docs/benchmarks.md).
// Each warpgroup computes C transposed,
//     D[64 x BM] = BT[64 x K] . A^T[K x BM],
// so wgmma's A operand is a 64-row slice of the BT tile and its B operand is our A tile: D's
// 64 rows are 64 columns of C (the warpgroup's slice of the block's BN columns), its BM columns
// the block's rows of C.
//
// Shared layouts, both the canonical K-major 128-byte swizzle the descriptors name: a row of
// BK = 32 floats is 128 bytes; its 16-byte chunk q sits at chunk q ^ (row % 8), in 1024-byte
// atoms of 8 rows, so the tensor core's reads and the 16-byte cp.async writes are conflict-free.
// D fragment (PTX ISA, "Register Fragments and Shared Memory Matrix Layouts", wgmma .f32
// accumulator): see storeTransposedAccumulators in wgmma_ops.cuh.
// The inputs are FP32 bit patterns the tensor core truncates to TF32, as in mma_tf32 (which says
// why the runner rounds them to nearest first by default).
#pragma once
#include "async_copy.cuh"
#include "wgmma_ops.cuh"

namespace gemmscope {

template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(BN / 64 * 128)
    wgmma_tf32(const float *__restrict__ A, const float *__restrict__ BT, float *__restrict__ C, int M, int N,
               int K)
{
    constexpr int BK = 32; // one 128-byte swizzle row per tile row
    constexpr int THREADS = BN / 64 * 128;
    constexpr int A_STAGE = BM * BK, B_STAGE = BN * BK; // floats
    constexpr int A_COPIES = BM * BK / 4 / THREADS, B_COPIES = BN * BK / 4 / THREADS;
    static_assert(STAGES >= 3, "one stage is multiplied, one drains in the tensor core, one loads");
    static_assert(BM == 64 || BM == 128 || BM == 256, "wgmma's N is the block's rows: 64, 128 or 256");
    static_assert(A_COPIES * THREADS * 4 == BM * BK && B_COPIES * THREADS * 4 == BN * BK,
                  "whole 16-byte copies per thread");

    // The swizzle is a function of the shared address, so tiles must start 1024-byte aligned;
    // the launch passes 1 KiB more than the tiles need and the base is rounded up here.
    extern __shared__ __align__(16) float smemRaw[];
    float *smem =
        reinterpret_cast<float *>((reinterpret_cast<unsigned long long>(smemRaw) + 1023) & ~1023ull);
    float *tilesA = smem, *tilesBT = smem + STAGES * A_STAGE; // STAGES x [BM][32], [BN][32]

    const int tid = threadIdx.x;
    const int groupCol = (tid / 128) * 64; // the warpgroup's 64 columns of the block
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    const bool interior = blockRow + BM <= M && blockCol + BN <= N && K % 4 == 0;
    auto issueTile = [&](int stage, int k0) {
        float *as = tilesA + stage * A_STAGE, *bs = tilesBT + stage * B_STAGE;
        const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
        for (int l = 0; l < A_COPIES; ++l) { // eight lanes move one 128-byte row
            const int idx = tid + l * THREADS, r = idx / 8, q = idx % 8;
            float *dst = &as[swizzled(r, q * 4)];
            if (unchecked)
                copyAsync<16>(dst, A + (blockRow + r) * K + k0 + q * 4, 16);
            else
                copy4Async(dst, A, blockRow + r, k0 + q * 4, M, K);
        }
#pragma unroll
        for (int l = 0; l < B_COPIES; ++l) {
            const int idx = tid + l * THREADS, r = idx / 8, q = idx % 8;
            float *dst = &bs[swizzled(r, q * 4)];
            if (unchecked)
                copyAsync<16>(dst, BT + (blockCol + r) * K + k0 + q * 4, 16);
            else
                copy4Async(dst, BT, blockCol + r, k0 + q * 4, N, K);
        }
    };

    float d[BM / 2] = {};
    const int numTiles = (K + BK - 1) / BK;
    // In flight at iteration t: tiles t + 1 .. t + STAGES - 2 loading, t multiplied, t - 1 possibly
    // still being read by its wgmmas. The refill reuses tile t - 2's stage, which the previous
    // iteration's wait retired.
#pragma unroll
    for (int s = 0; s < STAGES - 2; ++s) {
        if (s < numTiles)
            issueTile(s, s * BK);
        commitAsyncCopies();
    }
    for (int tile = 0; tile < numTiles; ++tile) {
        waitAsyncCopies<STAGES - 3>();
        fenceProxyAsync(); // this thread's copies reach the tensor core (the async proxy)
        __syncthreads();   // tile `tile` has landed everywhere; tile - 2's wgmmas are retired
        const int refill = tile + STAGES - 2;
        if (refill < numTiles)
            issueTile(refill % STAGES, refill * BK);
        commitAsyncCopies();
        // The previous tile's wgmmas are retired on return: its stage may be refilled.
        multiplyTileAsync<BM>(d, tilesBT + (tile % STAGES) * B_STAGE + groupCol * BK,
                              tilesA + (tile % STAGES) * A_STAGE);
    }
    wgmmaWait<0>();
    fenceAccumulators(d);
    waitAsyncCopies<0>(); // no copy may outlive the block

    storeTransposedAccumulators<BM>(C, d, M, N, blockRow, blockCol + groupCol);
}

} // namespace gemmscope
