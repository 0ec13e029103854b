#include "custom_block.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>

namespace gemmscope {
namespace {

constexpr std::string_view kMarker = "gemmscope:kernel";
constexpr std::size_t kMaxChoices = 256;
constexpr std::size_t kMaxTitleLength = 120;
constexpr std::size_t kMaxReportedProblems = 40;
constexpr const char *kParamExample = "param BM 16..256 step 16 default 64";

std::string_view trim(std::string_view s)
{
    const std::size_t b = s.find_first_not_of(" \t\r\f\v");
    if (b == std::string_view::npos)
        return {};
    const std::size_t e = s.find_last_not_of(" \t\r\f\v");
    return s.substr(b, e - b + 1);
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isQualifiedName(std::string_view s)
{
    if (s.rfind("::", 0) == 0)
        s.remove_prefix(2);
    while (true) {
        const std::size_t sep = s.find("::");
        if (!isIdentifier(s.substr(0, sep)))
            return false;
        if (sep == std::string_view::npos)
            return true;
        s.remove_prefix(sep + 2);
    }
}

// The first bytes of a text for a sentence, never cut inside a UTF-8 sequence.
std::string excerpt(std::string_view s, std::size_t bytes = 40)
{
    if (s.size() <= bytes)
        return std::string(s);
    while (bytes > 0 && (static_cast<unsigned char>(s[bytes]) & 0xC0) == 0x80)
        --bytes;
    return std::string(s.substr(0, bytes)) + "...";
}

// Splits at the commas outside parentheses; the expression parser reports unbalanced ones.
std::vector<std::string_view> splitTopLevel(std::string_view s)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (s[i] == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    parts.push_back(trim(s.substr(start)));
    return parts;
}

// A cursor over the words and numbers of a param line.
struct Cursor {
    std::string_view s;
    std::size_t pos = 0;

    void skipSpace()
    {
        while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
            ++pos;
    }
    bool atEnd()
    {
        skipSpace();
        return pos >= s.size();
    }
    bool eat(std::string_view token)
    {
        skipSpace();
        if (s.substr(pos, token.size()) != token)
            return false;
        pos += token.size();
        return true;
    }
    // A word made of name characters; eats it only when it is `word`.
    bool eatWord(std::string_view word)
    {
        skipSpace();
        std::size_t end = pos;
        while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_'))
            ++end;
        if (s.substr(pos, end - pos) != word)
            return false;
        pos = end;
        return true;
    }
    std::string_view until(std::string_view stops)
    {
        skipSpace();
        const std::size_t start = pos;
        while (pos < s.size() && !std::isspace(static_cast<unsigned char>(s[pos])) &&
               stops.find(s[pos]) == std::string_view::npos)
            ++pos;
        return s.substr(start, pos - start);
    }
    // An optionally negative whole number that fits an int; nullopt (cursor unmoved) otherwise.
    std::optional<int> integer(bool &tooLarge)
    {
        skipSpace();
        std::size_t i = pos;
        const bool negative = i < s.size() && s[i] == '-';
        if (negative)
            ++i;
        const std::size_t digits = i;
        long long v = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
            if (v <= INT_MAX)
                v = v * 10 + (s[i] - '0');
            ++i;
        }
        if (i == digits)
            return std::nullopt;
        v = negative ? -v : v;
        if (v > INT_MAX || v < INT_MIN) {
            tooLarge = true;
            return std::nullopt;
        }
        pos = i;
        return int(v);
    }
};

struct PendingLine {
    int line = 0;
    std::string_view rest;
};

class BlockReader {
public:
    explicit BlockReader(std::string_view text) : m_text(text) {}

    CustomBlockParse run()
    {
        CustomBlockParse out;
        if (readLines()) {
            for (const auto &[line, keyword, rest] : m_lines)
                readLine(line, keyword, rest);
            // A parameter whose values have a problem is still a name: no second sentence for it.
            m_block.names = m_declaredNames;
            m_block.names.insert(m_block.names.end(), {"M", "N", "K"});
            readExpressions();
        }
        std::stable_sort(m_problems.begin(), m_problems.end(),
                         [](const SourceProblem &a, const SourceProblem &b) { return a.line < b.line; });
        if (m_problems.size() > kMaxReportedProblems) {
            const int lastLine = m_problems[kMaxReportedProblems - 1].line;
            m_problems.resize(kMaxReportedProblems);
            m_problems.push_back({lastLine, "There are more problems after this line; fix these first."});
        }
        out.problems = std::move(m_problems);
        if (out.problems.empty())
            out.block = std::move(m_block);
        return out;
    }

private:
    struct Line {
        int line;
        std::string_view keyword, rest;
    };

