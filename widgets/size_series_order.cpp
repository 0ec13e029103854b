#include "size_series_order.h"

#include "runtime_series.h"
#include "size_series_name.h"

#include <algorithm>
#include <numeric>

namespace gemmscope {

std::vector<int> seriesInLadderOrder(const std::vector<SizeSeries> &series)
{
    // Each series ranked once (ladderRank looks stage and preset up by name), then one stable sort.
    std::vector<std::pair<int, int>> ranks;
    ranks.reserve(series.size());
    for (const SizeSeries &s : series)
        ranks.push_back(ladderRank(sizeSeriesRun(s)));
    std::vector<int> order(series.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&ranks](int a, int b) { return ranks[std::size_t(a)] < ranks[std::size_t(b)]; });
    return order;
}

std::vector<const Preset *> presetsInLadderOrder()
{
    std::vector<SizeSeries> series;
    series.reserve(presets().size());
    for (const Preset &p : presets())
        series.push_back({p.stage, p.params, p.key});
    std::vector<const Preset *> ordered;
    ordered.reserve(series.size());
    for (const int i : seriesInLadderOrder(series))
        ordered.push_back(&presets()[std::size_t(i)]);
    return ordered;
}

} // namespace gemmscope
