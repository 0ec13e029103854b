// The vocabulary the stage catalog and the analytic models share: a problem size, a stage's
// identity, its parameter values, its launch geometry and the thread-to-tile shape the mapping
// and access models work on. Plain C++20, no Qt, no CUDA.
//
// Notation is BLAS's throughout: C[M x N] = A[M x K] * B[K x N], row-major, reduce over K.
// (The worklog writes A as M x N and reduces over N; its benchmark is M=8192, N=4096, K=6144 here.)
#pragma once

#include <array>
#include <climits>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace gemmscope {

struct ProblemSize {
    long long m = 8192;
    long long n = 4096;
    long long k = 6144;
    double flops() const { return 2.0 * double(m) * double(n) * double(k); }
    // The rate of this problem done in `ms` milliseconds, in TFLOP/s (0 when ms is not positive).
    double tflopsAt(double ms) const { return tflopsOf(flops(), ms); }
    // TFLOP/s of `flops` floating-point operations in `ms` milliseconds: the one conversion.
    static double tflopsOf(double flops, double ms) { return ms > 0 ? flops / (ms * 1e-3) / 1e12 : 0.0; }
    friend bool operator==(const ProblemSize &, const ProblemSize &) = default;
};

// A stage's identity is its catalog key ("coalesced"), held by value so that an id made from a
// runtime string outlives it. The stages the seeds reproduce have named constants; every stage,
// those included, is found by key: findStage("vectorized")->id. Adding a stage adds no constant.
class StageId {
public:
    static constexpr std::size_t kMaxKeyLength = 31;

    constexpr StageId() : StageId("naive") {}
    // Keys longer than kMaxKeyLength are cut (tst_stage_catalog checks every key fits).
    constexpr explicit StageId(std::string_view key)
    {
        m_size = key.size() < kMaxKeyLength ? key.size() : kMaxKeyLength;
        for (std::size_t i = 0; i < m_size; ++i)
            m_key[i] = key[i];
    }
    constexpr std::string_view key() const { return {m_key.data(), m_size}; }
    std::string str() const { return std::string(key()); }

    friend constexpr bool operator==(const StageId &, const StageId &) = default;

    static const StageId Naive, SmemTiled, Coarsened, Coalesced, DoubleBuffered, Strided, Final, CublasFp32,
        CublasTf32;

private:
    std::array<char, kMaxKeyLength + 1> m_key{};
    std::size_t m_size = 0;
};

inline constexpr StageId StageId::Naive{"naive"};                    // worklog step 0
inline constexpr StageId StageId::SmemTiled{"smem_tiled"};           // worklog step 1, guide 32x32 +1
inline constexpr StageId StageId::Coarsened{"coarsened"};            // worklog step 2
inline constexpr StageId StageId::Coalesced{"coalesced"};            // worklog steps 3 and 6
inline constexpr StageId StageId::DoubleBuffered{"double_buffered"}; // worklog steps 4, 5a, 5b
inline constexpr StageId StageId::Strided{"strided"};                // worklog step 7
inline constexpr StageId StageId::Final{"final"};                    // worklog step 8
inline constexpr StageId StageId::CublasFp32{"cublas_fp32"};         // baseline, pedantic FP32
inline constexpr StageId StageId::CublasTf32{"cublas_tf32"};         // baseline, TF32 tensor cores

enum class Precision { Fp32, Tf32 };

using ParamValues = std::map<std::string, int>;

// The value of one parameter, or `fallback` when the set does not have it.
int paramValue(const ParamValues &params, std::string_view name, int fallback = 0);

struct LaunchGeometry {
    int blockX = 1, blockY = 1;
    long long gridX = 1, gridY = 1;
    // In 64 bits, saturated: the geometry of a refused configuration can have any block shape.
    int threadsPerBlock() const
    {
        const long long t = (long long)blockX * blockY;
        return t > INT_MAX ? INT_MAX : t < INT_MIN ? INT_MIN : int(t);
    }
    int staticSmemBytes = 0;  // the kernel's __shared__ arrays, as the model computes them
    int dynamicSmemBytes = 0; // extern __shared__ bytes the launch passes (0 for the seeds' kernels)
    int smemBytes() const { return staticSmemBytes + dynamicSmemBytes; }
};

inline constexpr int kWarpSize = 32;

