// Why do Nsight Compute's shared-store wavefronts exceed one per instruction for stores whose
// addresses cannot conflict? Every store in these kernels writes 32 consecutive, aligned floats
// per warp instruction: one wavefront by address. What varies is the traffic beside the stores
// (nothing, shared reads by other warps, global loads by other warps, stores of loaded data) and
// how many warps share the SM (one block per SM, forced with dynamic shared memory, or as many
// as fit). Run under ncu (scripts/gpu-session.sh probe) and compare the hardware L1 counter
// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st) with the address-derived SASS counter
// (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st).
//
//   nvcc -O3 -arch=sm_90 -o smem_store_probe smem_store_probe.cu && ./smem_store_probe
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cudaError_t err_ = (call);                                                                           \
        if (err_ != cudaSuccess) {                                                                           \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));    \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

enum Pattern : int {
    kStoresAlone = 0,         // every warp stores; nothing else touches L1
    kStoresBesideReads = 1,   // even warps store, odd warps read shared memory (conflict-free)
    kStoresBesideGlobal = 2,  // even warps store, odd warps stream global loads through L1
    kStoresOfGlobalLoads = 3, // every warp loads from global and stores what it loaded (the tile fill)
    kBatchedFill = 4,         // eight independent loads, then their eight stores (as ptxas schedules a fill)
    kBarrierBetween = 5,      // the same, with a barrier once every warp's loads have returned
    kStoresOfL2Loads = 6,     // the tile fill with loads that bypass L1 (__ldcg): no L1 line fills
};

// How blocks share an SM: one (padded with dynamic shared memory, which also leaves L1 the least
// room), as many as fit, or as many as fit with L1 shrunk to its least (the most shared memory).
// Or one block per SM by launching only one per SM (no padding: L1 keeps its default share).
enum Residency : int { kOneBlock = 0, kAllBlocks = 1, kAllBlocksSmallL1 = 2, kOneBlockDefaultL1 = 3 };

constexpr int kTileFloats = 4096;      // 16 KB static tile per block
constexpr int kGlobalFloats = 1 << 26; // 256 MB input: global loads miss in L1 and L2

template <int P, int R> __global__ void probe(const float *__restrict__ in, float *__restrict__ out, int reps)
{
    extern __shared__ float occupancyPad[]; // only sizes the block's shared memory
    __shared__ float tile[kTileFloats];
    volatile float *t = tile;
    const int tid = threadIdx.x, warp = tid / 32;
    const bool besideOthers = P == kStoresBesideReads || P == kStoresBesideGlobal;
    const bool storer = P == kStoresAlone || (besideOthers && warp % 2 == 0);
    // Aligned 32-float slot per warp and rep: lanes hit 32 distinct banks.
    auto slot = [&](int r) { return (tid + 32 * (r * 7)) & (kTileFloats - 1); };
    // Each warp streams its own run of 128-byte lines: one fully used line per load instruction.
    const size_t globalWarp = (static_cast<size_t>(blockIdx.x) * blockDim.x + tid) / 32;
    const size_t g = (globalWarp * 65536u + tid % 32) % kGlobalFloats;
    // One loop per role, so that every shared instruction a warp issues is executed by all of its
    // lanes (a branch inside one loop would be if-converted into predicated instructions that
    // every warp issues, and the hardware counts those issues too).
    float acc = 0.0f;
    if (P == kStoresOfGlobalLoads) {
        for (int r = 0; r < reps; ++r)
            t[slot(r)] = in[(g + static_cast<size_t>(r) * 32) % kGlobalFloats];
    } else if (P == kStoresOfL2Loads) {
        for (int r = 0; r < reps; ++r)
            t[slot(r)] = __ldcg(&in[(g + static_cast<size_t>(r) * 32) % kGlobalFloats]);
    } else if (storer) { // stores alone, or the storing half beside other traffic
        for (int r = 0; r < reps; ++r)
            t[slot(r)] = static_cast<float>(r + tid);
    } else if (P == kStoresBesideReads) { // from here on: the other half
        for (int r = 0; r < reps; ++r)
            acc += t[slot(r + 1)];
    } else if (P == kStoresBesideGlobal) {
        for (int r = 0; r < reps; ++r)
            acc += in[(g + static_cast<size_t>(r) * 32) % kGlobalFloats];
    } else if (P == kBatchedFill || P == kBarrierBetween) {
        for (int r = 0; r < reps; r += 8) {
            float v[8];
#pragma unroll
            for (int j = 0; j < 8; ++j)
                v[j] = in[(g + static_cast<size_t>(r + j) * 32) % kGlobalFloats];
            if (P == kBarrierBetween) {
                // A warp reaches the barrier only with its loads returned (it adds them), so past
                // it no global-load data is on its way into this SM's L1 while the stores run.
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc += v[j];
                __syncthreads();
            }
#pragma unroll
            for (int j = 0; j < 8; ++j)
                t[slot(r + j)] = v[j];
            if (P == kBarrierBetween)
                __syncthreads();
        }
    }
    __syncthreads();
    out[static_cast<size_t>(blockIdx.x) * blockDim.x + tid] =
        acc + t[(tid * 5) & (kTileFloats - 1)] + (R == kOneBlock ? occupancyPad[0] * 0.0f : 0.0f);
}

