// B (K x N, row-major) -> BT (N x K, row-major), for the stages whose tensor-core instruction
// reads only K-major operands (wgmma with TF32). The runner launches it before such a stage in
// every timed launch, so the stage's time includes it. 32 x 32 tiles through shared memory
// padded by one column, so that both the reads of B and the writes of BT are coalesced and the
// column reads of the tile hit 32 different banks. Block 32 x 8, four elements per thread.
// BT's rows are ldBT floats apart (K, or K rounded up to a multiple of 4 for a TMA tensor map, whose
// row pitch must be a multiple of 16 bytes); the padding is never written nor read.
// With roundTf32 each element is rounded to nearest TF32 (cvt.rna.tf32.f32) on its way, as cuBLAS's
// TF32 path rounds its inputs: the rounding then costs no pass over B of its own.
#pragma once

namespace gemmscope {

__device__ __forceinline__ float transposeRoundTf32(float x)
{
#if __CUDA_ARCH__ >= 800
    unsigned bits;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
    return __uint_as_float(bits);
#else
    return x; // no TF32 before sm_80: nothing reads BT there
#endif
}

__global__ void __launch_bounds__(256)
    transpose_b(const float *__restrict__ B, float *__restrict__ BT, int K, int N, int ldBT, int roundTf32)
{
    __shared__ float tile[32][33];
    const int n0 = blockIdx.x * 32, k0 = blockIdx.y * 32;
#pragma unroll
    for (int i = 0; i < 32; i += 8) {
        const int k = k0 + threadIdx.y + i, n = n0 + threadIdx.x;
        if (k < K && n < N)
            tile[threadIdx.y + i][threadIdx.x] = B[static_cast<long long>(k) * N + n];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 32; i += 8) {
        const int n = n0 + threadIdx.y + i, k = k0 + threadIdx.x;
        if (n < N && k < K)
        {
            const float value = tile[threadIdx.x][threadIdx.y + i];
            BT[static_cast<long long>(n) * ldBT + k] = roundTf32 ? transposeRoundTf32(value) : value;
        }
    }
}

} // namespace gemmscope
