// Your kernel: a shared-memory tiled FP32 GEMM to start from. GemmScope compiles it with NVRTC,
// checks its result against cuBLAS FP32 and times it like every stage of the ladder.
//
// The conventions, each one needed:
// - The comment block below (it must start with "/* gemmscope:kernel") tells GemmScope the
//   kernel's name, its parameters and how to launch it. docs/custom-kernels.md explains each line.
// - The kernel is a __global__ template whose template arguments are the block's parameters, in
//   the block's order; GemmScope instantiates it with the values you choose (my_gemm<16, 16, 8>).
// - Its arguments are always (const float *A, const float *B, float *C, int M, int N, int K):
//   C[M x N] = A[M x K] * B[K x N], all row-major.
// - It may include only GemmScope's headers, by name in quotes ("common.cuh" and the stages'
//   files); anything else is refused before compiling.
// - Every store to C goes through GEMMSCOPE_STORE_C(element, value), so that GemmScope can ask
//   the GPU which thread writes which element (the mapping views check themselves against it).
// - It must be correct for every M, N, K >= 1: guard the loads and the store at the edges.

/* gemmscope:kernel
name      gemmscope::my_gemm
title     My tiled kernel
precision fp32
param BM  8..64 step 8 default 16
param BN  8..64 step 8 default 16
param BK  4..32 step 4 default 8
require   BM * BN <= 1024
block     BN, BM
grid      ceil_div(N, BN), ceil_div(M, BM)
shared    4 * (BM * BK + BK * BN)
*/
#include "common.cuh" // GEMMSCOPE_STORE_C and loadOrZero

namespace gemmscope {

// One thread per element of C: the block computes a BM x BN tile of C, staging BM x BK of A and
// BK x BN of B in shared memory per step along K.
template <int BM, int BN, int BK>
__global__ void my_gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tileA[BM][BK];
    __shared__ float tileB[BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BN + tx;
    const int row = blockIdx.y * BM + ty;
    const int col = blockIdx.x * BN + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        // The BM * BN threads fill both tiles together; loadOrZero pads past the matrix edges.
        for (int i = tid; i < BM * BK; i += BM * BN)
            tileA[i / BK][i % BK] = loadOrZero(A, blockIdx.y * BM + i / BK, k0 + i % BK, M, K, K);
        for (int i = tid; i < BK * BN; i += BM * BN)
            tileB[i / BN][i % BN] = loadOrZero(B, k0 + i / BN, blockIdx.x * BN + i % BN, K, N, N);
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        GEMMSCOPE_STORE_C(C[row * N + col], acc);
}

} // namespace gemmscope
