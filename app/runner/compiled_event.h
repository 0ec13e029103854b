// The `compiled` event: what NVRTC/ptxas said about a kernel and its occupancy.
#pragma once

#include "block_limit.h"
#include "gpu_device.h"
#include "loaded_kernel.h"
#include "nvrtc_compiler.h"
#include "stage_catalog.h"

#include <QJsonObject>
#include <optional>

namespace gemmscope::runner {

QJsonObject occupancyJson(const Occupancy &occupancy, const BlockLimit &limit = {});

// Occupancy on the real device: blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// the limiter and its explanation from the calculator run with the device's own limits. A binding
// `limit` (max_blocks_per_sm) replaces both, and its padding is reported. `smemBytes` is the static
// shared memory; `dynamicSmemBytes` the stage's own dynamic shared memory (without padding).
Occupancy deviceOccupancy(const DeviceInfo &device, const LoadedKernel &kernel, int threadsPerBlock,
                          int registers, int smemBytes, const BlockLimit &limit = {},
                          int dynamicSmemBytes = 0);
// Compile-only: the calculator for the named architecture's datasheet GPU, if GemmScope knows one.
std::optional<Occupancy> modelOccupancy(int arch, int threadsPerBlock, int registers, int smemBytes);

// Fields of the event without "event" and "id" (the result event embeds them as "compiled").
QJsonObject compiledFields(const StageInfo &stage, const CompiledKernel &kernel,
                           const std::optional<Occupancy> &occupancy, const BlockLimit &limit = {});

} // namespace gemmscope::runner
