// Shared by every stage. NVRTC compiles these files; nothing here may need a host header.
#pragma once

// The one store of C in every stage goes through this macro. A trace build
// (-DGEMMSCOPE_TRACE_OWNER=1) writes the storing thread's linear index instead of the value,
// so the GPU itself reports which thread owns which output: the mapping diagrams are checked
// against that, not against a drawing.
#if defined(GEMMSCOPE_TRACE_OWNER)
#define GEMMSCOPE_STORE_C(ref, value) ((ref) = float(threadIdx.y * blockDim.x + threadIdx.x))
#else
#define GEMMSCOPE_STORE_C(ref, value) ((ref) = (value))
#endif

// Every shared-memory read of the inner loop goes through this macro. Normally it is the plain
// read, and the compiler may merge a thread's neighbouring reads into one LDS.64/LDS.128. The
// scalar build (-DGEMMSCOPE_SCALAR_SHARED=1) keeps each read a separate 4-byte access, as the
// source writes it, so hardware bank-conflict counters can be held against the access model.
#if defined(GEMMSCOPE_SCALAR_SHARED)
#define GEMMSCOPE_SMEM_READ(ref) (*static_cast<const volatile float *>(&(ref)))
#else
#define GEMMSCOPE_SMEM_READ(ref) (ref)
#endif

namespace gemmscope {

// A bounds-checked load that zero-fills outside the matrix, so every stage is correct for any
// M, N, K >= 1 and the padding contributes nothing to the dot products.
__device__ __forceinline__ float loadOrZero(const float *p, int row, int col, int rows, int cols, int ld)
{
    return (row < rows && col < cols) ? p[row * ld + col] : 0.0f;
}

} // namespace gemmscope
