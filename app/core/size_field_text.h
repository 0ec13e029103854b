// What a problem-size field takes: the size as the window writes it (squareOrFullSizeText: "4096³",
// "8192x4096x6144") and what users type ("4096" for a square size, "4096x4096x4096", spaces or "×"
// between the numbers, "4096^3"). A field shows its size in the window's one spelling and still
// reads back what it shows.
#pragma once

#include "stage_types.h"

#include <QString>
#include <optional>

namespace gemmscope {

// The size the text names, or nullopt for anything else (a zero, a negative or an overflowing
// number, two numbers, words).
std::optional<ProblemSize> parseSizeFieldText(const QString &text);

// The sentence a field says when parseSizeFieldText refuses its text.
QString sizeFieldFormatText();

} // namespace gemmscope