template <int P, int R> void launch(const float *in, float *out, int threads, int sms, int reps)
{
    auto kernel = probe<P, R>;
    size_t dynamicSmem = 0;
    if (R == kOneBlock) { // more than half of an SM's shared memory: one resident block per SM
        int maxOptin = 0;
        CHECK(cudaDeviceGetAttribute(&maxOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        dynamicSmem = static_cast<size_t>(maxOptin) - kTileFloats * sizeof(float);
        CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(dynamicSmem)));
    }
    if (R == kAllBlocksSmallL1)
        CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   cudaSharedmemCarveoutMaxShared));
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, dynamicSmem));
    if (R == kOneBlockDefaultL1)
        perSm = 1; // as many blocks as SMs: the block scheduler gives each SM one
    const int blocks = sms * perSm * (R == kOneBlockDefaultL1 ? 1 : 2); // else two full waves
    kernel<<<blocks, threads, dynamicSmem>>>(in, out, reps);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    static const char *const residency[] = {"one-block", "all-blocks", "all-blocks-small-L1",
                                            "one-block-default-L1"};
    std::printf("probe<%d, %d> pattern %d residency %s threads %d blocks/SM %d warps/SM %d grid %d\n", P, R,
                P, residency[R], threads, perSm, perSm * threads / 32, blocks);
}

template <int P> void everyResidency(const float *in, float *out, int threads, int sms, int reps)
{
    launch<P, kOneBlock>(in, out, threads, sms, reps);
    launch<P, kAllBlocks>(in, out, threads, sms, reps);
    launch<P, kAllBlocksSmallL1>(in, out, threads, sms, reps);
    launch<P, kOneBlockDefaultL1>(in, out, threads, sms, reps);
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, kGlobalFloats * sizeof(float)));
    CHECK(cudaMemset(in, 0, kGlobalFloats * sizeof(float)));
    CHECK(cudaMalloc(&out, static_cast<size_t>(sms) * 2048 * 2 * sizeof(float)));
    const int reps = 2048;
    for (int threads : {256, 1024}) {
        everyResidency<kStoresAlone>(in, out, threads, sms, reps);
        everyResidency<kStoresBesideReads>(in, out, threads, sms, reps);
        everyResidency<kStoresBesideGlobal>(in, out, threads, sms, reps);
        everyResidency<kStoresOfGlobalLoads>(in, out, threads, sms, reps);
        everyResidency<kBatchedFill>(in, out, threads, sms, reps);
        everyResidency<kBarrierBetween>(in, out, threads, sms, reps);
        everyResidency<kStoresOfL2Loads>(in, out, threads, sms, reps);
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
