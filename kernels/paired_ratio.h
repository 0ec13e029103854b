// The ratio of two interleaved launches, taken pair by pair. The bench's "% of cuBLAS"
// was the ratio of two medians; at an H200's power cap the SM clock wanders by ~5 % within a
// second, so two medians taken over the same seconds still carry the clock's wander, and three
// runs disagreed by 3-4 points. A stage's launch and its cuBLAS call timed one after the other
// see nearly the same clock: the median of the per-pair ratios cancels the drift that both share
// (as an A/B comparison pairs its measurements). Pure arithmetic, no GPU.
#pragma once

#include <vector>

namespace gemmscope {

struct PairedRatioSummary {
    int pairs = 0;                       // pairs in the statistics (neither sample throttled)
    double median = 0, p20 = 0, p80 = 0; // of reference_ms / candidate_ms: 0.9 = 90 % of its speed
    double noisePct = -1;                // relative standard deviation of the ratios; -1 below two
};

class PairedRatio {
public:
    // One pair: the candidate's and the reference's time of one round. A pair where either sample
    // was left out of its own statistics (throttled) is left out here too; so is a non-positive time.
    void add(double candidateMs, double referenceMs, bool keep = true);
    int pairs() const { return int(m_ratios.size()); }
    double noisePct() const;
    PairedRatioSummary summary() const;

private:
    std::vector<double> m_ratios;
    double m_mean = 0, m_m2 = 0; // Welford: the noise check after every pair stays O(1)
};

} // namespace gemmscope
