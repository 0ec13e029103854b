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
// accumulator): warp w of the warpgroup holds rows 16w + g and 16w + g + 8 (g = lane / 4,
// t = lane % 4); d[4j + 0..3] = (g, 8j + 2t), (g, 8j + 2t + 1), (g + 8, 8j + 2t), (g + 8, 8j + 2t + 1).
// The inputs are FP32 bit patterns the tensor core truncates to TF32, as in mma_tf32.
#pragma once
#include "async_copy.cuh"

namespace gemmscope {

// Descriptor of a K-major, 128-byte-swizzled shared tile whose 1024-byte atoms are consecutive
// (PTX ISA, "Matrix Descriptor Format"): start address, stride between 8-row atoms (1024 bytes),
// swizzle mode 1 (128 bytes). The leading-dimension offset is unused for swizzled K-major tiles.
__device__ __forceinline__ unsigned long long swizzledTileDescriptor(const float *tile)
{
    const unsigned long long address = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    return ((address & 0x3FFFF) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

// Float offset of element (row, k) in a 128-byte-swizzled K-major tile of 32-float rows.
__device__ __forceinline__ int swizzled(int row, int k)
{
    return row * 32 + (((k / 4) ^ (row % 8)) * 4) + k % 4;
}

__device__ __forceinline__ void wgmmaFence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int PENDING> __device__ __forceinline__ void wgmmaWait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
}
// Keeps the compiler from moving accumulator reads or writes across the asynchronous wgmmas.
template <int R> __device__ __forceinline__ void fenceAccumulators(float (&d)[R])
{
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}
// Shared memory written by the threads (cp.async included) and read next by the tensor core
// (the async proxy) needs this fence in each writing thread before the barrier.
__device__ __forceinline__ void fenceProxyAsync()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// D[64 x N] += A[64 x 8] . B[8 x N], both operands in shared memory (descriptors `a`, `b`),
// TF32 in, FP32 accumulated.
template <int N> __device__ void wgmmaTf32(float (&d)[N / 2], unsigned long long a, unsigned long long b);

// The three N the stage offers, spelled out: inline PTX names every accumulator register, N / 2
// per thread (64 x N floats over 128 threads). The predicate p = 1 keeps D's old value (D += A B).

template <>
__device__ __forceinline__ void wgmmaTf32<64>(float (&d)[32], unsigned long long a, unsigned long long b)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                 "}, %32, %33, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                   "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
                   "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
                   "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(a), "l"(b));
}

template <>
__device__ __forceinline__ void wgmmaTf32<128>(float (&d)[64], unsigned long long a, unsigned long long b)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                 "}, %64, %65, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                   "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
                   "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
                   "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
                   "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                   "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
                   "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
                   "+f"(d[63])
                 : "l"(a), "l"(b));
}

template <>
__device__ __forceinline__ void wgmmaTf32<256>(float (&d)[128], unsigned long long a, unsigned long long b)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
        "}, %128, %129, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
          "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),
          "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
          "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),
          "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),
          "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),
          "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]),
          "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]),
          "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]),
          "+f"(d[127])
        : "l"(a), "l"(b));
}

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

    const int tid = threadIdx.x, lane = tid % 32, warpInGroup = tid / 32 % 4;
    const int g = lane / 4, t = lane % 4;
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
        const unsigned long long descA =
            swizzledTileDescriptor(tilesBT + (tile % STAGES) * B_STAGE + groupCol * BK);
        const unsigned long long descB = swizzledTileDescriptor(tilesA + (tile % STAGES) * A_STAGE);
        fenceAccumulators(d);
        wgmmaFence();
#pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk) // k advances 8 floats = 32 bytes = 2 in the address field
            wgmmaTf32<BM>(d, descA + kk * 2, descB + kk * 2);
        wgmmaCommit();
        wgmmaWait<1>(); // the previous tile's wgmmas are done: its stage may be refilled
        fenceAccumulators(d);
    }
    wgmmaWait<0>();
    fenceAccumulators(d);
    waitAsyncCopies<0>(); // no copy may outlive the block

    // D row = column of C, D column = row of C. Lanes with equal t store 8 consecutive columns.
    const int fragCol = blockCol + groupCol + warpInGroup * 16 + g;
#pragma unroll
    for (int j = 0; j < BM / 8; ++j)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int col = fragCol + half * 8, row = blockRow + j * 8 + 2 * t;
            if (col < N) {
                if (row < M)
                    GEMMSCOPE_STORE_C(C[row * N + col], d[4 * j + 2 * half]);
                if (row + 1 < M)
                    GEMMSCOPE_STORE_C(C[(row + 1) * N + col], d[4 * j + 2 * half + 1]);
            }
        }
}

} // namespace gemmscope
