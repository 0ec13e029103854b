// 128-bit global loads and stores with bounds checks, shared by the stages past the worklog
// (vectorized, warp-tiled, pipelined, async-pipelined). A float4 access needs its address
// 16-byte aligned: cudaMalloc'ed matrices are, so a row-major access at a column that is a
// multiple of 4 is aligned exactly when the row length is. Anything else (K = 333, the last
// partial group of a row, rows past M) takes four checked scalar accesses that zero-fill, so
// every stage stays correct for any M, N, K >= 1.
#pragma once
#include "common.cuh"

namespace gemmscope {

// Four consecutive elements (row, col..col+3) of a rows x cols row-major matrix; zero outside.
// `col` is a multiple of 4.
__device__ __forceinline__ float4 load4OrZero(const float *p, int row, int col, int rows, int cols)
{
    if (row < rows && cols % 4 == 0 && col + 3 < cols)
        return *reinterpret_cast<const float4 *>(p + row * cols + col);
    return make_float4(
        loadOrZero(p, row, col + 0, rows, cols, cols), loadOrZero(p, row, col + 1, rows, cols, cols),
        loadOrZero(p, row, col + 2, rows, cols, cols), loadOrZero(p, row, col + 3, rows, cols, cols));
}

// Stores four consecutive outputs of C (row, col..col+3), skipping those outside M x N.
// The trace build stores element by element so that GEMMSCOPE_STORE_C records each owner.
__device__ __forceinline__ void store4(float *C, int row, int col, int M, int N, float4 v)
{
    if (row >= M)
        return;
#if !defined(GEMMSCOPE_TRACE_OWNER)
    if (N % 4 == 0 && col + 3 < N) {
        *reinterpret_cast<float4 *>(C + row * N + col) = v;
        return;
    }
#endif
    const float values[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (col + i < N)
            GEMMSCOPE_STORE_C(C[row * N + col + i], values[i]);
}

} // namespace gemmscope
