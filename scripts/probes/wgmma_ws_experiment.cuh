// Experiment, not a stage: wgmma_tf32 with warp specialization. Warpgroup 0 produces (cp.async
// copies and the B transpose), warpgroups 1..BN/64 only multiply, stages handed over through
// mbarriers. Measured on the H200: 30 % of cuBLAS TF32 against wgmma_tf32's 49-52 %:
// one producer warpgroup cannot issue the copies and the transpose as fast as the tensor cores
// consume them (docs/benchmarks.md). Build: see tensor_core_probe.cu (-I scripts/probes).
#pragma once
#ifndef GEMMSCOPE_PRODUCER_REGS
#define GEMMSCOPE_PRODUCER_REGS 0
#define GEMMSCOPE_CONSUMER_REGS 0
#endif
#include "tma.cuh" // the mbarrier helpers
#include "wgmma_tf32.cuh"

namespace gemmscope {

// Producer warpgroup only (128 threads): named barrier 1, the block barrier 0 left alone.
__device__ __forceinline__ void producerSync()
{
    asm volatile("bar.sync 1, 128;\n" ::: "memory");
}

template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(128 + BN / 64 * 128, 1)
    wgmma_ws(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
             int K)
{
    constexpr int BK = 32, PRODUCERS = 128;
    constexpr int CONSUMERS = BN / 64 * 128;
    constexpr int STAGING_PITCH = BN + 4;
    constexpr int A_STAGE = BM * BK, STAGING_STAGE = BK * STAGING_PITCH, BT_TILE = BN * BK; // floats
    constexpr int A_COPIES = BM * BK / 4 / PRODUCERS, B_COPIES = BK * BN / 4 / PRODUCERS;
    // The producer publishes tile t - 1 after waiting for tile t's stage, which the consumers free
    // once they have multiplied tile t - STAGES + 1: with two stages each would wait for the other.
    static_assert(STAGES >= 3, "the handover needs three stages");
    static_assert(BM == 64 || BM == 128 || BM == 256, "wgmma's N is the block's rows: 64, 128 or 256");

    extern __shared__ __align__(16) float smemRaw[];
    float *smem =
        reinterpret_cast<float *>((reinterpret_cast<unsigned long long>(smemRaw) + 1023) & ~1023ull);
    float *tilesA = smem;                         // STAGES x [BM][32] swizzled
    float *tilesBT = tilesA + STAGES * A_STAGE;   // STAGES x [BN][32] swizzled
    float *stagingB = tilesBT + STAGES * BT_TILE; // STAGES x [32][BN + 4]
    unsigned long long *full = reinterpret_cast<unsigned long long *>(stagingB + STAGES * STAGING_STAGE);
    unsigned long long *empty = full + STAGES;

    const int tid = threadIdx.x;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;
    const int numTiles = (K + BK - 1) / BK;
    if (tid == 0)
        for (int s = 0; s < STAGES; ++s) {
            barrierInit(&full[s], PRODUCERS);
            barrierInit(&empty[s], CONSUMERS);
        }
    __syncthreads();

    // Registers move from the producer, which holds addresses only, to the consumers' accumulators
    // (setmaxnreg, sm_90a): 128 x 40 + CONSUMERS x 232 fits the SM's 64 K for two consumer groups.
    if (tid < PRODUCERS) {
#if GEMMSCOPE_PRODUCER_REGS
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(GEMMSCOPE_PRODUCER_REGS));
#endif
        const bool interior = blockRow + BM <= M && blockCol + BN <= N && N % 4 == 0 && K % 4 == 0;
        auto issueTile = [&](int stage, int k0) {
            float *as = tilesA + stage * A_STAGE, *bs = stagingB + stage * STAGING_STAGE;
            const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
            for (int l = 0; l < A_COPIES; ++l) {
                const int idx = tid + l * PRODUCERS, r = idx / 8, q = idx % 8;
                float *dst = &as[swizzled(r, q * 4)];
                if (unchecked)
                    copyAsync<16>(dst, A + (blockRow + r) * K + k0 + q * 4, 16);
                else
                    copy4Async(dst, A, blockRow + r, k0 + q * 4, M, K);
            }
#pragma unroll
            for (int l = 0; l < B_COPIES; ++l) {
                const int idx = tid + l * PRODUCERS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
                if (unchecked)
                    copyAsync<16>(&bs[r * STAGING_PITCH + c], B + (k0 + r) * N + blockCol + c, 16);
                else
                    copy4Async(&bs[r * STAGING_PITCH + c], B, k0 + r, blockCol + c, K, N);
            }
        };
        auto publishTile = [&](int tile) { // staging -> transposed, then hand the stage over
            const int stage = tile % STAGES;
            const float *bs = stagingB + stage * STAGING_STAGE;
            float *bt = tilesBT + stage * BT_TILE;
            producerSync(); // every producer's copies of this tile have landed
#pragma unroll
            for (int l = 0; l < B_COPIES; ++l) {
                const int idx = tid + l * PRODUCERS, n = idx % BN, k = (idx / BN) * 4;
                const float4 v =
                    make_float4(bs[k * STAGING_PITCH + n], bs[(k + 1) * STAGING_PITCH + n],
                                bs[(k + 2) * STAGING_PITCH + n], bs[(k + 3) * STAGING_PITCH + n]);
                *reinterpret_cast<float4 *>(&bt[swizzled(n, k)]) = v;
            }
            fenceProxyAsync(); // A's copies and the transposed B reach the tensor core
            barrierArrive(&full[stage]);
        };
        for (int tile = 0; tile < numTiles; ++tile) {
            const int stage = tile % STAGES;
            if (tile >= STAGES)
                barrierWait(&empty[stage], (tile / STAGES - 1) & 1);
            issueTile(stage, tile * BK);
            commitAsyncCopies();
            if (tile >= 1) {
                waitAsyncCopies<1>();
                publishTile(tile - 1);
            }
        }
        waitAsyncCopies<0>();
        if (numTiles >= 1)
            publishTile(numTiles - 1);
        return;
    }

#if GEMMSCOPE_PRODUCER_REGS
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(GEMMSCOPE_CONSUMER_REGS));
#endif
    const int ctid = tid - PRODUCERS;
    const int groupCol = (ctid / 128) * 64;
    float d[BM / 2] = {};
    for (int tile = 0; tile < numTiles; ++tile) {
        const int stage = tile % STAGES;
        barrierWait(&full[stage], (tile / STAGES) & 1);
        multiplyTileAsync<BM>(d, tilesBT + stage * BT_TILE + groupCol * BK, tilesA + stage * A_STAGE);
        if (tile >= 1)
            barrierArrive(&empty[(tile - 1) % STAGES]);
    }
    wgmmaWait<0>();
    fenceAccumulators(d);
    storeTransposedAccumulators<BM>(C, d, M, N, blockRow, blockCol + groupCol);
}

} // namespace gemmscope
