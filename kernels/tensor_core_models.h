// Catalog-entry models of the TF32 tensor-core stages: launch, shared memory, constraints, the
// thread-to-tile mapping the views draw and the traffic the roofline places. A tensor-core entry
// in stage_catalog.cpp sets `.model = mmaWarpTileModel()` (or wgmmaWarpgroupModel()) and changes
// what its kernel does differently; StageModel is a value, so any hook can be replaced.
//
// Parameter names the models read (the kernels' template parameters):
//   mma.sync:  BM, BN (block tile), BK (reduction tile, a multiple of 8), WM, WN (warp tile:
//              (WM/16) x (WN/8) m16n8 tiles), STAGES (cp.async pipeline depth).
//   wgmma:     BM, BN (block tile; BN is the instruction's N, 8..256), BK, STAGES, and WM (rows of
//              one consumer warpgroup, a multiple of 64; absent: 64).
#pragma once

#include "stage_catalog.h"

namespace gemmscope {

// Global bytes a launch's loads request when every block reads a BM x BK tile of A and a BK x BN
// tile of B per step of the reduction (edge blocks load whole tiles), with the roofline's formula.
LoadTraffic blockTileLoads(int bm, int bn, int bk, const ProblemSize &size, const LaunchGeometry &g);

struct MmaTileModelOptions {
    int padA = 4; // As[BM][BK + padA]: rows 16 bytes apart in banks, so fragment reads are conflict-free
    int padB = 8; // Bs[BK][BN + padB]
    // The STAGES pairs of tiles are `extern __shared__` (the runner passes the bytes and opts in
    // above 48 KiB); false: static __shared__ arrays.
    bool dynamicShared = true;
    int storeWidth = 1;     // floats per C store: 1, or 2 where the kernel stores c0,c1 as a float2
    bool ldmatrixA = false; // A fragments read with ldmatrix.x4 (mma_tf32) rather than 32-bit loads
};

// The mma.sync m16n8k8 TF32 kernel the lead writes: a 1-D block of (BM/WM) x (BN/WN) warps, warp w
// at (w / (BN/WN), w % (BN/WN)); C owned by the PTX C-fragment table (ThreadLayout::MmaFragments);
// tiles filled by 16-byte cp.async copies (TileLoadScheme::AsyncCopiesVec4) into STAGES padded
// buffers; fragments read from shared memory one 32-bit ld.shared per register.
StageModel mmaWarpTileModel(MmaTileModelOptions options = {});

struct WgmmaModelOptions {
    int producerWarpgroups = 1;    // warpgroups before the consumers (TMA issue), owning no output
    int barrierBytesPerStage = 16; // a full and an empty mbarrier per stage
    int alignmentBytes = 1024;     // the dynamic shared block rounded up for swizzled TMA tiles
};

// The Hopper wgmma m64nNk8 kernel: producer warpgroup(s) then BM/WM consumer warpgroups, each
// owning WM rows x BN columns of C in the wgmma accumulator layout (ThreadLayout::WgmmaWarpgroups);
// tiles of BM x BK and BK x BN floats filled by TMA into STAGES buffers (dynamic shared memory).
// The loads are TileLoadScheme::NotModelled: TMA copies whole tiles, there are no lane addresses.
StageModel wgmmaWarpgroupModel(WgmmaModelOptions options = {});

// wgmma_persistent_tf32 (parameters BM, BN, STAGES; BK is 32): BN / 64 consumer warpgroups and a
// producer warpgroup after them, STAGES tiles of A (BM x 32) and B (32 x BN) plus three mbarriers
// per stage and 1 KiB of alignment in dynamic shared memory; the grid counts output tiles (the
// stage is persistent). Its registers come from setmaxnreg (consumerRegistersAfterSetmaxnreg).
// The mapping is not modelled: a thread's two columns of C are a permutation chosen for conflict-
// free fragment reads, which the wgmma owner layout does not draw.
StageModel wgmmaPersistentTf32Model();

// Registers each consumer thread of wgmma_persistent_tf32 keeps once the producer warpgroup gives
// its share away with setmaxnreg (the kernel's consumerRegisters): 232 for one or two consumer
// warpgroups, 104 for four.
int consumerRegistersAfterSetmaxnreg(int consumers);

} // namespace gemmscope
