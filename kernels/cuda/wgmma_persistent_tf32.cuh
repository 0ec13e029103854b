// Beyond the seeds, written from wgmma_tma_tf32.cuh: the same TMA copies and mbarriers, the same
// consumer warpgroups computing C transposed with wgmma.m64nNk8, but A and B are read as they are
// (row-major, M x K and K x N), rounded to TF32 here, and each block stays on its SM for the whole
// launch. The producer is now a whole warpgroup (one thread copies, three warps may round), which
// gives most of its registers to the consumers with setmaxnreg. Four changes:
//
// 1. B without a transpose. TF32 wgmma reads shared-memory operands K-major only, and B's tile is
//    N-major. But the instruction's A operand (the 64 columns of C a warpgroup owns, since D = C^T)
//    may come from registers, which have no major order: each thread reads its fragment from the
//    N-major B tile (two floats at a time) and converts it with cvt.rna.tf32.f32 on the way. A's
//    tile stays the shared-memory descriptor operand, K-major as before.
// 2. Rounding as cuBLAS does. The tensor core truncates an FP32 operand to TF32 (relative error
//    7e-4 at 4096^3 with both operands truncated, and in a CPU model of the runner's inputs 4e-4
//    with only A truncated, against cuBLAS's 2.6e-4 with both rounded to nearest). B is rounded by the cvt
//    above. A's tile, which the tensor core reads from shared memory, is rounded either by the copy engine as
//    it copies (A_ROUNDING = 0: the runner encodes A's tensor map as TF32, as CUTLASS does) or, once per
//    stage, by three warps of the producer warpgroup in shared memory (A_ROUNDING = 1: a read and
//    a write of every A tile, which costs shared-memory bandwidth). A run that asks for truncated
//    inputs passes roundTf32 = 0 (and gets an FP32 map): nothing is rounded.
// 3. Persistent blocks. The grid is one block per SM (the runner reads their number from the
//    device); block b takes output tiles b, b + gridDim.x, ... in bands of kBandRows tile rows,
//    so the tiles running at once share A rows and B columns in L2. The producer runs ahead across
//    tile boundaries: while the consumers store one tile's accumulators, the next tile's first
//    stages are already being copied.
// 4. Clusters of two blocks sharing A (CLUSTER = 2). The two blocks of a cluster compute side by
//    side tiles of the same rows of C: each has the copy engine fetch half of A's tile and multicast
//    it into both blocks' shared memory, so A's tile is read from L2 once for the two. Per k tile a
//    block then reads 16 + 16 KiB from L2 instead of 32 + 16 KiB. The price: a stage is refilled
//    only when both blocks' consumers have released it (each consumer warpgroup arrives on the
//    empty barrier of both blocks), so the pair runs in step.
//
// The runner builds the tensor maps (128-byte swizzle, zero fill outside the matrix): A in boxes of
// BM / CLUSTER rows x 32 floats of K, B in boxes of 32 rows of K x 32 floats of N, BN / 32 boxes per
// stage. A map's row pitch must be a multiple of 16 bytes: when K (or N) is not a multiple of 4 the
// runner maps a copy of A (or B) with padded rows.
#pragma once
#include "common.cuh"
#include "tma.cuh"
#include "wgmma_ops.cuh"

