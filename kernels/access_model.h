// Warp-level memory accesses of a kernel stage: for every global load/store instruction the 32
// lane addresses and the 32-byte sectors they touch (coalescing), and for every shared-memory
// access the bank of each lane and the conflict degree. Plain C++20, no Qt; built on the
// mapping model, so it follows the kernels' index expressions exactly.
//
// Assumptions (stated, not hidden):
//  - Each matrix starts at a 256-byte aligned address (cudaMalloc guarantees it); global
//    addresses are byte offsets from the matrix's own base.
//  - M, N, K are multiples of BM, BN, BK (accessContextError() says so otherwise), so no lane of
//    the block is switched off by a bounds check. The kernels' checks zero-fill out-of-range
//    elements; they never move the address of an in-range lane.
//  - Accesses are the ones the source writes: 4-byte ones for the seeds' kernels, 16-byte (float4)
//    ones where a stage past the seeds writes them. The compiler may merge a thread's consecutive
//    scalar shared reads into 64/128-bit loads (LDS.64/128), which changes the hardware's
//    wavefront count; the model describes the source.
//  - A 16-byte shared access needs at least as many wavefronts as its distinct words over 32
//    banks (128 bytes per wavefront), and at least the most distinct words any one bank is asked for.
//  - Shared arrays start at a 128-byte boundary, so bank = word index within the array % 32.
#pragma once

#include "mapping_model.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gemmscope {

inline constexpr int kSectorBytes = 32;
inline constexpr int kSharedBanks = 32;
inline constexpr int kFloatBytes = 4;

// Which block and which k-step of the problem the accesses belong to.
struct AccessContext {
    ProblemSize size{1024, 1024, 1024};
    long long blockRow = 0; // blockIdx.y
    long long blockCol = 0; // blockIdx.x
    long long kStep = 0;    // k0 = kStep * BK (for double buffering it also picks the buffer)
};

// Where the context's block tile starts in C (bRow, bCol), where its k tile starts (k0) and which of
// the shape's shared buffers that k tile fills.
struct TileOrigin {
    long long bRow = 0, bCol = 0, k0 = 0;
    int buffer = 0;
};
TileOrigin tileOrigin(const KernelShape &shape, const AccessContext &ctx);

// Empty when the model's assumptions hold for this shape and context; otherwise one sentence
// ("K (1000) must be a multiple of BK (16) for the access model ...", or that the stage's loads
// are not modelled yet).
std::string accessContextError(const KernelShape &shape, const AccessContext &ctx);

// The smallest problem of full block tiles that covers `size` (each side at least one tile). An
// interior block's accesses do not depend on the matrix size, so views and comparisons at sizes
// the tiles do not divide (8192 rows, 192-row tiles) draw that block from this problem.
ProblemSize roundedUpToTiles(const KernelShape &shape, const ProblemSize &size);

struct LaneAccess {
    bool active = false;
    long long address = 0; // global: byte offset from the matrix base; shared: word index in the array
    int thread = -1;       // linear thread id of the lane
    int bytes = 4;         // width of the lane's access: 4 (one float) or 16 (float4)
};
using WarpLanes = std::array<LaneAccess, kWarpSize>;

enum class AccessKind { Load, Store };

struct GlobalAccess {
    std::string label; // "load A, instruction 2 of 4"
    Operand operand = Operand::A;
    AccessKind kind = AccessKind::Load;
    int warp = 0;
    int instruction = 0; // index within its operand's instructions
    WarpLanes lanes{};
    std::vector<long long> sectors; // distinct sector numbers (byte address / 32), ascending
    int activeLanes = 0;
    int uniqueBytes = 0; // bytes the lanes ask for, each distinct address counted once

    int sectorsPerRequest() const { return int(sectors.size()); }
    // Share of fetched sector bytes some lane uses, in [0, 1]; 0 when nothing is fetched.
    double efficiency() const
    {
        return sectors.empty() ? 0.0 : double(uniqueBytes) / double(sectors.size() * kSectorBytes);
    }
};

