// Which lane holds which element of a tensor-core instruction's operands, for the two TF32
// instructions the tensor-core stages issue. Plain C++20, no Qt. The tables are the PTX ISA's
// (CUDA 13 "Parallel Thread Execution ISA"), restated here as functions both ways so that the
// mapping model, the access model and the views draw from one place:
//
//   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32   section "Matrix Fragments for
//   mma.m16n8k8" (anchor warp-level-matrix-fragment-mma-1688), .tf32 figures 72 (A), 75 (B)
//   and 77 (C/D). With groupID = laneid >> 2 and threadID_in_group = laneid % 4:
//     A 16x8, a0..a3:  row = groupID (a0, a2), groupID + 8 (a1, a3)
//                      col = threadID_in_group (a0, a1), threadID_in_group + 4 (a2, a3)
//     B  8x8, b0, b1:  row = threadID_in_group (b0), threadID_in_group + 4 (b1); col = groupID
//     C 16x8, c0..c3:  row = groupID (c0, c1), groupID + 8 (c2, c3)
//                      col = threadID_in_group * 2 + (i & 1)
//
//   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32   section "Matrix Fragments for
//   wgmma.mma_async.m64nNk8" (anchor asynchronous-warpgroup-level-matrix-register-fragment-
//   wgmma-64n8), figures 150 (A in registers) and 151 (accumulator D). The 128 threads of a
//   warpgroup: warp w = thread / 32 holds rows 16w .. 16w + 15, laid out inside that slab as
//   mma's: A (64x8, a0..a3) exactly as mma's A; D (64xN, N/2 f32 registers d0..) repeats the
//   m16n8 C layout every 8 columns, d[4q + i] being c_i of the 8-column group q.
#pragma once

#include "mapping_model.h" // TileCell, Operand

namespace gemmscope {

// The m16n8k8 instruction's shape.
inline constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 8;
// The wgmma instruction's rows (a warpgroup of four warps) and its reduction depth for TF32.
inline constexpr int kWgmmaM = 64, kWgmmaK = 8;
inline constexpr int kWarpgroupThreads = 4 * kWarpSize;

// One 32-bit register of one thread: lane (0..31) within its warp, or thread (0..127) within its
// warpgroup for wgmma; reg is the element's index in the PTX operand vector (a0 = 0, ...).
struct FragmentSlot {
    int lane = 0;
    int reg = 0;
    friend bool operator==(const FragmentSlot &, const FragmentSlot &) = default;
};

// ---- mma.sync m16n8k8, .row.col, tf32 inputs, f32 accumulators ----

// Operand tile of one instruction: A 16x8 (M x K), B 8x8 (K x N), C 16x8 (M x N), as {rows, cols}.
TileCell mmaTileExtent(Operand operand);
// Registers per lane: A 4, B 2, C 4.
int mmaRegistersPerLane(Operand operand);
// The element lane `lane`, register `reg` holds; both must be in range (else {-1, -1}).
TileCell mmaElementOf(Operand operand, int lane, int reg);
// The lane and register that hold element (row, col) of the operand tile (else {-1, -1}).
FragmentSlot mmaSlotOf(Operand operand, int row, int col);

// ---- wgmma m64nNk8, tf32 inputs, f32 accumulator; `n` in 8..256, a multiple of 8 ----

// Registers per thread of the accumulator: N / 2.
int wgmmaAccumulatorRegisters(int n);
// The accumulator element (row in 0..63, col in 0..n-1) that warpgroup thread `thread`
// (0..127), register `reg` holds, or {-1, -1}.
TileCell wgmmaAccumulatorElementOf(int n, int thread, int reg);
// The warpgroup thread and register that hold accumulator element (row, col), or {-1, -1}.
FragmentSlot wgmmaAccumulatorSlotOf(int n, int row, int col);
// A from registers (64 x 8, four registers per thread).
TileCell wgmmaAElementOf(int thread, int reg);
FragmentSlot wgmmaASlotOf(int row, int col);

} // namespace gemmscope