    void problem(int line, std::string message) { m_problems.push_back({line, std::move(message)}); }

    // Finds the block and splits it into keyword lines; false when there is no block.
    bool readLines()
    {
        int lineNumber = 0;
        bool inBlock = false;
        std::size_t pos = 0;
        while (pos <= m_text.size()) {
            const std::size_t end = std::min(m_text.find('\n', pos), m_text.size());
            std::string_view line = m_text.substr(pos, end - pos);
            pos = end + 1;
            ++lineNumber;
            if (!inBlock) {
                const std::string_view t = trim(line);
                if (t.rfind("/*", 0) != 0 || trim(t.substr(2)).rfind(kMarker, 0) != 0)
                    continue;
                if (m_block.firstLine != 0) {
                    problem(lineNumber, "A second parameter block starts here (the first is at line " +
                                            std::to_string(m_block.firstLine) + "); a kernel has one.");
                    continue;
                }
                m_block.firstLine = lineNumber;
                inBlock = true;
                line = trim(t.substr(2)).substr(kMarker.size());
            }
            const std::size_t close = line.find("*/");
            if (close != std::string_view::npos) {
                inBlock = false;
                line = line.substr(0, close);
            }
            addLine(lineNumber, line);
        }
        if (m_block.firstLine == 0) {
            problem(
                0, "The kernel has no parameter block: start one with /* gemmscope:kernel and end it with */ "
                   "(docs/custom-kernels.md shows one).");
            return false;
        }
        if (inBlock) {
            problem(m_block.firstLine, "The parameter block that starts here has no closing */.");
            return false;
        }
        return true;
    }

    void addLine(int lineNumber, std::string_view line)
    {
        line = trim(line);
        if (line.rfind("*", 0) == 0 && (line.size() == 1 || line[1] == ' ')) // " * " comment decoration
            line = trim(line.substr(1));
        if (line.empty())
            return;
        std::size_t split = 0;
        while (split < line.size() && !std::isspace(static_cast<unsigned char>(line[split])))
            ++split;
        m_lines.push_back({lineNumber, line.substr(0, split), trim(line.substr(split))});
    }

    // Each of these keywords may appear once; the first line wins, later ones are problems.
    bool firstOf(std::string_view keyword, int line)
    {
        const auto [it, inserted] = m_seen.emplace(std::string(keyword), line);
        if (!inserted)
            problem(line, "The block has a second " + std::string(keyword) + " line (the first is at line " +
                              std::to_string(it->second) + ").");
        return inserted;
    }

    void readLine(int line, std::string_view keyword, std::string_view rest)
    {
        if (keyword == "param")
            return readParam(line, rest);
        if (keyword == "require") {
            m_requirements.push_back({line, rest});
            return;
        }
        static const std::vector<std::string_view> singles = {"block",     "grid",   "name",          "title",
                                                              "precision", "shared", "dynamic_shared"};
        if (std::find(singles.begin(), singles.end(), keyword) == singles.end()) {
            problem(line, "The block has no keyword \"" + excerpt(keyword) +
                              "\": its lines start with name, title, precision, param, require, block, grid, "
                              "shared or dynamic_shared.");
            return;
        }
        if (!firstOf(keyword, line))
            return;
        if (keyword == "name") {
            if (!isQualifiedName(rest))
                problem(line,
                        "The kernel's name \"" + excerpt(rest) +
                            "\" is not a C++ name: write the __global__ template's qualified name, as in "
                            "gemmscope::my_gemm.");
            m_block.kernelName = std::string(rest);
        } else if (keyword == "title") {
            if (rest.empty() || rest.size() > kMaxTitleLength)
                problem(line, "The title must have between 1 and " + std::to_string(kMaxTitleLength) +
                                  " characters.");
            m_block.title = std::string(rest);
        } else if (keyword == "precision") {
            if (rest != "fp32" && rest != "tf32")
                problem(line, "The precision \"" + excerpt(rest) +
                                  "\" is neither fp32 nor tf32: it sets how close to cuBLAS FP32 the result "
                                  "must be.");
            m_block.precision = rest == "tf32" ? Precision::Tf32 : Precision::Fp32;
        } else {
            m_singles[std::string(keyword)] = {line, rest};
        }
    }

    void readParam(int line, std::string_view rest);
    void checkParamValues(int line, ParamSpec &spec);
    std::optional<BlockExpression> expression(int line, std::string_view text, std::string_view what);
    std::vector<BlockExpression> pair(std::string_view keyword, std::string_view meaning);
    void readExpressions();