struct SharedAccess {
    std::string label; // "read tileB[k][tx*TN + j], j = 0, k = 0"
    Operand operand = Operand::A;
    AccessKind kind = AccessKind::Load;
    int warp = 0;
    WarpLanes lanes{};                       // address = word index within the shared array
    std::array<int, kWarpSize> bankOfLane{}; // bank of the lane's first word; -1 for inactive lanes
    std::array<int, kSharedBanks> distinctWordsPerBank{};
    int activeLanes = 0;
    // Max over banks of the distinct words asked for (a broadcast of one word counts once), and
    // for wide accesses at least distinct words / 32: the number of wavefronts the access needs.
    // 1 = conflict-free for 4-byte accesses (4 for 32 distinct float4); 0 when no lane is active.
    int conflictDegree = 0;
    // ldmatrix.x4: lanes 8i..8i+7 give the eight 16-byte rows of matrix i, and the hardware serves
    // one matrix per wavefront at best, so conflictDegree is the sum over the four matrices of
    // each one's most distinct words asked of one bank (4 when every matrix is conflict-free).
    // 0: an ordinary per-lane access.
    int ldmatrixMatrices = 0;
    // Not a lane access: the 32 words (8 rows x 16 bytes) the tensor core fetches together when
    // wgmma reads one k chunk of a swizzled tile through its descriptor; "lane" i is word i of it.
    bool tensorCoreRead = false;
};

// Completes sectors / unique bytes (global) or banks / conflict degree (shared) from the lanes.
void analyseGlobal(GlobalAccess &access);
void analyseShared(SharedAccess &access);

// A warp's global instructions for one k-step in program order: the A-tile loads, the B-tile
// loads, then the C stores (which the kernel issues once, after its k loop). Instructions in
// which no lane of the warp is active are left out: the warp does not issue them.
std::vector<GlobalAccess> globalAccesses(const KernelShape &shape, const AccessContext &ctx, int warp);

// A warp's shared-memory accesses for one k-step in program order: the stores that fill the A
// and B tiles, then the inner-loop reads. The reads are listed for k = 0 only unless allK: a
// change of k adds the same offset to every lane's word, so banks rotate and the degree stays.
// For mma.sync (ThreadLayout::MmaFragments) the reads are the fragment loads, one 32-bit
// ld.shared per register at the PTX table's element (mma_fragments.h), for the first k-step of
// 8 unless allK: A's a0..a3 of each m16 tile, then B's b0, b1 of each n8 tile.
// Empty for the naive kernel.
std::vector<SharedAccess> sharedAccesses(const KernelShape &shape, const AccessContext &ctx, int warp,
                                         bool allK = false);

// The guide's point: a warp reading column `column` of a shared tile whose rows are
// tileWidth + pad floats apart (lane l reads word l * (tileWidth + pad) + column).
SharedAccess columnAccess(int tileWidth, int pad, int column = 0);
// The same tile read along row `row` (lane l reads word row * (tileWidth + pad) + l).
SharedAccess rowAccess(int tileWidth, int pad, int row = 0);

// Averages over every warp of one block and one k-step, per request (one warp instruction),
// comparable with Nsight Compute:
//   sectors/request: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum /
//                    l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum
//   shared wavefronts/request: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum / requests
//                    (bank conflicts = wavefronts - requests:
//                    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*)
struct ClassSummary {
    long long requests = 0;
    long long sectors = 0;     // global: sectors; shared: wavefronts
    long long usefulBytes = 0; // global only
    double perRequest() const { return requests == 0 ? 0.0 : double(sectors) / double(requests); }
    double efficiency() const
    {
        return sectors == 0 ? 0.0 : double(usefulBytes) / double(sectors * kSectorBytes);
    }
};

struct AccessSummary {
    ClassSummary loadA, loadB, storeC;      // global
    ClassSummary globalLoads;               // A and B together (what the ld counters see)
    ClassSummary sharedLoads, sharedStores; // wavefronts per request, all k of the step
};

AccessSummary summarizeBlock(const KernelShape &shape, const AccessContext &ctx);

