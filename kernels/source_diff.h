// Line diffs between the CUDA sources of consecutive stages, so the GUI can show what each step
// of the ladder changed. Plain C++20, no Qt.
#pragma once

#include "stage_catalog.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

struct DiffLine {
    enum class Kind { Same, Added, Removed };
    Kind kind = Kind::Same;
    std::string text; // the line without its line break
    friend bool operator==(const DiffLine &, const DiffLine &) = default;
};

// Splits on '\n' (a trailing "\r" is dropped); a final line break does not start an empty line,
// so "a\nb\n" and "a\nb" are both two lines and "" is none.
std::vector<std::string> splitLines(std::string_view text);

// The lines of `after` against `before` through their longest common subsequence: common lines
// are Same, lines only in `before` Removed, lines only in `after` Added. Within a changed region
// the removed lines come before the added ones (as in a unified diff). O(n*m): the stage files
// are well under a hundred lines.
std::vector<DiffLine> diffLines(std::string_view before, std::string_view after);

// The stage `id` was written from: its catalog `derivedFrom` when set (strided: coalesced, as in
// the worklog), else the stage before it in the ladder that has a CUDA source file; nullopt for
// the first one and for the cuBLAS baselines (which have no source to diff).
std::optional<StageId> previousStageWithSource(StageId id);

} // namespace gemmscope
