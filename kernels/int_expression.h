// A small integer expression language for the parameter block of a user's kernel (custom_stage.h):
// parsed once into a tree, evaluated many times with different values. 64-bit signed arithmetic
// in which overflow, division and modulo by zero are errors with a sentence, never undefined
// behaviour. Plain C++20, no Qt.
//
//   expression := or ; or := and ('||' and)* ; and := cmp ('&&' cmp)*
//   cmp := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
//   sum := product (('+' | '-') product)* ; product := unary (('*' | '/' | '%') unary)*
//   unary := ('-' | '+' | '!') unary | primary
//   primary := integer | name | ('min' | 'max' | 'ceil_div') '(' expression ',' expression ')'
//            | '(' expression ')'
//
// Comparisons and && || ! give 0 or 1; && and || evaluate their right side only when needed, so
// "K > 0 && N / K > 2" never divides by zero. '/' and '%' truncate toward zero as C++ does.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

struct ExpressionLimits {
    std::size_t maxLength = 512; // characters of the expression's text
    int maxDepth = 64;           // nested parentheses, unary operators and function calls
};

struct ExpressionValue {
    std::optional<long long> value; // set when the evaluation succeeded
    std::string error;              // "division by zero in N / K"; empty on success
};

class IntExpression {
public:
    struct Parse;

    // Parses `text` with the given variable names (their index is their place in `names`).
    // Never throws; bounded time and memory for any input (the length is checked first).
    static Parse parse(std::string_view text, const std::vector<std::string> &names,
                       const ExpressionLimits &limits = {});

    // `values[i]` is the value of names[i] as parse() got them.
    ExpressionValue evaluate(std::span<const long long> values) const;

    const std::string &text() const { return m_text; }
    // Whether the expression reads names[index].
    bool uses(std::size_t index) const;

    // The function names the language reserves (a variable may not be called so).
    static bool isFunctionName(std::string_view name);

    enum class Op {
        Constant,
        Variable,
        Negate,
        Not,
        Add,
        Subtract,
        Multiply,
        Divide,
        Modulo,
        Less,
        LessEqual,
        Greater,
        GreaterEqual,
        Equal,
        NotEqual,
        And,
        Or,
        Min,
        Max,
        CeilDiv
    };
    struct Node {
        Op op = Op::Constant;
        long long value = 0; // Constant: the value; Variable: the name's index
        int left = -1, right = -1;
        std::size_t begin = 0, end = 0; // the node's text in text(), for error sentences
    };

private:
    friend class ExpressionParser;
    ExpressionValue evaluateNode(int index, std::span<const long long> values) const;

    std::string m_text;
    std::vector<Node> m_nodes; // the tree; m_root indexes it
    int m_root = -1;
};

struct IntExpression::Parse {
    std::optional<IntExpression> expression; // set exactly when `error` is empty
    std::string error;                       // a sentence: "BM + is missing a value after '+'."
};

} // namespace gemmscope
