#include "int_expression.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace gemmscope {
namespace {

using Op = IntExpression::Op;

struct Token {
    enum class Kind { End, Number, Name, Symbol, Bad } kind = Kind::End;
    std::string_view text;
    long long number = 0;
};

bool isNameStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The first `bytes` of a text, never cut inside a UTF-8 sequence.
std::string_view head(std::string_view text, std::size_t bytes)
{
    if (text.size() <= bytes)
        return text;
    while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80)
        --bytes;
    return text.substr(0, bytes);
}

std::string quoted(std::string_view text)
{
    return "\"" + std::string(text) + "\"";
}

} // namespace

// Recursive descent over the token stream; each level of nesting costs one unit of depth so a
// hostile "((((...))))" ends with a sentence, not a stack overflow.
class ExpressionParser {
public:
    ExpressionParser(std::string_view text, const std::vector<std::string> &names,
                     const ExpressionLimits &limits)
        : m_text(text), m_names(names), m_limits(limits)
    {
    }

    IntExpression::Parse run()
    {
        IntExpression::Parse out;
        next();
        const int root = parseOr(0);
        if (m_error.empty() && m_token.kind != Token::Kind::End)
            fail(m_token.text == ")"
                     ? "has a ')' without its '('"
                     : "continues after a complete expression at '" + std::string(m_token.text) + "'");
        if (!m_error.empty()) {
            out.error = "The expression " + quoted(m_text) + " " + m_error + ".";
            return out;
        }
        IntExpression e;
        e.m_text = std::string(m_text);
        e.m_nodes = std::move(m_nodes);
        e.m_root = root;
        out.expression = std::move(e);
        return out;
    }

private:
    void fail(std::string why)
    {
        if (m_error.empty())
            m_error = std::move(why);
    }

    std::size_t tokenBegin() const { return std::size_t(m_token.text.data() - m_text.data()); }

