// What a stage's diagrams say beyond what they draw, kept with the catalog as data (a stage's
// traits, not switches in the window; app/gui/stage_presenter.cpp reads them for every stage
// alike): the coalescing view's note where the accesses alone would mislead (the naive kernel's
// well-used loads; a TMA load scheme whose lanes load nothing), and the bank view's padding demo —
// the guide's column read, unpadded and with its +1 padding, what the padding is for, though the
// kernel's own reads never conflict. Plain C++: the kernel model has no Qt.
#pragma once

#include "stage_types.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gemmscope {

// The guide's point about padding, shown beside a kernel whose own reads never conflict: the column
// read tile[tx][0] of a tile x tile shared tile, unpadded and padded by one float, appended to the
// bank view's list as the last two entries (either shows both, one above the other), with a note.
struct BankPaddingDemo {
    std::string tileParam{}; // the parameter that holds the tile's width: "TILE"
    int fallbackTile = 32;   // the width where the parameters lack it
    std::string unpaddedLabel{};
    std::string paddedLabel{};
    std::function<std::string(int tile)> note{}; // the bank view's note for a tile of that width
};

struct StageNotes {
    std::string coalescingNote{}; // the stage's own; coalescingNote() falls back to its load scheme's
    std::optional<BankPaddingDemo> bankPaddingDemo{};
};

// The stage's notes; empty ones for a stage that has none.
const StageNotes &stageNotes(StageId id);

// The stages that have notes of their own (tests check each is in the catalog).
std::vector<StageId> stagesWithNotes();

// The note under the coalescing diagram: the stage's own, else, when the kernel's `shape` is
// known, its load scheme's (a TMA stage's lanes load nothing, whichever stage it is); else empty.
std::string coalescingNote(StageId id, const KernelShape *shape);

} // namespace gemmscope