// Warp-level memory instructions of one whole launch, comparable with
//   l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum and smsp__inst_executed_op_shared_{ld,st}.sum.
// Every block is an interior one when the tiles divide the problem, so the counts are one block's
// summary times the blocks (and, for the loads and shared accesses, the k-steps); empty otherwise.
// Comparing the shared-load count with a binary's tells whether the compiler kept the source's
// 4-byte reads (equal) or merged them into wider loads (fewer).
// For a stage that transposes B first (StageInfo::transposedB: the wgmma stages) the counts include
// the B transpose the runner launches inside the same timed launch (transpose.cuh): the counters
// see both kernels. `transpose` holds its share.
// TMA stages (TileLoadScheme::TmaSwizzled128, load_schemes/tma_swizzled128.cpp): the tile copies are bulk
// tensor copies of the TMA unit and wgmma reads shared memory through descriptors, neither through the LSU
// pipe the counters below measure: the GEMM kernel issues 0 global loads and 0 shared loads and stores; only
// its C stores (and the transpose's accesses) are counted.
struct KernelInstructionCounts {
    long long globalLoads = 0, globalStores = 0, sharedLoads = 0, sharedStores = 0;
    struct Share {
        long long globalLoads = 0, globalStores = 0, sharedLoads = 0, sharedStores = 0;
    } transpose;
};
std::optional<KernelInstructionCounts> kernelInstructionCounts(const KernelShape &shape,
                                                               const ProblemSize &size);

// The launch's per-request ratios, comparable with the counters' kernel-wide ratios: the block's
// requests and sectors (wavefronts) times the blocks and k-steps, plus the B transpose's where the
// stage has one (its loads and stores are 128 contiguous bytes: 4 sectors; its shared reads and
// writes are conflict-free: 1 wavefront). Empty where kernelInstructionCounts is.
std::optional<AccessSummary> summarizeLaunch(const KernelShape &shape, const ProblemSize &size);

// ---- TMA and the 128-byte swizzle (wgmma_tma_tf32) ----

inline constexpr int kSwizzleRowBytes = 128;                                 // one row of a box: 32 floats
inline constexpr int kSwizzleChunkBytes = 16;                                // the unit the swizzle moves
inline constexpr int kSwizzleChunks = kSwizzleRowBytes / kSwizzleChunkBytes; // 8 per row
inline constexpr int kSwizzleAtomRows = 8; // 8 rows x 128 B = a 1024-byte atom

// The 16-byte chunk of its 128-byte row where chunk `chunk` (floats 4 chunk .. 4 chunk + 3) of row
// `row` lands under CU_TENSOR_MAP_SWIZZLE_128B: chunk ^ (row % 8). Its own inverse.
int swizzled128Chunk(int row, int chunk);
// The float index of element (row, col) of a swizzled tile of 32-float rows (col < 32).
long long swizzled128Word(int row, int col);
// [row][slot]: the logical k chunk stored in 16-byte slot `slot` of row `row` of an atom (slot s
// holds banks 4s .. 4s + 3 of the row's 128 bytes).
std::array<std::array<int, kSwizzleChunks>, kSwizzleAtomRows> swizzle128Atom();

// One TMA copy: a box of the A or BT tensor map copied into a stage of shared memory.
struct TmaBox {
    Operand operand = Operand::A; // A, or B for the transposed copy BT
    std::string tensor;           // "A" or "BT"
    int rows = 0, cols = 0;       // box extent in floats: BM (BN) rows x 32
    long long firstRow = 0;       // the box's first row of the tensor (blockRow, or blockCol of BT)
    long long firstCol = 0;       // its first column: k0
    int stage = 0;                // which of the STAGES buffers it fills
    long long sharedByte = 0;     // offset of the box in the block's (1024-byte aligned) tiles
    int bytes() const { return rows * cols * kFloatBytes; }
    int atoms() const { return rows / kSwizzleAtomRows; } // 1024-byte swizzle atoms
};
// The copy engine's boxes for the context's k tile, as the shape's load scheme issues them: for TMA
// the producer thread's two copies, A first; empty for the schemes whose lanes load.
std::vector<TmaBox> tmaBoxes(const KernelShape &shape, const AccessContext &ctx);

// The 8 rows' k chunk `chunk` (words 4 chunk .. 4 chunk + 3 of rows 0..7 of an atom), the unit
// the tensor core fetches from a K-major tile, as one 32-word access: with the swizzle the rows'
// chunks lie in 8 different 16-byte slots (all 32 banks once: 1 wavefront); without it they are
// all in slot `chunk`, banks 4 chunk .. 4 chunk + 3 (8-way).
SharedAccess tensorCoreChunkRead(int chunk, bool swizzled);

} // namespace gemmscope
