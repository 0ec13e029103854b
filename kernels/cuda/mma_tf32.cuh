// Beyond the seeds, tensor cores, written from async_pipelined.cuh: the same cp.async multistage
// pipeline, but each warp's inner loop is mma.sync.m16n8k8 (TF32 inputs, FP32 accumulation)
// instead of FFMAs. One mma multiplies a 16x8 A fragment by an 8x8 B fragment into a 16x8 C
// fragment spread over the warp's 32 lanes (PTX ISA, "Matrix Fragments for mma.m16n8k8",
// .tf32): lane l holds group g = l / 4 and thread-in-group t = l % 4 of each fragment.
//   A (16x8): a0 = (g, t), a1 = (g + 8, t), a2 = (g, t + 4), a3 = (g + 8, t + 4)
//   B (8x8):  b0 = (k t, n g), b1 = (k t + 4, n g)
//   C (16x8): c0 = (g, 2t), c1 = (g, 2t + 1), c2 = (g + 8, 2t), c3 = (g + 8, 2t + 1)
// A warp owns a WM x WN warp tile of (WM/16) x (WN/8) such fragments. Both tiles are stored as
// they arrive (k-contiguous A, n-contiguous B) with padded rows, which makes every fragment read
// free of bank conflicts: A rows are BK + 4 floats apart, so ldmatrix's eight 16-byte rows start
// 4 banks apart; B rows are BN + 8 floats apart, so lanes (t, g) read bank 8t + g.
// The tensor core reads only the top 19 bits of each input (TF32: 10-bit mantissa): fed FP32 bit
// patterns it truncates them. cuBLAS's TF32 path rounds to nearest instead (its error equals that
// of inputs rounded with cvt.rna: 2.6e-4 against 7.0e-4 truncated, H200, 4096^3), so the runner
// rounds A and B in a pre-pass inside the timed launch unless a run asks for "truncate"
// (app/runner/tf32_rounding.h).
#pragma once
#include "async_copy.cuh"

