// A parsed parameter block (custom_block.h) turned into a StageInfo: the model hooks evaluate the
// block's expressions, and every evaluation error (a division by zero, an overflow, a block of no
// threads) becomes a violation sentence before anything launches.
#include "custom_stage.h"
#include "custom_block.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>

namespace gemmscope {
namespace {

constexpr long long kMaxGridX = INT_MAX;
constexpr long long kMaxGridY = 65535;
constexpr long long kMaxBlockDimension = 1024;

// The values every expression reads: the parameters in the block's order, then M, N, K.
std::vector<long long> expressionValues(const CustomBlock &block, const ParamValues &params,
                                        const ProblemSize &size)
{
    std::vector<long long> values;
    values.reserve(block.names.size());
    for (const ParamSpec &p : block.params)
        values.push_back(paramValue(params, p.name));
    values.insert(values.end(), {size.m, size.n, size.k});
    return values;
}

// What the user sees of the values an expression read: "BM=64 TM=3" (and M, N, K where it reads them).
std::string valuesRead(const CustomBlock &block, const IntExpression &e, const std::vector<long long> &values)
{
    std::string out;
    for (std::size_t i = 0; i < block.names.size(); ++i)
        if (e.uses(i))
            out += (out.empty() ? "" : " ") + block.names[i] + "=" + std::to_string(values[i]);
    return out.empty() ? std::string("any values") : out;
}

// One launch dimension or byte count: its expression evaluated and held to [low, high], or a
// sentence in `out` and nullopt.
std::optional<long long> checkedValue(const CustomBlock &block, const BlockExpression &e, const char *what,
                                      long long low, long long high, const std::vector<long long> &values,
                                      std::vector<std::string> *out)
{
    const ExpressionValue v = e.expression.evaluate(values);
    const std::string where =
        "The " + std::string(what) + " \"" + e.expression.text() + "\" (line " + std::to_string(e.line) + ")";
    if (!v.value) {
        if (out)
            out->push_back(where + " cannot be computed for " + valuesRead(block, e.expression, values) +
                           ": " + v.error + ".");
        return std::nullopt;
    }
    if (*v.value < low || *v.value > high) {
        if (out)
            out->push_back(where + " is " + std::to_string(*v.value) + " for " +
                           valuesRead(block, e.expression, values) + "; it must be between " +
                           std::to_string(low) + " and " + std::to_string(high) + ".");
        return std::nullopt;
    }
    return v.value;
}

using SharedBlock = std::shared_ptr<const CustomBlock>;

// Block and grid, each dimension checked; sentences in `out` when it is given.
std::optional<LaunchGeometry> evaluateLaunch(const CustomBlock &b, const ParamValues &params,
                                             const ProblemSize &size, std::vector<std::string> *out)
{
    const std::vector<long long> values = expressionValues(b, params, size);
    LaunchGeometry g;
    bool ok = true;
    const char *blockNames[] = {"block x size", "block y size"};
    const char *gridNames[] = {"grid x size", "grid y size"};
    const long long gridLimits[] = {kMaxGridX, kMaxGridY};
    for (std::size_t i = 0; i < b.block.size(); ++i) {
        const auto v = checkedValue(b, b.block[i], blockNames[i], 1, kMaxBlockDimension, values, out);
        ok = ok && v;
        (i == 0 ? g.blockX : g.blockY) = v ? int(*v) : 0;
    }
    for (std::size_t i = 0; i < b.grid.size(); ++i) {
        const auto v = checkedValue(b, b.grid[i], gridNames[i], 1, gridLimits[i], values, out);
        ok = ok && v;
        (i == 0 ? g.gridX : g.gridY) = v ? *v : 0;
    }
    if (ok && out && g.threadsPerBlock() > kMaxBlockDimension)
        out->push_back("The block of " + std::to_string(g.blockX) + " x " + std::to_string(g.blockY) + " = " +
                       std::to_string(g.threadsPerBlock()) + " threads is more than the 1024 CUDA allows.");
    if (!ok)
        return std::nullopt;
    return g;
}

int sharedBytes(const CustomBlock &b, const std::optional<BlockExpression> &e, const char *what,
                const ParamValues &params, std::vector<std::string> *out)
{
    if (!e)
        return 0;
    const auto v =
        checkedValue(b, *e, what, 0, INT_MAX, expressionValues(b, params, ProblemSize{0, 0, 0}), out);
    return v ? int(*v) : 0;
}

void customConstraints(const CustomBlock &b, const ParamValues &params, const ProblemSize &size,
                       std::vector<std::string> &out)
{
    const std::vector<long long> values = expressionValues(b, params, size);
    for (const BlockExpression &r : b.requirements) {
        const ExpressionValue v = r.expression.evaluate(values);
        const std::string where =
            "The requirement \"" + r.expression.text() + "\" (line " + std::to_string(r.line) + ")";
        if (!v.value)
            out.push_back(where + " cannot be checked for " + valuesRead(b, r.expression, values) + ": " +
                          v.error + ".");
        else if (*v.value == 0)
            out.push_back(where + " does not hold for " + valuesRead(b, r.expression, values) + ".");
    }
    evaluateLaunch(b, params, size, &out);
    sharedBytes(b, b.shared, "static shared memory", params, &out);
    sharedBytes(b, b.dynamicShared, "dynamic shared memory", params, &out);
}

StageModel customModel(const SharedBlock &block)
{
    StageModel m;
    // A configuration the constraints refuse never launches; its geometry is an empty grid.
    m.launch = [block](const ParamValues &p, const ProblemSize &size) {
        if (auto g = evaluateLaunch(*block, p, size, nullptr))
            return *g;
        LaunchGeometry empty;
        empty.gridX = empty.gridY = 0;
        return empty;
    };
    m.staticSmem = [block](const ParamValues &p) {
        return sharedBytes(*block, block->shared, "static shared memory", p, nullptr);
    };
    m.dynamicSmem = [block](const ParamValues &p) {
        return sharedBytes(*block, block->dynamicShared, "dynamic shared memory", p, nullptr);
    };
    m.constraints = [block](const ParamValues &p, const ProblemSize &size, std::vector<std::string> &out) {
        customConstraints(*block, p, size, out);
    };
    return m;
}

// The last path component, so that a program name never looks like a path.
std::string baseName(std::string_view fileName)
{
    const std::size_t slash = fileName.find_last_of("/\\");
    std::string name(slash == std::string_view::npos ? fileName : fileName.substr(slash + 1));
    name.erase(
        std::remove_if(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }),
        name.end());
    if (name.size() > 120)
        name.resize(120);
    return name.empty() ? std::string("kernel.cuh") : name;
}

} // namespace

