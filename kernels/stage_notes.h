// What a stage's diagrams say beyond what they draw, kept with the catalog (a stage's traits, not
// switches in the window): the coalescing view's note where the accesses alone would mislead (the
// naive kernel's well-used loads; a TMA stage whose lanes load nothing), and whether the bank view
// adds the guide's column read, unpadded and with its +1 padding — what the padding is for, though
// the kernel's own reads never conflict. Plain C++: the kernel model has no Qt.
#pragma once

#include "stage_types.h"

#include <string>

namespace gemmscope {

struct StageNotes {
    std::string coalescingNote;
    bool bankPaddingDemo = false;
};

// The stage's notes; empty ones for a stage that has none.
const StageNotes &stageNotes(StageId id);

} // namespace gemmscope
