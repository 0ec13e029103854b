// Beyond the seeds, Hopper's copy engine (sm_90a), written from wgmma_tf32.cuh: the same
// warpgroups issuing wgmma.m64nNk8 on 128-byte-swizzled K-major tiles, computing C transposed from
// A and BT, but the tiles are no longer copied by every thread with cp.async. One producer thread
// names each tile by its coordinates and the Tensor Memory Accelerator (TMA) copies it, swizzled,
// into shared memory; mbarriers, not __syncthreads, pace the pipeline:
//
//   producer (the block's last warp, one thread)      consumer warpgroup g (128 threads each)
//   for each k tile t, stage s = t % STAGES:            for each k tile t:
//     wait empty[s] (its last reader is done)             wait full[s] (its bytes have landed)
//     full[s]: expect the tile's bytes; TMA A, TMA BT     four wgmma m64nBMk8 on stage s
//                                                         once t's group is issued, t - 1's is done:
//                                                         arrive on empty[(t - 1) % STAGES]
//
// The consumers never wait for each other, and no thread spends registers or issue slots on copy
// addresses: the copies of STAGES tiles run while the tensor cores multiply.
//
// The runner builds the two tensor maps (cuTensorMapEncodeTiled: FP32, 128-byte swizzle, boxes of
// 32 x BM floats of A and 32 x BN of BT) and passes them after the usual arguments; A and BT are
// passed too but read only through the maps. The copy engine zero-fills boxes that run past M, N
// or K, so ragged edges need no code here. A map's row pitch must be a multiple of 16 bytes: when
// K is not a multiple of 4 the runner maps a copy of A with rows padded to one, and writes BT with
// that row pitch.
//
// One thread per consumer warpgroup releases a stage: wgmma is a warpgroup-wide operation, so when
// that thread's wait says the group is done, all four warps' share of it has read shared memory.
#pragma once
#include "common.cuh"
#include "tma.cuh"
#include "wgmma_ops.cuh"

namespace gemmscope {

template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(BN / 64 * 128 + 32)
    wgmma_tma_tf32(const float *__restrict__ A, const float *__restrict__ BT, float *__restrict__ C, int M,
                   int N, int K, const __grid_constant__ TensorMap mapA,
                   const __grid_constant__ TensorMap mapBT)
{
    constexpr int BK = 32; // one 128-byte swizzle row per tile row
    constexpr int CONSUMERS = BN / 64;
    constexpr int A_STAGE = BM * BK, B_STAGE = BN * BK; // floats
    constexpr unsigned STAGE_BYTES = (A_STAGE + B_STAGE) * sizeof(float);
    static_assert(STAGES >= 2, "one stage is multiplied while the next one loads");
    static_assert(BM == 64 || BM == 128 || BM == 256, "wgmma's N is the block's rows: 64, 128 or 256");
    static_assert(BN % 64 == 0, "each consumer warpgroup owns 64 columns of C");
    (void)A, (void)BT;

    // Tiles 1024-byte aligned (the swizzle is a function of the shared address; the launch passes
    // 1 KiB more than it needs), then the barriers.
    extern __shared__ __align__(16) float smemRaw[];
    float *smem =
        reinterpret_cast<float *>((reinterpret_cast<unsigned long long>(smemRaw) + 1023) & ~1023ull);
    float *tilesA = smem, *tilesBT = smem + STAGES * A_STAGE; // STAGES x [BM][32], [BN][32]
    unsigned long long *full = reinterpret_cast<unsigned long long *>(tilesBT + STAGES * B_STAGE);
    unsigned long long *empty = full + STAGES;

    const int tid = threadIdx.x, warpgroup = tid / 128;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;
    const int numTiles = (K + BK - 1) / BK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            barrierInit(&full[s], 1);          // the producer's arrival, plus the tile's bytes
            barrierInit(&empty[s], CONSUMERS); // one arrival per consumer warpgroup
        }
        fenceBarrierInit();
    }
    __syncthreads(); // the only block-wide barrier: from here the roles run on mbarriers alone

    if (warpgroup == CONSUMERS) { // the producer warp
        if (tid % 32 == 0) {
            prefetchTensorMap(&mapA);
            prefetchTensorMap(&mapBT);
            for (int tile = 0; tile < numTiles; ++tile) {
                const int s = tile % STAGES;
                if (tile >= STAGES) // the stage's previous tile, tile - STAGES, has been read
                    barrierWait(&empty[s], (tile / STAGES - 1) & 1);
                barrierArriveExpectBytes(&full[s], STAGE_BYTES);
                tmaLoad2d(tilesA + s * A_STAGE, &mapA, tile * BK, blockRow, &full[s]);
                tmaLoad2d(tilesBT + s * B_STAGE, &mapBT, tile * BK, blockCol, &full[s]);
            }
        }
        return;
    }

    const int groupCol = warpgroup * 64; // the warpgroup's 64 columns of the block

    float d[BM / 2] = {};
    for (int tile = 0; tile < numTiles; ++tile) {
        const int s = tile % STAGES;
        barrierWait(&full[s], (tile / STAGES) & 1);
        // The previous tile's wgmmas are retired on return: its stage may be refilled.
        multiplyTileAsync<BM>(d, tilesBT + s * B_STAGE + groupCol * BK, tilesA + s * A_STAGE);
        if (tile > 0 && tid % 128 == 0)
            barrierArrive(&empty[(tile - 1) % STAGES]);
    }
    wgmmaWait<0>();
    fenceAccumulators(d);

    storeTransposedAccumulators<BM>(C, d, M, N, blockRow, blockCol + groupCol);
}

} // namespace gemmscope
