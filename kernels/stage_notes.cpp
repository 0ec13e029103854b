#include "stage_notes.h"

#include <algorithm>
#include <map>

namespace gemmscope {

namespace {

std::string smemTiledPaddingNote(int tile)
{
    return "This kernel reads tileA[ty][k] (one word for the whole row of lanes: a broadcast) and "
           "tileB[k][tx] "
           "(along a row): conflict-free with or without padding. The +1 padding of the guide's variant is "
           "for "
           "a column read, tile[tx][k]: unpadded, lanes " +
           std::to_string(tile) + " words apart all hit one bank (" + std::to_string(std::min(tile, 32)) +
           "-way); padded, every lane has its own bank. The last two entries of the list show both, one "
           "above "
           "the other.";
}

const std::map<std::string, StageNotes, std::less<>> &notesByStage()
{
    static const std::map<std::string, StageNotes, std::less<>> notes{
        {"naive",
         {.coalescingNote =
              "Why the worklog still calls this slow: each instruction here is well used (the lanes of a row "
              "share one A element, a broadcast, and read neighbouring B elements), but nothing is reused — "
              "every thread reads its whole row of A and column of B from global memory, 0.25 FLOP/B. "
              "Tiling (step 1) fixes the reuse; step 3 then fixes a load that really wastes sectors."}},
        {"smem_tiled",
         {.bankPaddingDemo =
              BankPaddingDemo{.tileParam = "TILE",
                              .fallbackTile = 32,
                              .unpaddedLabel =
                                  "the guide's column read tile[tx][0], unpadded (not in this kernel)",
                              .paddedLabel = "the same column read with the guide's +1 padding",
                              .note = smemTiledPaddingNote}}},
    };
    return notes;
}

// A load scheme's note, whichever stage uses it. The one lookup on TileLoadScheme here: it becomes
// a trait of the scheme once load schemes are objects (issue 20, item 5).
std::string schemeCoalescingNote(TileLoadScheme scheme)
{
    if (scheme == TileLoadScheme::TmaSwizzled128)
        return "Only the C stores are lane accesses here: no lane loads A or B. Per k tile one "
               "producer thread has the TMA unit copy a box of A and one of BT into shared memory "
               "(the Bank conflicts tab shows the boxes and their 128-byte swizzle).";
    return {};
}

} // namespace

const StageNotes &stageNotes(StageId id)
{
    static const StageNotes none;
    const auto it = notesByStage().find(id.key());
    return it == notesByStage().end() ? none : it->second;
}

std::vector<StageId> stagesWithNotes()
{
    std::vector<StageId> ids;
    for (const auto &[key, notes] : notesByStage())
        ids.push_back(StageId(key));
    return ids;
}

std::string coalescingNote(StageId id, const KernelShape *shape)
{
    if (const std::string &own = stageNotes(id).coalescingNote; !own.empty())
        return own;
    return shape ? schemeCoalescingNote(shape->loads) : std::string();
}

} // namespace gemmscope