    void next()
    {
        m_lastEnd = m_token.text.empty() ? m_lastEnd : tokenBegin() + m_token.text.size();
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
        m_token = {};
        if (m_pos >= m_text.size())
            return;
        const std::size_t start = m_pos;
        const char c = m_text[m_pos];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            long long v = 0;
            bool overflow = false;
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
                const int digit = m_text[m_pos] - '0';
                if (v > (std::numeric_limits<long long>::max() - digit) / 10)
                    overflow = true;
                else
                    v = v * 10 + digit;
                ++m_pos;
            }
            m_token = {Token::Kind::Number, m_text.substr(start, m_pos - start), v};
            if (overflow)
                fail("has the number " + std::string(m_token.text) + ", which does not fit in 64 bits");
            else if (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
                fail("has a number run into a name at '" +
                     std::string(m_text.substr(start, m_pos - start + 1)) + "'");
            return;
        }
        if (isNameStart(c)) {
            while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
                ++m_pos;
            m_token = {Token::Kind::Name, m_text.substr(start, m_pos - start)};
            return;
        }
        static constexpr std::string_view twoChar[] = {"<=", ">=", "==", "!=", "&&", "||"};
        for (std::string_view op : twoChar)
            if (m_text.substr(m_pos, 2) == op) {
                m_pos += 2;
                m_token = {Token::Kind::Symbol, op};
                return;
            }
        if (std::string_view("+-*/%()<>!,").find(c) != std::string_view::npos) {
            ++m_pos;
            m_token = {Token::Kind::Symbol, m_text.substr(start, 1)};
            return;
        }
        ++m_pos;
        m_token = {Token::Kind::Bad, m_text.substr(start, 1)};
        fail("has the character '" + std::string(m_token.text) +
             "', which is not part of an integer expression");
    }

    bool at(std::string_view symbol) const
    {
        return m_token.kind == Token::Kind::Symbol && m_token.text == symbol;
    }

    // A node spanning from `begin` to the end of the last token read.
    int add(std::size_t begin, Op op, long long value = 0, int left = -1, int right = -1)
    {
        m_nodes.push_back({op, value, left, right, begin, m_lastEnd});
        return int(m_nodes.size() - 1);
    }

    std::size_t beginOf(int node) const { return node < 0 ? m_lastEnd : m_nodes[std::size_t(node)].begin; }

    bool tooDeep(int depth)
    {
        if (depth <= m_limits.maxDepth)
            return false;
        fail("nests more than " + std::to_string(m_limits.maxDepth) + " levels deep");
        return true;
    }

    // One left-associative level: operand (op operand)*.
    template <typename Operand>
    int binaryLevel(int depth, std::initializer_list<std::pair<std::string_view, Op>> ops, Operand operand)
    {
        int left = operand(depth);
        while (m_error.empty()) {
            const auto match =
                std::find_if(ops.begin(), ops.end(), [&](const auto &entry) { return at(entry.first); });
            if (match == ops.end())
                return left;
            const std::string symbol(m_token.text);
            next();
            if (m_token.kind == Token::Kind::End) {
                fail("is missing a value after '" + symbol + "'");
                return left;
            }
            const int right = operand(depth);
            left = add(beginOf(left), match->second, 0, left, right);
        }
        return left;
    }

    int parseOr(int depth)
    {
        return binaryLevel(depth, {{"||", Op::Or}}, [this](int d) { return parseAnd(d); });
    }
    int parseAnd(int depth)
    {
        return binaryLevel(depth, {{"&&", Op::And}}, [this](int d) { return parseComparison(d); });
    }
    int parseComparison(int depth)
    {
        return binaryLevel(depth,
                           {{"<", Op::Less},
                            {"<=", Op::LessEqual},
                            {">", Op::Greater},
                            {">=", Op::GreaterEqual},
                            {"==", Op::Equal},
                            {"!=", Op::NotEqual}},
                           [this](int d) { return parseSum(d); });
    }
    int parseSum(int depth)
    {
        return binaryLevel(depth, {{"+", Op::Add}, {"-", Op::Subtract}},
                           [this](int d) { return parseProduct(d); });
    }
    int parseProduct(int depth)
    {
        return binaryLevel(depth, {{"*", Op::Multiply}, {"/", Op::Divide}, {"%", Op::Modulo}},
                           [this](int d) { return parseUnary(d); });
    }

    int parseUnary(int depth)
    {
        if (at("-") || at("+") || at("!")) {
            const std::string symbol(m_token.text);
            const std::size_t begin = tokenBegin();
            if (tooDeep(depth + 1))
                return -1;
            next();
            const int operand = parseUnary(depth + 1);
            if (symbol == "+")
                return operand;
            return add(begin, symbol == "-" ? Op::Negate : Op::Not, 0, operand);
        }
        return parsePrimary(depth);
    }

    int parsePrimary(int depth)
    {
        if (!m_error.empty())
            return -1;
        if (m_token.kind == Token::Kind::Number) {
            const std::size_t begin = tokenBegin();
            const long long value = m_token.number;
            next();
            return add(begin, Op::Constant, value);
        }
        if (at("(")) {
            const std::size_t begin = tokenBegin();
            if (tooDeep(depth + 1))
                return -1;
            next();
            const int inner = parseOr(depth + 1);
            expectClose("'('");
            if (inner >= 0 && m_error.empty()) { // the parentheses belong to what they enclose
                m_nodes[std::size_t(inner)].begin = begin;
                m_nodes[std::size_t(inner)].end = m_lastEnd;
            }
            return inner;
        }
        if (m_token.kind == Token::Kind::Name)
            return parseName(depth);
        if (m_token.kind == Token::Kind::End)
            fail("ends where a value is expected");
        else
            fail("has '" + std::string(m_token.text) + "' where a value is expected");
        return -1;
    }

    int parseName(int depth)
    {
        const std::string name(m_token.text);
        const std::size_t begin = tokenBegin();
        next();
        if (IntExpression::isFunctionName(name)) {
            if (!at("(")) {
                fail("uses " + name + " without its arguments: write " + name + "(a, b)");
                return -1;
            }
            if (tooDeep(depth + 1))
                return -1;
            next();
            const int a = parseOr(depth + 1);
            if (m_error.empty() && !at(",")) {
                fail("gives " + name + " one argument where it takes two");
                return -1;
            }
            next();
            const int b = parseOr(depth + 1);
            if (m_error.empty() && at(",")) {
                fail("gives " + name + " more than two arguments");
                return -1;
            }
            expectClose(name + "(");
            const Op op = name == "min" ? Op::Min : name == "max" ? Op::Max : Op::CeilDiv;
            return add(begin, op, 0, a, b);
        }
        const auto it = std::find(m_names.begin(), m_names.end(), name);
        if (it == m_names.end()) {
            std::string known;
            for (std::size_t i = 0; i < m_names.size(); ++i)
                known += (i == 0 ? "" : i + 1 == m_names.size() ? " and " : ", ") + m_names[i];
            fail("names " + name + ", which is neither a parameter nor M, N or K (the names are " + known +
                 ")");
            return -1;
        }
        return add(begin, Op::Variable, it - m_names.begin());
    }

    void expectClose(const std::string &opener)
    {
        if (!m_error.empty())
            return;
        if (!at(")")) {
            fail("has " + opener + " without its ')'");
            return;
        }
        next();
    }

    std::string_view m_text;
    const std::vector<std::string> &m_names;
    ExpressionLimits m_limits;
    std::size_t m_pos = 0;
    std::size_t m_lastEnd = 0; // where the last token read ends
    Token m_token;
    std::vector<IntExpression::Node> m_nodes;
    std::string m_error;
};