    std::string_view m_text;
    std::vector<Line> m_lines;
    std::vector<SourceProblem> m_problems;
    std::map<std::string, int> m_seen;            // keyword -> its first line
    std::map<std::string, PendingLine> m_singles; // block, grid, shared, dynamic_shared
    std::map<std::string, int> m_paramLines;      // parameter -> its line
    std::vector<PendingLine> m_requirements;
    std::vector<std::string> m_declaredNames; // every well-named parameter, in order
    int m_paramLineCount = 0;
    CustomBlock m_block;
};

void BlockReader::readParam(int line, std::string_view rest)
{
    // Past the limit one sentence, and the rest is not read: 10,000 param lines cost one problem.
    if (++m_paramLineCount > kMaxCustomParams) {
        if (m_paramLineCount == kMaxCustomParams + 1)
            problem(line, "The block declares more than " + std::to_string(kMaxCustomParams) +
                              " parameters; a kernel may have at most " + std::to_string(kMaxCustomParams) +
                              ".");
        return;
    }
    Cursor c{rest};
    const std::string name(c.until("{"));
    if (name.empty())
        return problem(line, std::string("A param line needs a name, its values and a default, as in: ") +
                                 kParamExample + ".");
    if (!isIdentifier(name))
        return problem(line, "The parameter name \"" + excerpt(name) +
                                 "\" is not a name: use letters, digits and _, starting with a letter or _.");
    if (name == "M" || name == "N" || name == "K")
        return problem(line, "A parameter may not be called " + name + ": M, N and K are the problem size.");
    if (IntExpression::isFunctionName(name))
        return problem(line,
                       "A parameter may not be called " + name + ": it is a function of the expressions.");
    if (const auto it = m_paramLines.find(name); it != m_paramLines.end())
        return problem(line, "The parameter " + name + " is declared twice (first at line " +
                                 std::to_string(it->second) + ").");
    m_paramLines[name] = line;
    m_declaredNames.push_back(name);

    ParamSpec spec;
    spec.name = spec.label = name;
    bool tooLarge = false;
    const auto notAnInt = [&] {
        problem(line, "A value of " + name + " does not fit a 32-bit int, the type of a template argument.");
    };
    if (c.eat("{")) {
        while (true) {
            const std::optional<int> v = c.integer(tooLarge);
            if (!v)
                return tooLarge
                           ? notAnInt()
                           : problem(line, "The choices of " + name +
                                               " are not whole numbers separated by commas in braces, as "
                                               "in {4, 8}.");
            if (spec.choices.size() == kMaxChoices)
                return problem(line, "The parameter " + name + " has more than " +
                                         std::to_string(kMaxChoices) + " choices; use a range with a step.");
            spec.choices.push_back(*v);
            if (c.eat("}"))
                break;
            if (!c.eat(","))
                return problem(line,
                               "The choices of " + name +
                                   " are not whole numbers separated by commas in braces, as in {4, 8}.");
        }
    } else {
        const std::optional<int> low = c.integer(tooLarge);
        const bool dots = low && c.eat("..");
        const std::optional<int> high = dots ? c.integer(tooLarge) : std::nullopt;
        if (tooLarge)
            return notAnInt();
        if (!high)
            return problem(line,
                           "The parameter " + name +
                               " has no values: write a range (16..256, optionally step 16) or a list of "
                               "choices ({4, 8}) after its name.");
        spec.min = *low;
        spec.max = *high;
        if (c.eatWord("step")) {
            const std::optional<int> step = c.integer(tooLarge);
            if (!step)
                return tooLarge ? notAnInt()
                                : problem(line, "The step of " + name + " is missing its value.");
            spec.step = *step;
        }
    }
    if (!c.eatWord("default"))
        return problem(line, "The parameter " + name +
                                 " has no default: end its line with default and a value, "
                                 "as in: " +
                                 kParamExample + ".");
    const std::optional<int> def = c.integer(tooLarge);
    if (!def)
        return tooLarge ? notAnInt() : problem(line, "The default of " + name + " is missing its value.");
    spec.defaultValue = *def;
    if (!c.atEnd())
        return problem(line, "The param line of " + name + " has \"" + excerpt(trim(rest.substr(c.pos))) +
                                 "\" after its default.");
    checkParamValues(line, spec);
}

void BlockReader::checkParamValues(int line, ParamSpec &spec)
{
    const std::string &name = spec.name;
    if (!spec.choices.empty()) {
        std::sort(spec.choices.begin(), spec.choices.end());
        if (std::adjacent_find(spec.choices.begin(), spec.choices.end()) != spec.choices.end())
            return problem(line, "The choices of " + name + " list a value twice.");
        spec.min = spec.choices.front();
        spec.max = spec.choices.back();
        if (std::find(spec.choices.begin(), spec.choices.end(), spec.defaultValue) == spec.choices.end())
            return problem(line, "The default of " + name + " (" + std::to_string(spec.defaultValue) +
                                     ") is not one of its choices.");
        spec.help =
            "A parameter of this kernel, one of its " + std::to_string(spec.choices.size()) + " choices.";
    } else {
        if (spec.min > spec.max)
            return problem(line, "The range of " + name + " runs from " + std::to_string(spec.min) +
                                     " down to " + std::to_string(spec.max) +
                                     ": write the smaller bound first.");
        if (spec.step < 1)
            return problem(line, "The step of " + name + " (" + std::to_string(spec.step) +
                                     ") must be at least 1.");
        if (spec.defaultValue < spec.min || spec.defaultValue > spec.max)
            return problem(line, "The default of " + name + " (" + std::to_string(spec.defaultValue) +
                                     ") is outside its range " + std::to_string(spec.min) + ".." +
                                     std::to_string(spec.max) + ".");
        if ((static_cast<long long>(spec.defaultValue) - spec.min) % spec.step != 0)
            return problem(line, "The default of " + name + " (" + std::to_string(spec.defaultValue) +
                                     ") is not on its steps: " + std::to_string(spec.min) +
                                     " plus a multiple of " + std::to_string(spec.step) + ".");
        spec.help = "A parameter of this kernel, " + std::to_string(spec.min) + " to " +
                    std::to_string(spec.max) +
                    (spec.step > 1 ? " in steps of " + std::to_string(spec.step) : std::string()) + ".";
    }
    m_block.params.push_back(std::move(spec));
}

std::optional<BlockExpression> BlockReader::expression(int line, std::string_view text, std::string_view what)
{
    const ExpressionLimits limits{kMaxExpressionLength, kMaxExpressionDepth};
    IntExpression::Parse parsed = IntExpression::parse(text, m_block.names, limits);
    if (!parsed.expression) {
        problem(line, "In the " + std::string(what) + ": " + parsed.error);
        return std::nullopt;
    }
    return BlockExpression{std::move(*parsed.expression), line};
}

// The one or two expressions of a block or grid line: x, then y.
std::vector<BlockExpression> BlockReader::pair(std::string_view keyword, std::string_view meaning)
{
    const auto it = m_singles.find(std::string(keyword));
    if (it == m_singles.end()) {
        problem(m_block.firstLine, "The block has no " + std::string(keyword) + " line: it gives " +
                                       std::string(meaning) + " (x, then y) as expressions.");
        return {};
    }
    const auto [line, rest] = it->second;
    const std::vector<std::string_view> parts = splitTopLevel(rest);
    if (parts.size() > 2) {
        problem(line, "The " + std::string(keyword) + " line has " + std::to_string(parts.size()) +
                          " expressions; it takes x and, optionally, y.");
        return {};
    }
    std::vector<BlockExpression> out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (auto e = expression(line, parts[i], std::string(keyword) + (i == 0 ? " x" : " y")))
            out.push_back(std::move(*e));
    return out;
}

void BlockReader::readExpressions()
{
    if (!m_seen.count("name"))
        problem(
            m_block.firstLine,
            "The block has no name line: it names the __global__ template, as in name gemmscope::my_gemm.");
    for (const PendingLine &r : m_requirements)
        if (auto e = expression(r.line, r.rest, "requirement"))
            m_block.requirements.push_back(std::move(*e));
    m_block.block = pair("block", "the threads per block");
    m_block.grid = pair("grid", "the blocks of the grid");
    const std::size_t firstSize = m_block.names.size() - 3; // M, N, K come last
    for (const char *keyword : {"shared", "dynamic_shared"}) {
        const auto it = m_singles.find(keyword);
        if (it == m_singles.end())
            continue;
        auto e = expression(it->second.line, it->second.rest, std::string(keyword) + " expression");
        if (!e)
            continue;
        if (e->expression.uses(firstSize) || e->expression.uses(firstSize + 1) ||
            e->expression.uses(firstSize + 2)) {
            problem(e->line, "The " + std::string(keyword) +
                                 " expression may use the parameters only, not M, N or K: shared memory is "
                                 "fixed when the kernel is compiled.");
            continue;
        }
        (std::string_view(keyword) == "shared" ? m_block.shared : m_block.dynamicShared) = std::move(e);
    }
}

} // namespace

CustomBlockParse parseCustomBlock(std::string_view text)
{
    return BlockReader(text).run();
}

} // namespace gemmscope
