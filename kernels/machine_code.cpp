#include "machine_code.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gemmscope {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::string_view firstToken(std::string_view s)
{
    s = trim(s);
    size_t end = 0;
    while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) && s[end] != ';')
        ++end;
    return s.substr(0, end);
}

// Drops a guard predicate ("@P0 ", "@!P2 ", "@%p3 ", "@!%p1 ") from the front of an instruction.
std::string_view withoutPredicate(std::string_view s)
{
    s = trim(s);
    if (!s.empty() && s.front() == '@') {
        const std::string_view guard = firstToken(s);
        s.remove_prefix(guard.size());
    }
    return trim(s);
}

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}
bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

std::optional<long long> parseNumber(std::string_view s, int base)
{
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || ptr == s.data())
        return std::nullopt;
    return v;
}

// The width suffix of a memory opcode: ".128" for SASS's LDS.128 / LDG.E.128.CONSTANT, ".v4" (x 32
// bits) for PTX's ld.shared.v4.f32 and ".v2" for .v2.
std::string widthSuffix(std::string_view opcode)
{
    if (contains(opcode, ".128") || (contains(opcode, ".v4") && !contains(opcode, ".f64")) ||
        (contains(opcode, ".v2") && contains(opcode, ".f64")))
        return ".128";
    if (contains(opcode, ".64") || contains(opcode, ".v2") || contains(opcode, ".f64") ||
        contains(opcode, ".b64") || contains(opcode, ".u64") || contains(opcode, ".s64"))
        return ".64";
    return "";
}

// The multiply-adds a GEMM's hot loop exists for: FFMA on the CUDA cores, HMMA (mma.sync) and
// HGMMA (wgmma) on the tensor cores.
bool isMathWork(const std::string &category)
{
    return category == "FFMA" || category == "HMMA" || category == "HGMMA";
}

// The innermost loop by multiply-add count among [target, branch] ranges (a wgmma kernel's spin
// on an mbarrier is a loop too, but holds none).
std::optional<LoopRange> hottestLoop(const MachineCode &code, const std::vector<LoopRange> &loops)
{
    std::optional<LoopRange> best;
    int bestCount = -1;
    for (const LoopRange &loop : loops) {
        int ffma = 0;
        for (int i = loop.first; i <= loop.last; ++i)
            ffma += isMathWork(code.lines[size_t(i)].category);
        // Ties go to the shorter (more inner) loop.
        if (ffma > bestCount ||
            (ffma == bestCount && best && loop.last - loop.first < best->last - best->first)) {
            best = loop;
            bestCount = ffma;
        }
    }
    return best;
}

} // namespace

std::string instructionCategory(std::string_view opcode)
{
    if (opcode.empty())
        return {};
    const bool ptx = std::islower(static_cast<unsigned char>(opcode.front()));
    if (ptx) {
        if (startsWith(opcode, "fma.") && contains(opcode, ".f32"))
            return "FFMA";
        if (startsWith(opcode, "mma.sync"))
            return "HMMA";
        if (startsWith(opcode, "wgmma.mma_async"))
            return "HGMMA";
        if (startsWith(opcode, "ldmatrix"))
            return "LDSM";
        if (startsWith(opcode, "cp.async.bulk.tensor") && !contains(opcode, ".global.shared"))
            return "UTMALDG"; // a TMA copy into shared memory (SASS UTMALDG)
        if (startsWith(opcode, "mbarrier.") && !startsWith(opcode, "mbarrier.init"))
            return "SYNCS"; // SASS SYNCS.ARRIVE / SYNCS.PHASECHK
        if (startsWith(opcode, "cp.async") && !contains(opcode, "commit") && !contains(opcode, "wait"))
            return "LDGSTS";
        if (startsWith(opcode, "ld.shared"))
            return "LDS" + widthSuffix(opcode);
        if (startsWith(opcode, "st.shared"))
            return "STS" + widthSuffix(opcode);
        if (startsWith(opcode, "ld.global"))
            return "LDG" + widthSuffix(opcode);
        if (startsWith(opcode, "st.global"))
            return "STG" + widthSuffix(opcode);
        if (startsWith(opcode, "bar.") || startsWith(opcode, "barrier."))
            return "BAR";
        return "other";
    }
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    if (base == "FFMA")
        return "FFMA";
    if (base == "LDGSTS" || base == "HMMA" || base == "HGMMA" || base == "LDSM" || base == "UTMALDG" ||
        base == "SYNCS")
        return std::string(base);
    if (base == "LDS" || base == "STS" || base == "LDG" || base == "STG")
        return std::string(base) + widthSuffix(opcode);
    if (base == "BAR")
        return "BAR";
    return "other";
}