IntExpression::Parse IntExpression::parse(std::string_view text, const std::vector<std::string> &names,
                                          const ExpressionLimits &limits)
{
    if (text.size() > limits.maxLength) {
        Parse out;
        out.error = "The expression \"" + std::string(head(text, 40)) + "...\" is " +
                    std::to_string(text.size()) + " characters long; an expression may have at most " +
                    std::to_string(limits.maxLength) + ".";
        return out;
    }
    if (text.find_first_not_of(" \t") == std::string_view::npos) {
        Parse out;
        out.error = "An expression is missing where one is expected.";
        return out;
    }
    return ExpressionParser(text, names, limits).run();
}

bool IntExpression::isFunctionName(std::string_view name)
{
    return name == "min" || name == "max" || name == "ceil_div";
}

bool IntExpression::uses(std::size_t index) const
{
    return std::any_of(m_nodes.begin(), m_nodes.end(),
                       [&](const Node &n) { return n.op == Op::Variable && std::size_t(n.value) == index; });
}

ExpressionValue IntExpression::evaluate(std::span<const long long> values) const
{
    if (m_root < 0)
        return {std::nullopt, "the expression is empty"};
    return evaluateNode(m_root, values);
}

namespace {

ExpressionValue failed(std::string why, const std::string &text)
{
    return {std::nullopt, why + " in " + quoted(text)};
}

} // namespace

ExpressionValue IntExpression::evaluateNode(int index, std::span<const long long> values) const
{
    const Node &n = m_nodes[std::size_t(index)];
    // The failing operation's own text: "a division by zero in \"N / K\"".
    const auto spanOf = [this](const Node &node) {
        return node.end > node.begin && node.end <= m_text.size()
                   ? m_text.substr(node.begin, node.end - node.begin)
                   : m_text;
    };
    switch (n.op) {
    case Op::Constant:
        return {n.value, {}};
    case Op::Variable:
        if (std::size_t(n.value) >= values.size())
            return failed("a name without a value", spanOf(n));
        return {values[std::size_t(n.value)], {}};
    default:
        break;
    }
    ExpressionValue left = evaluateNode(n.left, values);
    if (!left.value)
        return left;
    const long long a = *left.value;
    if (n.op == Op::Negate) {
        if (a == std::numeric_limits<long long>::min())
            return failed("an overflow of 64-bit integers", spanOf(n));
        return {-a, {}};
    }
    if (n.op == Op::Not)
        return {a == 0 ? 1 : 0, {}};
    // && and || short-circuit: their right side may be undefined where the left decides.
    if (n.op == Op::And && a == 0)
        return {0, {}};
    if (n.op == Op::Or && a != 0)
        return {1, {}};
    ExpressionValue right = evaluateNode(n.right, values);
    if (!right.value)
        return right;
    const long long b = *right.value;
    long long r = 0;
    switch (n.op) {
    case Op::Add:
        if (__builtin_add_overflow(a, b, &r))
            return failed("an overflow of 64-bit integers", spanOf(n));
        return {r, {}};
    case Op::Subtract:
        if (__builtin_sub_overflow(a, b, &r))
            return failed("an overflow of 64-bit integers", spanOf(n));
        return {r, {}};
    case Op::Multiply:
        if (__builtin_mul_overflow(a, b, &r))
            return failed("an overflow of 64-bit integers", spanOf(n));
        return {r, {}};
    case Op::Divide:
    case Op::Modulo:
    case Op::CeilDiv:
        if (b == 0)
            return failed(n.op == Op::Modulo ? "a modulo by zero" : "a division by zero", spanOf(n));
        if (a == std::numeric_limits<long long>::min() && b == -1)
            return failed("an overflow of 64-bit integers", spanOf(n));
        if (n.op == Op::Divide)
            return {a / b, {}};
        if (n.op == Op::Modulo)
            return {a % b, {}};
        // ceil_div rounds the true quotient up, whatever the signs.
        return {a / b + ((a % b != 0 && ((a < 0) == (b < 0))) ? 1 : 0), {}};
    case Op::Less:
        return {a < b, {}};
    case Op::LessEqual:
        return {a <= b, {}};
    case Op::Greater:
        return {a > b, {}};
    case Op::GreaterEqual:
        return {a >= b, {}};
    case Op::Equal:
        return {a == b, {}};
    case Op::NotEqual:
        return {a != b, {}};
    case Op::And:
    case Op::Or:
        return {b != 0 ? 1 : 0, {}};
    case Op::Min:
        return {std::min(a, b), {}};
    case Op::Max:
        return {std::max(a, b), {}};
    default:
        return failed("an unknown operation", spanOf(n));
    }
}

} // namespace gemmscope
