// sourceProblems(): what a kernel's text must be before anything parses or compiles it. The
// include check reads the text as the preprocessor does (line splices, comments, string, character
// and raw string literals, pp-numbers with digit separators), so a directive cannot hide behind
// a comment the check misreads, and a comment-looking text inside a literal hides nothing.
#include "custom_stage.h"
#include "kernel_sources.h"

#include <algorithm>
#include <cctype>

namespace gemmscope {
namespace {

int lineOf(std::string_view text, std::size_t offset)
{
    return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
}

// The offset of the first byte that does not start a well-formed UTF-8 sequence (no overlong
// forms, no surrogates, nothing past U+10FFFF), or npos.
std::size_t firstInvalidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        const unsigned char c = byte(i);
        int length = 0;
        unsigned char low = 0x80, high = 0xBF; // the allowed range of the second byte
        if (c < 0x80)
            length = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            length = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        } else
            return i;
        if (i + std::size_t(length) > text.size())
            return i;
        for (int k = 1; k < length; ++k) {
            const unsigned char next = byte(i + std::size_t(k));
            if (k == 1 ? (next < low || next > high) : (next < 0x80 || next > 0xBF))
                return i;
        }
        i += std::size_t(length);
    }
    return std::string_view::npos;
}

bool isIdentifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string headerList()
{
    std::string list;
    const auto &sources = embeddedKernelSources();
    for (std::size_t i = 0; i < sources.size(); ++i)
        list += std::string(i == 0 ? "" : ", ") + std::string(sources[i].name);
    return list;
}

bool isEmbeddedHeader(std::string_view name)
{
    const auto &sources = embeddedKernelSources();
    return std::any_of(sources.begin(), sources.end(),
                       [&](const EmbeddedSource &s) { return s.name == name; });
}

// One logical line (splices joined, each comment one space) and the physical line it starts on.
struct LogicalLine {
    std::string text;
    int line = 1;
};

// Splits the text into logical lines as translation phases 1-3 do.
class LogicalLines {
public:
    explicit LogicalLines(std::string_view text) : m_text(text) {}

    std::vector<LogicalLine> split()
    {
        while (m_pos < m_text.size())
            step();
        finishLine();
        return std::move(m_lines);
    }

private:
    char at(std::size_t offset) const
    {
        return m_pos + offset < m_text.size() ? m_text[m_pos + offset] : '\0';
    }

    // A backslash that ends its physical line joins it to the next (phase 2).
    bool skipSplice()
    {
        std::size_t n = 0;
        if (at(0) == '\\' && at(1) == '\n')
            n = 2;
        else if (at(0) == '\\' && at(1) == '\r' && at(2) == '\n')
            n = 3;
        if (n == 0)
            return false;
        m_pos += n;
        ++m_physical;
        return true;
    }

    void newline()
    {
        ++m_pos;
        ++m_physical;
        finishLine();
        m_current.line = m_physical;
    }

    void finishLine()
    {
        if (!m_current.text.empty())
            m_lines.push_back(m_current);
        m_current.text.clear();
    }

    void step()
    {
        if (skipSplice())
            return;
        const char c = at(0);
        if (c == '\n')
            return newline();
        if (c == '/' && at(1) == '/')
            return lineComment();
        if (c == '/' && at(1) == '*')
            return blockComment();
        if (c == '"' || c == '\'')
            return quotedLiteral(c);
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && std::isdigit(static_cast<unsigned char>(at(1)))))
            return ppNumber();
        if (isIdentifierChar(c))
            return identifier();
        m_current.text += c;
        ++m_pos;
    }

    void lineComment()
    {
        while (m_pos < m_text.size() && at(0) != '\n')
            if (!skipSplice())
                ++m_pos;
        m_current.text += ' ';
    }

    void blockComment()
    {
        m_pos += 2;
        while (m_pos < m_text.size() && !(at(0) == '*' && at(1) == '/')) {
            if (at(0) == '\n')
                ++m_physical;
            ++m_pos;
        }
        m_pos = std::min(m_text.size(), m_pos + 2);
        m_current.text += ' ';
    }

    // A string or character literal; an unterminated one ends at its line's end, as the lexer
    // ends it.
    void quotedLiteral(char quote)
    {
        m_current.text += quote;
        ++m_pos;
        while (m_pos < m_text.size()) {
            if (skipSplice())
                continue;
            const char c = at(0);
            if (c == '\n')
                return;
            m_current.text += c;
            ++m_pos;
            if (c == '\\' && m_pos < m_text.size() && at(0) != '\n') {
                m_current.text += at(0);
                ++m_pos;
            } else if (c == quote)
                return;
        }
    }

    // pp-number: digits, letters, '_', '.', e+ e- p+ p-, and ' followed by a digit or letter (a
    // digit separator, not a character literal).
    void ppNumber()
    {
        while (m_pos < m_text.size()) {
            if (skipSplice())
                continue;
            const char c = at(0);
            if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (at(1) == '+' || at(1) == '-')) {
                m_current.text += c;
                m_current.text += at(1);
                m_pos += 2;
            } else if (isIdentifierChar(c) || c == '.' || (c == '\'' && isIdentifierChar(at(1)))) {
                m_current.text += c;
                ++m_pos;
            } else
                return;
        }
    }

    // An identifier; R, u8R, uR, UR or LR directly before '"' opens a raw string literal.
    void identifier()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && isIdentifierChar(at(0)))
            ++m_pos;
        const std::string_view name = m_text.substr(start, m_pos - start);
        m_current.text += name;
        if (at(0) == '"' && (name == "R" || name == "u8R" || name == "uR" || name == "UR" || name == "LR"))
            rawString();
    }

    void rawString()
    {
        const std::size_t open = m_text.find('(', m_pos + 1);
        const std::size_t delimiterLength = open == std::string_view::npos ? 0 : open - m_pos - 1;
        const std::string_view delimiter = m_text.substr(m_pos + 1, delimiterLength);
        const bool valid = open != std::string_view::npos && delimiterLength <= 16 &&
                           delimiter.find_first_of(" ()\\\t\v\f\n\r") == std::string_view::npos;
        if (!valid)
            return quotedLiteral('"'); // not a raw string after all: an ill-formed ordinary one
        std::string close(1, ')');
        close.append(delimiter);
        close.push_back('"');
        const std::size_t end = m_text.find(close, open + 1);
        const std::size_t stop = end == std::string_view::npos ? m_text.size() : end + close.size();
        m_physical += int(
            std::count(m_text.begin() + std::ptrdiff_t(m_pos), m_text.begin() + std::ptrdiff_t(stop), '\n'));
        m_current.text += "\"\"";
        m_pos = stop;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_physical = 1;
    LogicalLine m_current;
    std::vector<LogicalLine> m_lines;
};

