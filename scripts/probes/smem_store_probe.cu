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

#define CHECK(call)                                                                                                   \
    do {                                                                                                              \
        cudaError_t err_ = (call);                                                                                    \
        if (err_ != cudaSuccess) {                                                                                    \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));           \
            std::exit(1);                                                                                             \
        }                                                                                                             \
    } while (0)

enum Pattern : int {
    kStoresAlone = 0,         // every warp stores; nothing else touches L1
    kStoresBesideReads = 1,   // even warps store, odd warps read shared memory (conflict-free)
    kStoresBesideGlobal = 2,  // even warps store, odd warps stream global loads through L1
    kStoresOfGlobalLoads = 3, // every warp loads from global and stores what it loaded (the tile fill)
};

constexpr int kTileFloats = 4096;       // 16 KB static tile per block
constexpr int kGlobalFloats = 1 << 26;  // 256 MB input: global loads miss in L1 and L2

template <int P, bool OneBlockPerSm>
__global__ void probe(const float *__restrict__ in, float *__restrict__ out, int reps)
{
    extern __shared__ float occupancyPad[]; // only sizes the block's shared memory
    __shared__ float tile[kTileFloats];
    volatile float *t = tile;
    const int tid = threadIdx.x, warp = tid / 32;
    const bool storer = (P == kStoresAlone || P == kStoresOfGlobalLoads) || (warp % 2 == 0);
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
    } else if (storer) {
        for (int r = 0; r < reps; ++r)
            t[slot(r)] = static_cast<float>(r + tid);
    } else if (P == kStoresBesideReads) {
        for (int r = 0; r < reps; ++r)
            acc += t[slot(r + 1)];
    } else if (P == kStoresBesideGlobal) {
        for (int r = 0; r < reps; ++r)
            acc += in[(g + static_cast<size_t>(r) * 32) % kGlobalFloats];
    }
    __syncthreads();
    out[static_cast<size_t>(blockIdx.x) * blockDim.x + tid] = acc + t[(tid * 5) & (kTileFloats - 1)] +
                                                               (OneBlockPerSm ? occupancyPad[0] * 0.0f : 0.0f);
}

template <int P, bool OneBlockPerSm>
void launch(const float *in, float *out, int threads, int sms, int reps)
{
    auto kernel = probe<P, OneBlockPerSm>;
    size_t dynamicSmem = 0;
    if (OneBlockPerSm) { // more than half of an SM's shared memory: one resident block per SM
        int maxOptin = 0;
        CHECK(cudaDeviceGetAttribute(&maxOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        dynamicSmem = static_cast<size_t>(maxOptin) - kTileFloats * sizeof(float);
        CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamicSmem)));
    }
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, dynamicSmem));
    const int blocks = sms * perSm * 2; // two full waves
    kernel<<<blocks, threads, dynamicSmem>>>(in, out, reps);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("probe<%d, %s> threads %4d  blocks/SM %d  warps/SM %2d  grid %d\n", P, OneBlockPerSm ? "true" : "false",
                threads, perSm, perSm * threads / 32, blocks);
}

template <int P> void both(const float *in, float *out, int threads, int sms, int reps)
{
    launch<P, true>(in, out, threads, sms, reps);
    launch<P, false>(in, out, threads, sms, reps);
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
        both<kStoresAlone>(in, out, threads, sms, reps);
        both<kStoresBesideReads>(in, out, threads, sms, reps);
        both<kStoresBesideGlobal>(in, out, threads, sms, reps);
        both<kStoresOfGlobalLoads>(in, out, threads, sms, reps);
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
