// The one percentile GemmScope uses (the runner's timing, the GUI's stall meter): linear
// interpolation between the closest ranks of a sorted sample (NumPy's default "linear" method).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace gemmscope {

// `sorted` ascending; `fraction` in [0, 1] (0.5: the median). 0 for an empty sample.
inline double percentile(const std::vector<double> &sorted, double fraction)
{
    if (sorted.empty())
        return 0;
    const double pos = std::clamp(fraction, 0.0, 1.0) * double(sorted.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos)), hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

} // namespace gemmscope