namespace gemmscope {

// Four 8x4 TF32 sub-matrices of the A tile into one register each (ldmatrix moves 8x8 b16
// matrices; a row of 4 TF32 values is 8 b16 halves, so lane l receives element (l/4, l%4)).
// Lanes 0-7, 8-15, 16-23, 24-31 give the row addresses of matrices 0..3.
__device__ __forceinline__ void loadMatrixX4(unsigned (&r)[4], const float *rowAddress)
{
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(rowAddress));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

__device__ __forceinline__ void mmaTf32(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Two horizontally adjacent outputs (row, col), (row, col + 1) of C, skipping those outside.
__device__ __forceinline__ void store2(float *C, int row, int col, int M, int N, float v0, float v1)
{
    if (row >= M)
        return;
#if !defined(GEMMSCOPE_TRACE_OWNER)
    if (N % 2 == 0 && col + 1 < N) {
        *reinterpret_cast<float2 *>(C + row * N + col) = make_float2(v0, v1);
        return;
    }
#endif
    if (col < N)
        GEMMSCOPE_STORE_C(C[row * N + col], v0);
    if (col + 1 < N)
        GEMMSCOPE_STORE_C(C[row * N + col + 1], v1);
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    mma_tf32(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
             int K)
{
    constexpr int WARPS_N = BN / WN;
    constexpr int THREADS = (BM / WM) * WARPS_N * 32;
    constexpr int FRAGS_M = WM / 16, FRAGS_N = WN / 8; // m16n8 fragments per warp tile
    constexpr int A_PITCH = BK + 4, B_PITCH = BN + 8;  // padded rows: conflict-free fragment reads
    constexpr int A_STAGE = BM * A_PITCH, B_STAGE = BK * B_PITCH;
    constexpr int A_COPIES = BM * BK / 4 / THREADS, B_COPIES = BK * BN / 4 / THREADS;
    static_assert(STAGES >= 2, "a pipeline needs two stages");
    static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0,
                  "warps tile the block with whole m16n8k8 fragments");
    static_assert(A_COPIES * THREADS * 4 == BM * BK && B_COPIES * THREADS * 4 == BK * BN,
                  "whole 16-byte copies per thread");

    extern __shared__ __align__(16) float smem[]; // STAGES A tiles, then STAGES B tiles
    float *tilesA = smem, *tilesB = smem + STAGES * A_STAGE;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int warpRow = (warp / WARPS_N) * WM, warpCol = (warp % WARPS_N) * WN;
    const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

    // As in async_pipelined.cuh: a block wholly inside C copies every full tile unchecked.
    const bool interior = blockRow + BM <= M && blockCol + BN <= N && N % 4 == 0 && K % 4 == 0;
    auto issueTile = [&](int stage, int k0) {
        float *as = tilesA + stage * A_STAGE, *bs = tilesB + stage * B_STAGE;
        const bool unchecked = interior && k0 + BK <= K;
#pragma unroll
        for (int l = 0; l < A_COPIES; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
            if (unchecked)
                copyAsync<16>(&as[r * A_PITCH + c], A + (blockRow + r) * K + k0 + c, 16);
            else
                copy4Async(&as[r * A_PITCH + c], A, blockRow + r, k0 + c, M, K);
        }
#pragma unroll
        for (int l = 0; l < B_COPIES; ++l) {
            const int idx = tid + l * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            if (unchecked)
                copyAsync<16>(&bs[r * B_PITCH + c], B + (k0 + r) * N + blockCol + c, 16);
            else
                copy4Async(&bs[r * B_PITCH + c], B, k0 + r, blockCol + c, K, N);
        }
    };

    float acc[FRAGS_M][FRAGS_N][4] = {};
    const int numTiles = (K + BK - 1) / BK;
    // One commit group per tile, empty ones included, so "STAGES - 2 pending" means "tile t landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < numTiles)
            issueTile(s, s * BK);
        commitAsyncCopies();
    }
    for (int tile = 0; tile < numTiles; ++tile) {
        waitAsyncCopies<STAGES - 2>();
        __syncthreads(); // tile `tile` is visible; every warp is done with the stage refilled next
        const int refill = tile + STAGES - 1;
        if (refill < numTiles)
            issueTile(refill % STAGES, refill * BK);
        commitAsyncCopies();

        const float *as = tilesA + (tile % STAGES) * A_STAGE;
        const float *bs = tilesB + (tile % STAGES) * B_STAGE;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            unsigned a[FRAGS_M][4], b[FRAGS_N][2];
#pragma unroll
            for (int i = 0; i < FRAGS_M; ++i) // lane l addresses row l % 16, columns (l / 16) * 4..+3
                loadMatrixX4(a[i], &as[(warpRow + i * 16 + lane % 16) * A_PITCH + kk + (lane / 16) * 4]);
#pragma unroll
            for (int j = 0; j < FRAGS_N; ++j) {
                const float *col = &bs[(kk + t) * B_PITCH + warpCol + j * 8 + g];
                b[j][0] = __float_as_uint(GEMMSCOPE_SMEM_READ(col[0]));
                b[j][1] = __float_as_uint(GEMMSCOPE_SMEM_READ(col[4 * B_PITCH]));
            }
#pragma unroll
            for (int i = 0; i < FRAGS_M; ++i)
#pragma unroll
                for (int j = 0; j < FRAGS_N; ++j)
                    mmaTf32(acc[i][j], a[i], b[j]);
        }
    }
    waitAsyncCopies<0>(); // no copy may outlive the block

#pragma unroll
    for (int i = 0; i < FRAGS_M; ++i)
#pragma unroll
        for (int j = 0; j < FRAGS_N; ++j) {
            const int row = blockRow + warpRow + i * 16 + g, col = blockCol + warpCol + j * 8 + 2 * t;
            store2(C, row, col, M, N, acc[i][j][0], acc[i][j][1]);
            store2(C, row + 8, col, M, N, acc[i][j][2], acc[i][j][3]);
        }
}

} // namespace gemmscope
