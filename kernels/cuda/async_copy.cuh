// cp.async (sm_80+): copies global -> shared that the copy engine performs while the threads
// go on, shared by the stages that pipeline through it (async_pipelined, mma_tf32). Every copy
// is bounds-checked the way load4OrZero is: outside the matrix the shared destination is
// zero-filled, so the padding contributes nothing to the dot products.
#pragma once
#include "common.cuh"

namespace gemmscope {

// One cp.async of BYTES (4 or 16) from global src to shared dst; only the first `validBytes`
// are read, the rest of dst is zero-filled.
template <int BYTES> __device__ __forceinline__ void copyAsync(float *dst, const float *src, int validBytes)
{
    const unsigned dstAddr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    if constexpr (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dstAddr), "l"(src),
                     "r"(validBytes));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dstAddr), "l"(src),
                     "r"(validBytes));
}

// One element (row, col) of a rows x cols row-major matrix; zero-filled outside.
__device__ __forceinline__ void copy1Async(float *dst, const float *p, int row, int col, int rows, int cols)
{
    const bool inside = row < rows && col < cols;
    copyAsync<4>(dst, inside ? p + row * cols + col : p, inside ? 4 : 0);
}

// Elements (row, col..col+3) into 16-byte aligned dst. Aligned rows (cols % 4 == 0) take one
// 16-byte copy (a partial group copies its valid bytes and zero-fills the rest); others four
// 4-byte copies.
__device__ __forceinline__ void copy4Async(float *dst, const float *p, int row, int col, int rows, int cols)
{
    if (cols % 4 == 0) {
        const int valid = row < rows ? max(0, min(4, cols - col)) : 0;
        copyAsync<16>(dst, valid > 0 ? p + row * cols + col : p, valid * 4);
    } else {
#pragma unroll
        for (int i = 0; i < 4; ++i)
            copy1Async(dst + i, p, row, col + i, rows, cols);
    }
}

__device__ __forceinline__ void commitAsyncCopies()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int PENDING> __device__ __forceinline__ void waitAsyncCopies()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

} // namespace gemmscope