std::string customStageKey(std::string_view text)
{
    // FNV-1a: defined the same on every platform and in every process (std::hash is neither).
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string key = "user-";
    for (int shift = 60; shift >= 0; shift -= 4)
        key += digits[(hash >> shift) & 0xF];
    return key;
}

bool isCustomStageKey(std::string_view key)
{
    return key.size() == 21 && key.substr(0, 5) == "user-" &&
           std::all_of(key.begin() + 5, key.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string describeSourceProblems(std::string_view fileName, const std::vector<SourceProblem> &problems)
{
    std::string out;
    for (const SourceProblem &p : problems)
        out += (out.empty() ? "" : "\n") + std::string(fileName) +
               (p.line > 0 ? ":" + std::to_string(p.line) : std::string()) + ": " + p.message;
    return out;
}

CustomStageParse parseCustomStage(const CustomKernelSource &source)
{
    CustomStageParse out;
    out.problems = sourceProblems(source.text);
    // A text too large or binary is not read any further (sourceProblems said why in one sentence).
    if (source.text.size() > kMaxKernelSourceBytes || source.text.find('\0') != std::string::npos)
        return out;
    CustomBlockParse parsed = parseCustomBlock(source.text);
    out.problems.insert(out.problems.end(), parsed.problems.begin(), parsed.problems.end());
    std::stable_sort(out.problems.begin(), out.problems.end(),
                     [](const SourceProblem &a, const SourceProblem &b) { return a.line < b.line; });
    if (!out.problems.empty())
        return out;

    auto block = std::make_shared<const CustomBlock>(std::move(*parsed.block));
    StageInfo s;
    s.key = customStageKey(source.text);
    s.sourceFile = baseName(source.fileName);
    s.title = block->title.empty() ? s.sourceFile : block->title;
    s.seedStep = "your kernel";
    s.summary =
        "Your kernel " + s.sourceFile +
        (source.derivedFrom.empty() ? std::string(".") : ", written from stage " + source.derivedFrom + ".");
    s.kernelName = block->kernelName;
    s.params = block->params;
    s.isCustom = true;
    s.sourceText = source.text;
    s.precision = block->precision;
    s.derivedFrom = source.derivedFrom;
    s.beyondSeeds = true;
    s.shortLabel = "user";
    s.color = 0x17becf;
    s.model = customModel(block);
    s.id = StageId(s.key);
    out.stage = std::move(s);
    return out;
}

} // namespace gemmscope