namespace gemmscope {

// Round to nearest TF32, ties away from zero: what cuBLAS's TF32 error matches. The result is an
// FP32 bit pattern with the low 13 mantissa bits zero, as the tensor core reads it.
__device__ __forceinline__ unsigned roundToTf32(float x)
{
    unsigned bits;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
    return bits;
}

// The column of C, within a warpgroup's 64, that D row `r` stands for, for the thread's own rows
// r = 16w + g and r + 8 (the next column). The instruction fixes which thread holds which row, but
// not which column of C a row is: this choice puts a thread's two columns side by side (one 8-byte
// read per k row, one 8-byte store per C row) and spreads the 16 lanes of a half-warp over eight
// different 16-byte chunks of the 128-byte-swizzled B rows, so the 8-byte reads are free of bank
// conflicts (chunk c of k row t lands in chunk c ^ t: {0, 4} ^ t for t = 0..3 never meet).
// Warps 0, 1 read the first 32-column box, warps 2, 3 the second; each column is read once.
__device__ __forceinline__ int fragmentColumn(int warpInGroup, int g)
{
    const int chunk = 2 * (warpInGroup % 2) + g / 4 + 4 * ((g % 4) / 2); // 16-byte chunk of the box row
    return 32 * (warpInGroup / 2) + 4 * chunk + 2 * (g % 2);
}

// Stores C[0] = first and, where `second` says, C[1] = next: one 8-byte store when `aligned` (the
// address is then a multiple of 8). The trace build stores element by element so that
// GEMMSCOPE_STORE_C records each owner.
__device__ __forceinline__ void storePair(float *c, float first, float next, bool aligned, bool second)
{
#if !defined(GEMMSCOPE_TRACE_OWNER)
    if (aligned) {
        *reinterpret_cast<float2 *>(c) = make_float2(first, next);
        return;
    }
#endif
    GEMMSCOPE_STORE_C(c[0], first);
    if (second)
        GEMMSCOPE_STORE_C(c[1], next);
}

// Output tile `tile` of a tilesM x tilesN grid, walked in bands of kBandRows tile rows: down a
// band's rows first, then across. 132 consecutive tiles then cover about 8 x 17 tiles rather than
// one tile row of A against every column of B.
constexpr int kBandRows = 8;
__device__ __forceinline__ void tileOrigin(int tile, int tilesM, int tilesN, int bm, int bn, int &row0,
                                           int &col0)
{
    const int band = tile / (kBandRows * tilesN);
    const int firstRow = band * kBandRows;
    const int rows = min(kBandRows, tilesM - firstRow);
    const int inBand = tile - firstRow * tilesN;
    row0 = (firstRow + inBand % rows) * bm;
    col0 = (inBand / rows) * bn;
}

// Registers a thread of each role keeps after setmaxnreg (PTX ISA, "setmaxnreg"). A warp runs on one
// of the SM's four quarters, each with 16384 registers (512 a lane), and each quarter holds one warp
// of every warpgroup: the producer's and CONSUMERS consumers'. The launch gives every thread an
// equal share, rounded down to a multiple of 8 (168 for three warpgroups): too few for 128
// accumulators, 32 fragment registers and addresses. So the producer warpgroup, which needs few,
// hands its share to the consumers (at most 232 a thread for two consumers, as CUTLASS does).
constexpr int kProducerRegisters = 40;
__host__ __device__ constexpr int launchRegisters(int consumers)
{
    return 512 / (consumers + 1) / 8 * 8 > 248 ? 248 : 512 / (consumers + 1) / 8 * 8;
}
__host__ __device__ constexpr int consumerRegisters(int consumers)
{
    return (launchRegisters(consumers) * (consumers + 1) - kProducerRegisters) / consumers / 8 * 8 > 232
               ? 232
               : (launchRegisters(consumers) * (consumers + 1) - kProducerRegisters) / consumers / 8 * 8;
}

template <int BM, int BN, int STAGES, int A_ROUNDING, int CLUSTER>
__global__ void __launch_bounds__((BN / 64 + 1) * 128, 1)
    wgmma_persistent_tf32(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                          int M, int N, int K, const __grid_constant__ TensorMap mapA,
                          const __grid_constant__ TensorMap mapB, int roundTf32)
{
    constexpr int BK = 32; // one 128-byte swizzle row per A tile row and per B box row
    constexpr int CONSUMERS = BN / 64;
    constexpr int ROUNDERS = 96; // the producer warpgroup's warps 1 to 3
    constexpr int A_STAGE = BM * BK, B_BOX = BK * 32, B_STAGE = BK * BN; // floats
    static_assert(STAGES >= 2, "one stage is multiplied while the next one loads");
    static_assert(BM == 64 || BM == 128 || BM == 256, "wgmma's N is the block's rows: 64, 128 or 256");
    static_assert(BN % 64 == 0, "each consumer warpgroup owns 64 columns of C");
    static_assert(A_ROUNDING == 0 || A_ROUNDING == 1,
                  "A is rounded by the copy engine (0) or in shared memory (1)");
    static_assert(CLUSTER == 1 || CLUSTER == 2, "blocks alone or in pairs that share A's tile");
    (void)A, (void)B;

    // Tiles 1024-byte aligned (the swizzle is a function of the shared address; the launch passes
    // 1 KiB more than it needs), then the barriers.
    extern __shared__ __align__(16) float smemRaw[];
    float *smem =
        reinterpret_cast<float *>((reinterpret_cast<unsigned long long>(smemRaw) + 1023) & ~1023ull);
    float *tilesA = smem, *tilesB = smem + STAGES * A_STAGE; // STAGES x [BM][32], [BN / 32][32][32]
    unsigned long long *loaded = reinterpret_cast<unsigned long long *>(tilesB + STAGES * B_STAGE);
    unsigned long long *full = loaded + STAGES, *empty = full + STAGES;
    // What the consumers wait for: the rounding warps' word, or (the copy engine rounds, or nothing
    // does) the copy's own.
    unsigned long long *ready = A_ROUNDING ? full : loaded;

    const int tid = threadIdx.x, warpgroup = tid / 128;
    // A cluster's unit of work is CLUSTER side by side tiles; block `rank` of the cluster takes the
    // rank-th. Where N ends inside the unit, the blocks past it still copy their share of A and
    // multiply, but store nothing: their partner needs both.
    const int rank = CLUSTER > 1 ? int(clusterRank()) : 0;
    const int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    const int tilesM = (M + BM - 1) / BM, unitsN = (N + CLUSTER * BN - 1) / (CLUSTER * BN);
    const int numUnits = tilesM * unitsN;
    const int kTiles = (K + BK - 1) / BK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            barrierInit(&loaded[s], 1);                  // the TMA thread's arrival, plus the tile's bytes
            barrierInit(&full[s], ROUNDERS);             // every rounding thread, its slice of A rounded
            barrierInit(&empty[s], CONSUMERS * CLUSTER); // each consumer warpgroup of the cluster
        }
        fenceBarrierInit();
    }
    // The only block-wide (cluster-wide) barrier before the end: from here the roles run on
    // mbarriers alone.
    if (CLUSTER > 1)
        clusterSync();
    else
        __syncthreads();

    // The producer warpgroup: warp 0 has the copy engine fill each stage; with A_ROUNDING = 1, warps
    // 1 to 3 round A's tile there between loaded and full. Every stage passes through both, in order.
    if (warpgroup == CONSUMERS) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kProducerRegisters));
        const int producerThread = tid % 128;
        if (producerThread == 0) {
            prefetchTensorMap(&mapA);
            prefetchTensorMap(&mapB);
            int step = 0; // k tiles issued by this block, over all its output tiles
            for (int unit = cluster; unit < numUnits; unit += clusters) {
                int row0, col0;
                tileOrigin(unit, tilesM, unitsN, BM, CLUSTER * BN, row0, col0);
                col0 += rank * BN;
                // A box wholly right of N would only be zeros for columns nobody stores: skipped.
                const int boxes = max(0, min(BN / 32, (N - col0 + 31) / 32));
                for (int kt = 0; kt < kTiles; ++kt, ++step) {
                    const int s = step % STAGES;
                    if (step >= STAGES) // the stage's previous tile, step - STAGES, has been read
                        barrierWait(&empty[s], (step / STAGES - 1) & 1);
                    barrierArriveExpectBytes(&loaded[s], (A_STAGE + boxes * B_BOX) * sizeof(float));
                    if (CLUSTER > 1) // this block's rows of A's tile, into both blocks
                        tmaLoad2dMulticast(tilesA + s * A_STAGE + rank * (A_STAGE / CLUSTER), &mapA, kt * BK,
                                           row0 + rank * (BM / CLUSTER), &loaded[s], (1u << CLUSTER) - 1);
                    else
                        tmaLoad2d(tilesA + s * A_STAGE, &mapA, kt * BK, row0, &loaded[s]);
                    for (int box = 0; box < boxes; ++box)
                        tmaLoad2d(tilesB + s * B_STAGE + box * B_BOX, &mapB, col0 + 32 * box, kt * BK,
                                  &loaded[s]);
                }
            }
        } else if (A_ROUNDING && producerThread >= 32) {
            // A is the wgmma operand the tensor core reads from shared memory, truncating it: round
            // it to nearest here, once per stage, off the consumers' path.
            const int rounder = producerThread - 32;
            const int steps = (numUnits - cluster + clusters - 1) / clusters * kTiles;
            for (int step = 0; step < steps; ++step) {
                const int s = step % STAGES;
                barrierWait(&loaded[s], (step / STAGES) & 1);
                if (roundTf32) {
                    float4 *tileA = reinterpret_cast<float4 *>(tilesA + s * A_STAGE);
#pragma unroll 4
                    for (int i = rounder; i < A_STAGE / 4; i += ROUNDERS) {
                        const float4 v = tileA[i];
                        tileA[i] =
                            make_float4(__uint_as_float(roundToTf32(v.x)), __uint_as_float(roundToTf32(v.y)),
                                        __uint_as_float(roundToTf32(v.z)), __uint_as_float(roundToTf32(v.w)));
                    }
                    fenceProxyAsync(); // these writes are read next by the tensor core (the async proxy)
                }
                barrierArrive(&full[s]);
            }
        }
        if (CLUSTER > 1) // the consumers' last arrivals may still be on their way to this block
            clusterSync();
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(consumerRegisters(CONSUMERS)));

    const int lane = tid % 32, warpInGroup = tid / 32 % 4, g = lane / 4, t = lane % 4;
    // This thread's fragment columns (and the next), within the block's BN: fixed for every tile.
    const int column = warpgroup * 64 + fragmentColumn(warpInGroup, g);
    const float *myBox = tilesB + (column / 32) * B_BOX; // stage 0's box of this thread's columns

    // Stage s is free again for the copy engine of every block that writes into it: this block's
    // and, with clusters, its partner's (whose multicast fills half of this block's A tile).
    auto releaseStage = [&](int s) {
        if (CLUSTER > 1) {
#pragma unroll
            for (int r = 0; r < CLUSTER; ++r)
                barrierArriveInCluster(&empty[s], unsigned(r));
        } else {
            barrierArrive(&empty[s]);
        }
    };

    float d[BM / 2];
    unsigned fragsEven[16], fragsOdd[16]; // one k tile's A fragments: [kk][4], two sets in turn

    // One k tile: wait for its stage (A rounded, where this kernel rounds it); load this thread's B
    // fragments, rounded; four wgmma with A from `frags`. Returns when the previous k tile's wgmmas are
    // retired: its registers (the other fragment set) and its stage are free, and the stage is released.
    auto multiplyStep = [&](unsigned(&frags)[16], int kt, int step) {
        const int s = step % STAGES;
        barrierWait(&ready[s], (step / STAGES) & 1);
        const float *box = myBox + s * B_STAGE;
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
#pragma unroll
            for (int half = 0; half < 2; ++half) { // k = 8kk + t, then 8kk + t + 4
                const int k = 8 * kk + t + 4 * half;
                const float2 v = *reinterpret_cast<const float2 *>(box + swizzled(k, column % 32));
                frags[4 * kk + 2 * half] = roundTf32 ? roundToTf32(v.x) : __float_as_uint(v.x);
                frags[4 * kk + 2 * half + 1] = roundTf32 ? roundToTf32(v.y) : __float_as_uint(v.y);
            }

        const unsigned long long descA = swizzledTileDescriptor(tilesA + s * A_STAGE);
        fenceFragments(frags);
        fenceAccumulators(d);
        wgmmaFence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) { // k advances 8 floats = 32 bytes = 2 in the address field
            const unsigned a[4] = {frags[4 * kk], frags[4 * kk + 1], frags[4 * kk + 2], frags[4 * kk + 3]};
            wgmmaTf32RegisterA<BM>(d, a, descA + kk * 2);
        }
        wgmmaCommit();
        wgmmaWait<1>();
        fenceAccumulators(d);
        if (kt > 0 && tid % 128 == 0) // the previous k tile of this output tile is done with its stage
            releaseStage((step - 1) % STAGES);
    };

    int step = 0; // k tiles consumed by this block, over all its output tiles (the producer's count)
    for (int unit = cluster; unit < numUnits; unit += clusters) {
        int row0, col0;
        tileOrigin(unit, tilesM, unitsN, BM, CLUSTER * BN, row0, col0);
        col0 += rank * BN;
#pragma unroll
        for (int i = 0; i < BM / 2; ++i)
            d[i] = 0.f;
        // Two k tiles per trip, so that each fragment set is a fixed set of registers.
        for (int kt = 0; kt < kTiles; kt += 2) {
            multiplyStep(fragsEven, kt, step++);
            if (kt + 1 < kTiles)
                multiplyStep(fragsOdd, kt + 1, step++);
        }
        wgmmaWait<0>();
        fenceAccumulators(d);
        if (tid % 128 == 0) // the tile's last stage: the producer may already fill it for the next tile
            releaseStage((step - 1) % STAGES);

        // D = C^T: d[4j + 0..3] are D (r, 8j + 2t), (r, 8j + 2t + 1), (r + 8, 8j + 2t), (r + 8,
        // 8j + 2t + 1) with r = 16w + g; D row r is C column `col`, row r + 8 column col + 1, D
        // column c is C row row0 + c. Lanes with equal t store 8-byte pairs filling two 32-byte
        // segments of one C row.
        const int col = col0 + column;
#pragma unroll
        for (int j = 0; j < BM / 8; ++j)
#pragma unroll
            for (int up = 0; up < 2; ++up) {
                const int row = row0 + 8 * j + 2 * t + up;
                if (row < M && col < N)
                    storePair(C + row * N + col, d[4 * j + up], d[4 * j + 2 + up], N % 2 == 0 && col + 1 < N,
                              col + 1 < N);
            }
    }
    if (CLUSTER > 1) // the partner's consumers may still arrive on this block's empty barriers
        clusterSync();
}

} // namespace gemmscope
