// The parameter block of a user's kernel (custom_stage.h), read into plain data: its lines by
// keyword, the parameters checked, every expression parsed once. custom_stage.cpp turns a sound
// block into a StageInfo whose model hooks evaluate these expressions. Plain C++20, no Qt.
#pragma once

#include "custom_stage.h"
#include "int_expression.h"

#include <optional>
#include <string>
#include <vector>

namespace gemmscope {

// An expression with the line it was written on, for sentences that point at it.
struct BlockExpression {
    IntExpression expression;
    int line = 0;
};

struct CustomBlock {
    int firstLine = 0; // the line of "gemmscope:kernel"
    std::string kernelName;
    std::string title;
    Precision precision = Precision::Fp32;
    std::vector<ParamSpec> params;
    std::vector<BlockExpression> requirements;
    std::vector<BlockExpression> block; // x, then y when given
    std::vector<BlockExpression> grid;  // x, then y when given
    std::optional<BlockExpression> shared;
    std::optional<BlockExpression> dynamicShared;
    // The names every expression may use: the parameters in order, then M, N, K.
    std::vector<std::string> names;
};

struct CustomBlockParse {
    std::optional<CustomBlock> block; // set when `problems` is empty
    std::vector<SourceProblem> problems;
};

// Reads the block out of a kernel's text. Bounded time for any input: parameters past
// kMaxCustomParams, expressions past kMaxExpressionLength and problems past a few dozen are
// refused in one sentence each, not read on.
CustomBlockParse parseCustomBlock(std::string_view text);

} // namespace gemmscope
