#include "size_axis_ticks.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gemmscope {

QString sizeTickLabel(double size)
{
    return size >= 1024 && std::fmod(size, 1024) == 0 ? QStringLiteral("%1K").arg(size / 1024)
                                                      : QString::number(size, 'f', 0);
}

std::vector<double> sizeTicksThatFit(const std::vector<double> &sizes, double lo, double hi, int widthPx,
                                     const QFontMetrics &metrics, int gap)
{
    if (sizes.empty() || lo <= 0 || hi <= lo || widthPx <= 0)
        return {};
    const double span = std::log2(hi / lo);
    const auto pixel = [&](double size) { return std::log2(size / lo) / span * widthPx; };
    const auto powerOfTwo = [](double size) {
        const double exponent = std::log2(size);
        return std::abs(exponent - std::round(exponent)) < 1e-9;
    };
    // Powers of two first, each group left to right; a map by pixel finds a label's neighbours, so
    // a sweep of thousands of sizes costs n log n, not n².
    std::vector<double> order(sizes);
    std::stable_partition(order.begin(), order.end(), powerOfTwo);
    struct Label {
        double size, half; // the size, half its label's width
    };
    std::map<double, Label> placed; // by the label's centre in pixels
    for (const double size : order) {
        const double centre = pixel(size);
        const double half = metrics.horizontalAdvance(sizeTickLabel(size)) / 2.0;
        const auto after = placed.lower_bound(centre);
        if (after != placed.end() && after->first - after->second.half - (centre + half) < gap)
            continue;
        if (after != placed.begin()) {
            const auto before = std::prev(after);
            if (centre - half - (before->first + before->second.half) < gap)
                continue;
        }
        placed.emplace(centre, Label{size, half});
    }
    std::vector<double> kept;
    kept.reserve(placed.size());
    for (const auto &[centre, label] : placed)
        kept.push_back(label.size);
    return kept;
}

} // namespace gemmscope
