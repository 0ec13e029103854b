// The `compiled` event: what NVRTC/ptxas said about a kernel and its occupancy.
#pragma once

#include "block_limit.h"
#include "events.h"
#include "gpu_device.h"
#include "loaded_kernel.h"
#include "nvrtc_compiler.h"
#include "stage_catalog.h"

#include <optional>

namespace gemmscope::runner {

// The `occupancy` object of a `compiled` event; a requested limit adds its request and padding.
protocol::OccupancyInfo occupancyInfo(const Occupancy &occupancy, const BlockLimit &limit = {});

// Occupancy on the real device: blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// the limiter and its explanation from the calculator run with the device's own limits. A binding
// `limit` (max_blocks_per_sm) replaces both, and its padding is reported. `smemBytes` is the static
// shared memory; `dynamicSmemBytes` the stage's own dynamic shared memory (without padding).
Occupancy deviceOccupancy(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                          int registers, int smemBytes, const BlockLimit &limit = {},
                          int dynamicSmemBytes = 0);
// Compile-only: the calculator for the named architecture's datasheet GPU, if GemmScope knows one.
std::optional<Occupancy> modelOccupancy(int arch, int threadsPerBlock, int registers, int smemBytes);

// RunnerError(out_of_resources), with the numbers, when the compiled kernel cannot launch one
// block of `threadsPerBlock` threads although it compiled: its registers times the threads exceed
// the 65536 registers one block may use (allocated per warp, in units of 256), the runtime allows
// fewer threads for it (`maxThreadsForKernel`, cudaFuncAttributes::maxThreadsPerBlock; 0 unknown),
// or the occupancy calculation fits no block on an SM (`blocksPerSm` 0; `where` names the GPU
// or datasheet it was computed for, `why` is its explanation). Called after every compile, in
// compile-only mode too, and before anything is launched.
void requireLaunchable(const CompiledKernel &kernel, int threadsPerBlock, std::optional<int> blocksPerSm,
                       const QString &where, const QString &why = {}, int maxThreadsForKernel = 0);

// The event without its id (the result event embeds it as "compiled"; a job sets the id to send it).
// `arch` names the architecture actually built (sm_90a for an architecture-specific stage), and
// `dynamicSmemBytes` is the stage's own dynamic shared memory per block (the catalog's, what the
// launch passes without any padding): with the static bytes, the shared memory a block holds.
protocol::CompiledInfo compiledInfo(const StageInfo &stage, const CompiledKernel &kernel,
                                    const std::optional<Occupancy> &occupancy, const BlockLimit &limit = {},
                                    int dynamicSmemBytes = 0);

} // namespace gemmscope::runner