// A name from the text for a sentence: a long one is cut, never inside a UTF-8 sequence.
std::string shortened(std::string_view s)
{
    std::size_t bytes = 200;
    if (s.size() <= bytes)
        return std::string(s);
    while (bytes > 0 && (static_cast<unsigned char>(s[bytes]) & 0xC0) == 0x80)
        --bytes;
    return std::string(s.substr(0, bytes)) + "...";
}

std::string trimmed(std::string_view s)
{
    const std::size_t b = s.find_first_not_of(" \t\r\f\v");
    if (b == std::string_view::npos)
        return {};
    const std::size_t e = s.find_last_not_of(" \t\r\f\v");
    return std::string(s.substr(b, e - b + 1));
}

// The problem of one directive line, if it includes anything but a project header.
std::optional<SourceProblem> includeProblem(const LogicalLine &logical)
{
    std::string line = trimmed(logical.text);
    if (line.rfind("%:", 0) == 0) // the alternative token for '#'
        line.replace(0, 2, "#");
    if (line.empty() || line[0] != '#')
        return std::nullopt;
    const std::string rest = trimmed(std::string_view(line).substr(1));
    std::size_t nameEnd = 0;
    while (nameEnd < rest.size() && isIdentifierChar(rest[nameEnd]))
        ++nameEnd;
    const std::string directive = rest.substr(0, nameEnd);
    const std::string operand = trimmed(std::string_view(rest).substr(nameEnd));
    const int at = logical.line;
    if (directive == "include_next" || directive == "import" || directive == "embed")
        return SourceProblem{at, "This line uses #" + directive +
                                     ", which a kernel may not use: include GemmScope's headers with "
                                     "#include \"name\"."};
    if (directive != "include")
        return std::nullopt;
    if (operand.size() >= 2 && operand[0] == '"') {
        const std::size_t close = operand.find('"', 1);
        const std::string name =
            operand.substr(1, close == std::string::npos ? std::string::npos : close - 1);
        if (close == std::string::npos || !trimmed(std::string_view(operand).substr(close + 1)).empty())
            return SourceProblem{at, "This line's #include does not name one file in quotes: write one of "
                                     "GemmScope's headers alone, as in #include \"common.cuh\"."};
        if (isEmbeddedHeader(name))
            return std::nullopt;
        return SourceProblem{at, "This line includes \"" + shortened(name) +
                                     "\": a kernel may include only GemmScope's headers (" + headerList() +
                                     "), so that it compiles the same everywhere and reads no other file."};
    }
    if (!operand.empty() && operand[0] == '<')
        return SourceProblem{at, "This line includes " + shortened(operand) +
                                     ": a kernel may include only GemmScope's headers, in quotes (" +
                                     headerList() + ")."};
    return SourceProblem{
        at, "This line has an #include whose file is " +
                (operand.empty() ? std::string("missing") : "given by a macro (" + shortened(operand) + ")") +
                ": write the name of one of GemmScope's headers in quotes."};
}

} // namespace

std::vector<SourceProblem> sourceProblems(std::string_view text)
{
    if (text.size() > kMaxKernelSourceBytes)
        return {{0, "The kernel's source is " + std::to_string(text.size()) +
                        " bytes long; a kernel may have at most " + std::to_string(kMaxKernelSourceBytes) +
                        " bytes (1 MiB)."}};
    // Binary content gets one sentence: nothing after it would be worth reading.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        const int line = lineOf(text, nul);
        return {{line, "This line has a NUL byte: this is a binary file, not a kernel's CUDA source."}};
    }
    if (const std::size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
        const int line = lineOf(text, bad);
        return {{line, "This line is not valid UTF-8 text: save the kernel as UTF-8 (or plain ASCII)."}};
    }
    std::vector<SourceProblem> out;
    for (const LogicalLine &line : LogicalLines(text).split())
        if (auto problem = includeProblem(line))
            out.push_back(std::move(*problem));
    return out;
}

} // namespace gemmscope