MachineCode parsePtx(std::string_view ptx)
{
    MachineCode code;
    code.level = CodeLevel::Ptx;
    std::map<int, std::string> files; // .file index -> name (NVCC writes the table at the end)
    std::vector<int> fileOfLine;      // .file index of each line's .loc, -1 when none
    int currentFileIndex = -1;
    int currentLine = -1;
    std::map<std::string, int, std::less<>> labels;    // label -> line index
    std::vector<std::pair<int, std::string>> branches; // (line index, target label)

    for (std::string_view raw : splitLines(ptx)) {
        CodeLine line;
        line.text = std::string(raw);
        const std::string_view t = trim(raw);
        if (startsWith(t, ".file")) {
            // .file	1 "/path/kernel.cuh"  (optionally followed by a timestamp and size)
            std::string_view rest = trim(t.substr(5));
            const std::string_view idx = firstToken(rest);
            const size_t q1 = rest.find('"'), q2 = rest.find('"', q1 + 1);
            if (const auto n = parseNumber(idx, 10);
                n && q1 != std::string_view::npos && q2 != std::string_view::npos)
                files[int(*n)] = std::string(rest.substr(q1 + 1, q2 - q1 - 1));
        } else if (startsWith(t, ".loc")) {
            // .loc	1 66 9
            std::string_view rest = trim(t.substr(4));
            const std::string_view fileTok = firstToken(rest);
            rest = trim(rest.substr(fileTok.size()));
            const std::string_view lineTok = firstToken(rest);
            const auto f = parseNumber(fileTok, 10);
            const auto l = parseNumber(lineTok, 10);
            if (f && l) {
                currentFileIndex = int(*f);
                currentLine = int(*l);
            }
        } else if (!t.empty() && t.back() == ':' && t.find_first_of(" \t") == std::string_view::npos) {
            labels[std::string(t.substr(0, t.size() - 1))] = int(code.lines.size());
        } else if (!t.empty() && t.front() != '.' && t.front() != '/' && t.front() != '{' &&
                   t.front() != '}' && t.front() != ')' && t.front() != '(' && t.back() == ';') {
            const std::string_view body = withoutPredicate(t);
            line.isInstruction = true;
            line.opcode = std::string(firstToken(body));
            line.category = instructionCategory(line.opcode);
            line.sourceLine = currentLine;
            if (startsWith(line.opcode, "bra")) {
                std::string_view target = trim(body.substr(line.opcode.size()));
                if (!target.empty() && target.back() == ';')
                    target.remove_suffix(1);
                branches.emplace_back(int(code.lines.size()), std::string(trim(target)));
            }
        }
        fileOfLine.push_back(line.isInstruction ? currentFileIndex : -1);
        code.lines.push_back(std::move(line));
    }
    for (size_t i = 0; i < code.lines.size(); ++i)
        if (const auto it = files.find(fileOfLine[i]); it != files.end())
            code.lines[i].sourceFile = it->second;
    std::vector<LoopRange> loops;
    for (const auto &[at, target] : branches)
        if (const auto it = labels.find(target); it != labels.end() && it->second < at)
            loops.push_back({it->second, at});
    code.innerLoop = hottestLoop(code, loops);
    return code;
}

