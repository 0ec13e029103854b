// Hopper's Tensor Memory Accelerator (TMA) and the shared-memory barriers that pace it (sm_90):
// one thread names a whole tile by its coordinates in a tensor map and the copy engine moves it
// into shared memory, swizzled, zero-filling what lies outside the matrix, then signals an
// mbarrier with the bytes it wrote. PTX ISA, "cp.async.bulk.tensor" and "mbarrier".
#pragma once

namespace gemmscope {

// The driver's CUtensorMap (cuTensorMapEncodeTiled fills it on the host; the runner passes it by
// value as a __grid_constant__ kernel parameter): 128 opaque bytes, 64-byte aligned. Declared here
// so that the stage compiles under NVRTC without the driver's headers.
struct alignas(64) TensorMap {
    unsigned long long opaque[16];
};

__device__ __forceinline__ unsigned sharedAddress(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// An mbarrier completes a phase when `count` arrivals have been made and every byte announced with
// expect_tx has landed; waiters name the phase by its parity (0, 1, 0, ...).
__device__ __forceinline__ void barrierInit(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(count)
                 : "memory");
}

// Makes the initialised barriers visible to the copy engine (the async proxy) before it signals one.
__device__ __forceinline__ void fenceBarrierInit()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n"
                 "fence.proxy.async.shared::cta;\n" ::
                     : "memory");
}

__device__ __forceinline__ void barrierArrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sharedAddress(bar)) : "memory");
}

// One arrival that also announces `bytes` the copy engine will deliver in this phase.
__device__ __forceinline__ void barrierArriveExpectBytes(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sharedAddress(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void barrierWait(unsigned long long *bar, unsigned parity)
{
    const unsigned address = sharedAddress(bar);
    unsigned done = 0;
    do
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(address), "r"(parity)
                     : "memory");
    while (!done);
}

// Copies the box at (inner, outer) of a 2-D tensor map into shared memory at `dst` (1024-byte
// aligned for the 128-byte swizzle); the copy engine counts its bytes on `bar`. A box that runs
// past the matrix arrives zero-filled there, and its full size is still counted.
__device__ __forceinline__ void tmaLoad2d(void *dst, const TensorMap *map, int inner, int outer,
                                          unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(sharedAddress(dst)),
                 "l"(reinterpret_cast<unsigned long long>(map)), "r"(inner), "r"(outer),
                 "r"(sharedAddress(bar))
                 : "memory");
}

// tmaLoad2d into every block of the cluster named in `ctaMask` (bit r: the block of rank r), at the
// same shared-memory offset in each; each block's barrier at `bar`'s offset counts the bytes that land
// in it. Two blocks that need the same tile then read it from L2 once.
__device__ __forceinline__ void tmaLoad2dMulticast(void *dst, const TensorMap *map, int inner, int outer,
                                                   unsigned long long *bar, unsigned short ctaMask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(sharedAddress(dst)),
                 "l"(reinterpret_cast<unsigned long long>(map)), "r"(inner), "r"(outer),
                 "r"(sharedAddress(bar)), "h"(ctaMask)
                 : "memory");
}

// The block's rank in its cluster (0 for a launch without clusters).
__device__ __forceinline__ unsigned clusterRank()
{
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    return rank;
}

// Every thread of every block of the cluster, wherever it is in its code: what one block wrote to
// shared memory (an initialised barrier) is then visible to the others, and no block leaves while
// another may still signal one of its barriers. Not .aligned: threads of a warp may arrive apart.
__device__ __forceinline__ void clusterSync()
{
    asm volatile("barrier.cluster.arrive.release;\n"
                 "barrier.cluster.wait.acquire;\n" ::
                     : "memory");
}

// One arrival on the barrier at `bar`'s offset in the block of rank `rank` of the cluster (this
// block's own when rank is its rank). The arrival's default order (release at CTA scope) is what
// CUTLASS's ClusterBarrier uses too: the stage's readers were wgmma, already waited for. A release at
// cluster scope would fence this thread's global stores as well: measured 2.5 times slower.
__device__ __forceinline__ void barrierArriveInCluster(unsigned long long *bar, unsigned rank)
{
    asm volatile("{\n.reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(sharedAddress(bar)),
                 "r"(rank)
                 : "memory");
}

// Fetches the tensor map's 128 bytes ahead of the first copy that reads it.
__device__ __forceinline__ void prefetchTensorMap(const TensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<unsigned long long>(map)) : "memory");
}

} // namespace gemmscope
