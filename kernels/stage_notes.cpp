#include "stage_notes.h"

#include "load_scheme.h"
#include "mapping_model.h"

#include <map>

namespace gemmscope {

const StageNotes &stageNotes(StageId id)
{
    static const std::map<std::string, StageNotes, std::less<>> notes = [] {
        std::map<std::string, StageNotes, std::less<>> own{
            {"naive",
             {.coalescingNote =
                  "Why the worklog still calls this slow: each instruction here is well used (the lanes of a "
                  "row share one A element, a broadcast, and read neighbouring B elements), but nothing is "
                  "reused — every thread reads its whole row of A and column of B from global memory, 0.25 "
                  "FLOP/B. Tiling (step 1) fixes the reuse; step 3 then fixes a load that really wastes "
                  "sectors."}},
            {"smem_tiled", {.bankPaddingDemo = true}},
        };
        // A stage without a coalescing note of its own says its load scheme's (a TMA stage: its
        // lanes load nothing).
        for (const StageInfo &stage : stages()) {
            const KernelShapeResult shape = kernelShape(stage.id, defaultParams(stage.id));
            if (!shape.shape)
                continue;
            std::string schemeNote = loadSchemeOf(*shape.shape).coalescingNote();
            if (!schemeNote.empty() && own[stage.key].coalescingNote.empty())
                own[stage.key].coalescingNote = std::move(schemeNote);
        }
        return own;
    }();
    static const StageNotes none;
    const auto it = notes.find(id.key());
    return it == notes.end() ? none : it->second;
}

} // namespace gemmscope
