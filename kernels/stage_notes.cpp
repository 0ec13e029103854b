#include "stage_notes.h"

#include <map>

namespace gemmscope {

const StageNotes &stageNotes(StageId id)
{
    static const std::map<std::string, StageNotes, std::less<>> notes{
        {"naive",
         {.coalescingNote =
              "Why the worklog still calls this slow: each instruction here is well used (the lanes of a row "
              "share one A element, a broadcast, and read neighbouring B elements), but nothing is reused — "
              "every thread reads its whole row of A and column of B from global memory, 0.25 FLOP/B. "
              "Tiling (step 1) fixes the reuse; step 3 then fixes a load that really wastes sectors."}},
        {"smem_tiled", {.bankPaddingDemo = true}},
        {"wgmma_tma_tf32",
         {.coalescingNote =
              "Only the C stores are lane accesses here: no lane loads A or B. Per k tile one "
              "producer thread has the TMA unit copy a box of A and one of BT into shared memory "
              "(the Bank conflicts tab shows the boxes and their 128-byte swizzle)."}},
    };
    static const StageNotes none;
    const auto it = notes.find(id.key());
    return it == notes.end() ? none : it->second;
}

} // namespace gemmscope
