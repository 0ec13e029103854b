// The one resource the window names as what limits a kernel's occupancy: the results table's
// Occupancy cell and the Compile panel ask the same function, so they cannot disagree. It is the
// occupancy model's own choice (kernels/gpu_specs.h: of the resources that bind, the one a block
// takes the larger share of), computed from the kernel's registers and its whole shared memory,
// static and dynamic. A runner's recorded word is kept where the model is not the authority: a
// launch that asked for fewer blocks ("requested"), the CUDA runtime's own count ("none"), or a
// count the model does not reproduce. Older runners named the limiter from static shared memory
// alone (registers for the TMA stage, whose 193 KiB are dynamic): the model corrects those.
#pragma once

#include "events.h"
#include "run_record.h"

#include <QString>
#include <optional>

namespace gemmscope {

struct OccupancyInputs {
    QString arch; // "sm_90", "sm_90a"
    int threadsPerBlock = 0;
    int registers = -1;                       // per thread; -1 unknown
    int smemBytes = 0;                        // per block, static + dynamic
    std::optional<OccupancyLimiter> recorded; // the runner's word
    int recordedBlocks = 0;                   // the runner's blocks per SM; 0 unknown
};

// The dynamic (extern __shared__) bytes a run's launch passes per block, from the catalog's launch
// model, the runner's own (193 KiB for the TMA stage, whose static shared memory is 0); 0 for a
// library kernel or an unknown stage.
int launchDynamicSmemBytes(const RunRecord &run);

// The limiter, or none where nothing is known.
std::optional<OccupancyLimiter> occupancyLimiter(const OccupancyInputs &inputs);
std::optional<OccupancyLimiter> occupancyLimiter(const RunRecord &run);
// A compile's answer (the Compile panel).
std::optional<OccupancyLimiter> occupancyLimiter(const protocol::CompiledInfo &compiled);

// How the window says a limiter, everywhere: "registers", "shared memory", "threads", "blocks",
// "requested", "none" (the CUDA runtime counted), or Short for a sweep cell's mark ("reg", "smem",
// "thr", "blk", "req", "none"). A name this build does not know is said as such ("?" when Short);
// no limiter is empty.
enum class LimiterWording { Full, Short };
QString limiterWords(std::optional<OccupancyLimiter> limiter, LimiterWording wording = LimiterWording::Full);

} // namespace gemmscope
