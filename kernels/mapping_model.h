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

inline constexpr int kWarpSize = 32;

enum class ThreadLayout {
    Contiguous, // thread (tx, ty) owns rows ty*TM + i, cols tx*TN + j (steps 0-6, vectorized)
    Strided,    // thread (tx, ty) owns rows ty + i*(BM/TM), cols tx + j*(BN/TN) (steps 7, 8)
    // Warp tiles (warptiled, pipelined, async_pipelined; 1-D blocks): warp w owns the WM x WN =
    // 4*TM x 8*TN warp tile (w / warpsX, w % warpsX); its lanes sit 4 x 8 inside it, and lane l
    // owns 4x4 fragments spaced 16 rows and 32 columns apart: rows warpRow + (i/4)*16 + (l/8)*4 +
    // i%4, cols warpCol + (j/4)*32 + (l%8)*4 + j%4.
    WarpTiled,
};

enum class TileLoadScheme {
    OneElementPerThread, // naive, smem_tiled: thread (tx, ty) loads A(ty, tx) and B(ty, tx)
    GuardedStrips,       // coarsened: tx < BK loads TM rows of A; ty < BK loads TN columns of B
    Cooperative,         // step 3 on: linear tid strides through each tile (loadTilesCoalesced)
    // Past the seeds: linear tid strides through each tile four floats at a time (one 128-bit
    // load: idx = tid + n*threads, row = idx / (cols/4), col = (idx % (cols/4))*4).
    CooperativeVec4,
    // async_pipelined's cp.async copies: A one float per copy (row = idx / BK, col = idx % BK,
    // as Cooperative), B four floats per copy (as CooperativeVec4).
    AsyncCopies,
};

enum class Operand { A, B, C };
std::string operandName(Operand operand); // "A", "B", "C"

// Everything the mapping and access models need to know about one kernel instantiation.
struct KernelShape {
    StageId stage = StageId::Naive;
    int bm = 1, bn = 1, bk = 1; // block tile BM x BN, reduction tile BK
    int tm = 1, tn = 1;         // outputs per thread in y and in x
    int blockX = 1, blockY = 1; // threads per block in x and y
    int padB = 0;               // extra floats per row of the shared B tile (smem_tiled's PAD)
    int buffers = 1;            // shared tiles per operand (2 when double buffered, STAGES for cp.async)
    // Past the seeds: the A tile is stored transposed (tileAT[k][m], rows of BM + padA floats) and
    // the inner loop reads and the C stores move vectorWidth (4) floats at a time.
    bool transposedA = false;
    int padA = 0;
    int vectorWidth = 1;
    bool usesSharedMemory = true;
    ThreadLayout layout = ThreadLayout::Contiguous;
    TileLoadScheme loads = TileLoadScheme::OneElementPerThread;

    int threads() const { return blockX * blockY; }
    int warps() const { return (threads() + kWarpSize - 1) / kWarpSize; }
    int outputsPerThread() const { return tm * tn; }
    // Row stride, in floats, of the shared A and B tiles.
    int sharedRowA() const { return transposedA ? bm + padA : bk; }
    int sharedRowsA() const { return transposedA ? bk : bm; }
    // Warp tiles across the block tile (WarpTiled layout).
    int warpTileRows() const { return 4 * tm; }
    int warpTileCols() const { return 8 * tn; }
    int warpsX() const { return bn / warpTileCols(); }
    int sharedRowB() const { return bn + padB; }
};

struct KernelShapeResult {
    std::optional<KernelShape> shape;
    std::string error; // why there is no shape: the catalog's first violation, or "no thread mapping"
};

// The shape of a stage at its parameters; cuBLAS stages and invalid parameters give an error.
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

// Row (col) within the C tile of a thread's i-th (j-th) micro-tile row (column).
int outputRow(const KernelShape &shape, const ThreadCoord &thread, int i);
int outputCol(const KernelShape &shape, const ThreadCoord &thread, int j);

// The thread that stores C-tile element (row, col), 0 <= row < BM, 0 <= col < BN.
ThreadCoord ownerOf(const KernelShape &shape, int row, int col);
// The C-tile outputs of a thread, in the kernel's store order (i outer, j inner).
std::vector<TileCell> outputsOf(const KernelShape &shape, int tid);
// Owner of every C-tile element as thread linear ids, row-major BM x BN: what a trace build of
// the kernel (GEMMSCOPE_TRACE_OWNER) writes into C for any block whose tile lies inside C.
std::vector<int> ownerMap(const KernelShape &shape);

// Tile dimensions of an operand: A is BM x BK, B is BK x BN, C is BM x BN.
TileCell tileExtent(const KernelShape &shape, Operand operand);

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

// The rows of the A tile and columns of the B tile a thread reads in its inner loop.
std::vector<int> aRowsRead(const KernelShape &shape, int tid);
std::vector<int> bColsRead(const KernelShape &shape, int tid);

} // namespace gemmscope