// Which thread owns which output of the block tile. Each value's object (the owners, the access
// model's index expressions, what the tile map draws) is a LayoutScheme in kernels/thread_layouts/,
// registered in kernels/thread_layouts/registry.cpp; the models and views ask it rather than test
// the value. The files give each layout's index expressions.
enum class ThreadLayout {
    Contiguous,      // thread (tx, ty) owns rows ty*TM + i, cols tx*TN + j (steps 0-6, vectorized)
    Strided,         // thread (tx, ty) owns rows ty + i*(BM/TM), cols tx + j*(BN/TN) (steps 7, 8)
    WarpTiled,       // warp tiles of 4 x 8 lanes, 4x4 fragments per lane (warptiled, pipelined, ...)
    MmaFragments,    // mma.sync m16n8k8 accumulator fragments in warp tiles (mma_tf32)
    WgmmaWarpgroups, // wgmma m64nNk8 accumulators, WM rows per consumer warpgroup (keep it last)
};
inline constexpr int kThreadLayoutCount = int(ThreadLayout::WgmmaWarpgroups) + 1;

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
    // The tensor-core stages' cp.async copies: both tiles 16 bytes (four floats) per copy, as
    // CooperativeVec4, into row-major shared tiles padded by padA / padB floats per row.
    AsyncCopiesVec4,
    // wgmma_tma_tf32: no thread loads anything. Per k tile one producer thread has the Tensor
    // Memory Accelerator copy a box of BM x 32 floats of A and one of BN x 32 of BT into the stage's
    // tiles, each 128-byte row of a box stored with the 128-byte swizzle (16-byte chunk q of row r
    // at chunk q ^ (r % 8)); wgmma reads the tiles through descriptors. access_model.h models the
    // boxes and the swizzle, not lanes.
    TmaSwizzled128,
    NotModelled, // the loads are not modelled yet: the access model says so, draws nothing (keep it last)
};
// Each value's object (mapping, access model, what the views draw) is a LoadScheme registered in
// kernels/load_schemes/registry.cpp; the models ask it rather than switch on the value.
inline constexpr int kTileLoadSchemeCount = int(TileLoadScheme::NotModelled) + 1;

enum class Operand { A, B, C };

// Everything the mapping and access models need to know about one kernel instantiation
// (mapping_model.h describes the tiles). A stage's catalog entry builds it from the parameters.
struct KernelShape {
    StageId stage;
    int bm = 1, bn = 1, bk = 1; // block tile BM x BN, reduction tile BK
    int tm = 1, tn = 1;         // outputs per thread in y and in x
    int blockX = 1, blockY = 1; // threads per block in x and y
    int padB = 0;               // extra floats per row of the shared B tile (smem_tiled's PAD)
    int buffers = 1;            // shared tiles per operand (2 when double buffered, STAGES for cp.async)
    // Past the seeds: the A tile is stored transposed (tileAT[k][m], rows of BM + padA floats) and
    // the inner loop reads and the C stores move vectorWidth (4) floats at a time. An A tile kept
    // row-major (the tensor-core stages) has rows of BK + padA floats.
    bool transposedA = false;
    int padA = 0;
    int vectorWidth = 1;
    // mma_tf32: A fragments read with ldmatrix.sync.m8n8.x4 (one 16-byte row address per lane, four
    // 8x4 TF32 matrices per instruction) instead of one 32-bit ld.shared per register.
    bool ldmatrixA = false;
    bool usesSharedMemory = true;
    // Tensor-core layouts: the warp tile (MmaFragments) or a consumer warpgroup's rows and columns
    // (WgmmaWarpgroups, wn = BN); 0 for the other layouts. The threads before firstConsumerThread
    // (a producer warpgroup) own no output.
    int wm = 0, wn = 0;
    int firstConsumerThread = 0;
    // The threads from firstConsumerThread that own outputs; 0: all the rest. A producer warp
    // after the consumers (wgmma_tma_tf32) owns none.
    int consumerThreads = 0;
    // WgmmaWarpgroups computing C transposed (D = C^T: wgmma_tf32, whose K-major operands make
    // B^T the instruction's A): D's rows are columns of C and its columns rows of C, so wm counts
    // C columns per warpgroup and wn (the instruction's N) C rows.
    bool transposedD = false;
    ThreadLayout layout = ThreadLayout::Contiguous;
    TileLoadScheme loads = TileLoadScheme::OneElementPerThread;

    int threads() const { return blockX * blockY; }
    int warps() const { return (threads() + kWarpSize - 1) / kWarpSize; }
    int outputsPerThread() const { return tm * tn; }
    // Threads that own outputs: all but a producer warpgroup.
    int outputThreads() const
    {
        return consumerThreads > 0 ? consumerThreads : threads() - firstConsumerThread;
    }
    // Row stride, in floats, of the shared A and B tiles.
    int sharedRowA() const { return transposedA ? bm + padA : bk + padA; }
    int sharedRowsA() const { return transposedA ? bk : bm; }
    // Warp tiles across the block tile (WarpTiled and MmaFragments layouts).
    int warpTileRows() const { return wm > 0 ? wm : 4 * tm; }
    int warpTileCols() const { return wn > 0 ? wn : 8 * tn; }
    int warpsX() const { return bn / warpTileCols(); }
    int sharedRowB() const { return bn + padB; }
};

} // namespace gemmscope
