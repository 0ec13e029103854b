// The thread-to-tile mapping of every kernel stage: which thread owns which output of a block
// tile, and which elements of the A and B tiles each thread loads at each load instruction.
// Plain C++20, no Qt. It mirrors kernels/cuda/*.cuh exactly (same index expressions), because
// the diagrams are drawn from it and the GPU tests compare it with the kernel's own trace.
//
// Tiles, per block and per k-step (k0 = kStep * BK):
//   C tile  BM x BN   outputs of the block, rows bRow.., cols bCol..
//   A tile  BM x BK   A[bRow + r][k0 + c]
//   B tile  BK x BN   B[k0 + r][bCol + c]
// The naive kernel has no shared memory; it is modelled as BM = BY, BN = BX, BK = 1, TM = TN = 1:
// its "A tile" is the column of A its threads read at one k, its "B tile" the row of B.
// smem_tiled is BM = BN = BK = TILE, TM = TN = 1, with PAD extra floats per row of the B tile.
#pragma once

#include "stage_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace gemmscope {

// kWarpSize, ThreadLayout, TileLoadScheme, Operand and KernelShape are in stage_types.h: a
// stage's catalog entry builds its KernelShape.
std::string operandName(Operand operand); // "A", "B", "C"

struct KernelShapeResult {
    std::optional<KernelShape> shape;
    std::string error; // why there is no shape: the catalog's first violation, or "no thread mapping"
};

// The shape of a stage at its parameters, from its catalog entry's mapping hook. cuBLAS stages,
// stages whose mapping is not modelled yet and invalid parameters give an error sentence.
KernelShapeResult kernelShape(StageId id, const ParamValues &params);

struct ThreadCoord {
    int tid = 0; // ty * blockDim.x + tx
    int warp = 0;
    int lane = 0;
    int tx = 0;
    int ty = 0;
    friend bool operator==(const ThreadCoord &, const ThreadCoord &) = default;
};

struct TileCell {
    int row = 0;
    int col = 0;
    friend bool operator==(const TileCell &, const TileCell &) = default;
};

ThreadCoord threadCoord(const KernelShape &shape, int tid);
ThreadCoord threadAt(const KernelShape &shape, int tx, int ty);

// The owners below are the shape's thread layout's (layout_scheme.h: one object per ThreadLayout).
// Row (col) within the C tile of a thread's i-th (j-th) micro-tile row (column).
int outputRow(const KernelShape &shape, const ThreadCoord &thread, int i);
int outputCol(const KernelShape &shape, const ThreadCoord &thread, int j);

// The thread that stores C-tile element (row, col), 0 <= row < BM, 0 <= col < BN.
ThreadCoord ownerOf(const KernelShape &shape, int row, int col);
// Which register of which thread holds C-tile element (row, col). For the tensor-core layouts
// (mma_fragments.h): reg is the PTX fragment index (mma: c0..c3 of the m16n8 tile (tileRow,
// tileCol) of the warp tile; wgmma: d0..d(N/2-1) of the m64 slab tileRow, tileCol = col / 8), and
// accumulator the index in the kernel's accumulator array (mma: acc[WM/16][WN/8][4] flattened;
// wgmma: d[WM/64][BN/2] flattened). Other layouts: reg = accumulator = i*TN + j, tiles 0.
struct FragmentOwner {
    int tid = 0;
    int reg = 0;
    int tileRow = 0, tileCol = 0;
    int accumulator = 0;
    friend bool operator==(const FragmentOwner &, const FragmentOwner &) = default;
};
FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col);
// The C-tile outputs of a thread, in the kernel's store order (i outer, j inner); none for a
// producer warpgroup.
std::vector<TileCell> outputsOf(const KernelShape &shape, int tid);
// Owner of every C-tile element as thread linear ids, row-major BM x BN: what a trace build of
// the kernel (GEMMSCOPE_TRACE_OWNER) writes into C for any block whose tile lies inside C.
std::vector<int> ownerMap(const KernelShape &shape);

// Tile dimensions of an operand: A is BM x BK, B is BK x BN, C is BM x BN.
TileCell tileExtent(const KernelShape &shape, Operand operand);

// The loads below are the shape's load scheme's (load_scheme.h: one object per TileLoadScheme).
// How many global load instructions a thread executes per k-step for the A or B tile
// (unrolled loop iterations, counting those a guard switches off).
int loadInstructionCount(const KernelShape &shape, Operand operand);
// The tile element thread `tid` loads at load instruction `instruction`, or nothing when its
// guard (tx < BK, ty < BK, idx < tile size) switches it off. A vector load covers this element
// and the loadWidth() - 1 after it in the same row.
std::optional<TileCell> loadedElement(const KernelShape &shape, Operand operand, int instruction, int tid);
// Floats one load instruction of the operand moves per thread: 4 for 128-bit loads, else 1.
int loadWidth(const KernelShape &shape, Operand operand);

struct TileLoad {
    Operand operand = Operand::A;
    int instruction = 0;
    TileCell cell;
};
// Every tile element a thread loads in one k-step, in program order (A instructions, then B).
std::vector<TileLoad> tileLoadsOf(const KernelShape &shape, int tid);

// The rows of the A tile and columns of the B tile a thread reads in its inner loop (for mma the
// rows and columns of its A and B fragments; none for wgmma, whose operands stay in shared memory).
std::vector<int> aRowsRead(const KernelShape &shape, int tid);
std::vector<int> bColsRead(const KernelShape &shape, int tid);

} // namespace gemmscope
