#include "source_diff.h"

#include <algorithm>

namespace gemmscope {

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.emplace_back(line);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::vector<DiffLine> diffLines(std::string_view before, std::string_view after)
{
    const std::vector<std::string> a = splitLines(before);
    const std::vector<std::string> b = splitLines(after);
    const size_t n = a.size(), m = b.size();
    // common[i][j]: length of the longest common subsequence of a[i..] and b[j..]. Filled from the
    // end so that the walk below can go forwards and emit lines in order.
    std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            common[i][j] =
                a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);

    std::vector<DiffLine> out;
    out.reserve(n + m);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            out.push_back({DiffLine::Kind::Same, a[i]});
            ++i, ++j;
        } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
            // Removing first on ties puts a changed line's old text above its new text.
            out.push_back({DiffLine::Kind::Removed, a[i]});
            ++i;
        } else {
            out.push_back({DiffLine::Kind::Added, b[j]});
            ++j;
        }
    }
    return out;
}

std::optional<StageId> previousStageWithSource(StageId id)
{
    const std::vector<StageInfo> &ladder = stages();
    const auto it =
        std::find_if(ladder.begin(), ladder.end(), [id](const StageInfo &s) { return s.id == id; });
    if (it == ladder.end() || it->sourceFile.empty())
        return std::nullopt;
    if (!it->derivedFrom.empty())
        if (const StageInfo *base = findStage(it->derivedFrom))
            return base->id;
    for (auto prev = std::make_reverse_iterator(it); prev != ladder.rend(); ++prev)
        if (!prev->sourceFile.empty())
            return prev->id;
    return std::nullopt;
}

} // namespace gemmscope