MachineCode parseSass(std::string_view sass)
{
    MachineCode code;
    code.level = CodeLevel::Sass;
    std::string currentFile;
    int currentLine = -1;
    std::map<long long, int> lineOfAddress;
    std::map<std::string, int, std::less<>> labels;         // nvdisasm's ".L_x_4:" -> line index
    std::vector<std::pair<int, long long>> branches;        // (line index, target address)
    std::vector<std::pair<int, std::string>> labelBranches; // (line index, target label)

    for (std::string_view raw : splitLines(sass)) {
        CodeLine line;
        line.text = std::string(raw);
        const std::string_view t = trim(raw);
        if (startsWith(t, "//## File")) {
            // //## File "/path/kernel.cuh", line 66 [inlined at ...]
            const size_t q1 = t.find('"'), q2 = t.find('"', q1 + 1);
            const size_t lineAt = t.find("line ", q2 == std::string_view::npos ? 0 : q2);
            if (q1 != std::string_view::npos && q2 != std::string_view::npos &&
                lineAt != std::string_view::npos) {
                currentFile = std::string(t.substr(q1 + 1, q2 - q1 - 1));
                const std::string_view num = firstToken(t.substr(lineAt + 5));
                currentLine = int(parseNumber(num.substr(0, num.find(',')), 10).value_or(-1));
            }
        } else if (!t.empty() && t.back() == ':' && t.find_first_of(" \t") == std::string_view::npos) {
            labels[std::string(t.substr(0, t.size() - 1))] = int(code.lines.size());
        } else if (startsWith(t, "/*") && t.size() > 4) {
            // /*0ff0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;   [/* 0x... */]
            const size_t close = t.find("*/");
            const auto address =
                close == std::string_view::npos ? std::nullopt : parseNumber(t.substr(2, close - 2), 16);
            std::string_view body =
                close == std::string_view::npos ? std::string_view() : t.substr(close + 2);
            if (const size_t semi = body.find(';'); semi != std::string_view::npos)
                body = body.substr(0, semi);
            body = withoutPredicate(body);
            if (address && !body.empty()) {
                line.isInstruction = true;
                line.opcode = std::string(firstToken(body));
                line.category = instructionCategory(line.opcode);
                line.sourceFile = currentFile;
                line.sourceLine = currentLine;
                lineOfAddress[*address] = int(code.lines.size());
                if (startsWith(line.opcode, "BRA")) {
                    // nvdisasm names the target: "BRA `(.L_x_4)", "BRA P4, `(.L_x_1)"; cuobjdump gives
                    // its address as the last number: "BRA 0x1420", "BRA P0, 0x740".
                    const size_t tick = body.find("`(");
                    const size_t hex = body.rfind("0x");
                    if (tick != std::string_view::npos) {
                        const size_t close = body.find(')', tick);
                        if (close != std::string_view::npos)
                            labelBranches.emplace_back(int(code.lines.size()),
                                                       std::string(body.substr(tick + 2, close - tick - 2)));
                    } else if (hex != std::string_view::npos)
                        if (const auto target = parseNumber(firstToken(body.substr(hex + 2)), 16);
                            target && *target < *address)
                            branches.emplace_back(int(code.lines.size()), *target);
                }
            }
        }
        code.lines.push_back(std::move(line));
    }
    std::vector<LoopRange> loops;
    for (const auto &[at, target] : branches)
        if (const auto it = lineOfAddress.find(target); it != lineOfAddress.end())
            loops.push_back({it->second, at});
    for (const auto &[at, target] : labelBranches)
        if (const auto it = labels.find(target); it != labels.end() && it->second < at)
            loops.push_back({it->second, at});
    code.innerLoop = hottestLoop(code, loops);
    return code;
}

std::map<std::string, int> instructionMix(const MachineCode &code, bool innerLoopOnly)
{
    std::map<std::string, int> mix;
    int first = 0, last = int(code.lines.size()) - 1;
    if (innerLoopOnly) {
        if (!code.innerLoop)
            return mix;
        first = code.innerLoop->first;
        last = code.innerLoop->last;
    }
    for (int i = first; i <= last; ++i)
        if (const CodeLine &l = code.lines[size_t(i)]; l.isInstruction)
            ++mix[l.category];
    return mix;
}

} // namespace gemmscope
