#include "paired_ratio.h"

#include "statistics.h"

#include <algorithm>
#include <cmath>

namespace gemmscope {

void PairedRatio::add(double candidateMs, double referenceMs, bool keep)
{
    if (!keep || !(candidateMs > 0) || !(referenceMs > 0))
        return;
    const double ratio = referenceMs / candidateMs;
    m_ratios.push_back(ratio);
    const double delta = ratio - m_mean;
    m_mean += delta / double(m_ratios.size());
    m_m2 += delta * (ratio - m_mean);
}

double PairedRatio::noisePct() const
{
    if (m_ratios.size() < 2 || m_mean <= 0)
        return -1;
    return 100 * std::sqrt(m_m2 / double(m_ratios.size() - 1)) / m_mean;
}

PairedRatioSummary PairedRatio::summary() const
{
    PairedRatioSummary s;
    s.pairs = pairs();
    if (m_ratios.empty())
        return s;
    std::vector<double> sorted = m_ratios;
    std::sort(sorted.begin(), sorted.end());
    s.median = percentile(sorted, 0.5);
    s.p20 = percentile(sorted, 0.2);
    s.p80 = percentile(sorted, 0.8);
    s.noisePct = noisePct();
    return s;
}

} // namespace gemmscope
