// Whether a result can be compared with another: from the conditions the runner
// measured while timing it, one word — steady, throttled, noisy — and the reason in a sentence.
// The bench's table, the results table, the charts' hover and their marks all say it this way.
#pragma once

#include "conditions.h"

#include <QString>
#include <optional>

namespace gemmscope {

struct RunRecord;

enum class TrustLevel {
    Steady,    // counted samples at one clock, noise within the target
    Throttled, // samples left out for a low clock, or a thermal/hardware limit, or no cool-down
    Noisy,     // the noise stayed above the target until the budget ended
    Unknown,   // no conditions: recorded before they were measured
    Published, // the worklog's published numbers (another GPU, conditions unknown)
};

struct TrustMark {
    TrustLevel level = TrustLevel::Unknown;
    QString word;   // "steady", "throttled", "noisy", "unknown", "published"
    QString reason; // one sentence, plain text
};

TrustMark trustMark(const std::optional<protocol::RunConditions> &conditions, bool published = false);

// A run's mark: from its measured conditions, or "published" for the worklog's numbers.
TrustMark trustOf(const RunRecord &run);

// "1980 MHz" or "1605-1980 MHz" (min-median), "-" when the clock was not measured.
QString clockText(const std::optional<protocol::RunConditions> &conditions);

} // namespace gemmscope
