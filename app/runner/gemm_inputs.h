// Seeded input matrices: a counter-based hash, so that the same seed and size give the same
// values on every machine and in any thread split. Values lie in [-1, 1] and are never zero.
#pragma once

#include <cstdint>
#include <vector>

namespace gemmscope::runner {

enum class InputMatrix : std::uint64_t { A = 1, B = 2 };

float inputValue(std::uint64_t seed, InputMatrix matrix, std::uint64_t index);
// Fills `count` values in parallel (hardware threads).
std::vector<float> makeInput(std::uint64_t seed, InputMatrix matrix, std::uint64_t count);

} // namespace gemmscope::runner
