#include "timing_series.h"

#include "statistics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace gemmscope {

namespace {

// The shortest text that reads back as exactly `value`, written as printf's %g writes it (0.0001,
// 1e+09): a stream's default six digits printed 100.0001 as "100", and the refusal then called
// 100 % out of range.
std::string exactly(double value)
{
    char text[64];
    const std::to_chars_result end =
        std::to_chars(text, text + sizeof text, value, std::chars_format::general);
    return std::string(text, end.ptr);
}

} // namespace

std::string checkNoiseCriterion(const NoiseCriterion &c)
{
    std::ostringstream why;
    if (!(c.maxNoisePct > 0 && c.maxNoisePct <= 50))
        why << "The noise target " << exactly(c.maxNoisePct)
            << " % is out of range: give a relative noise above 0 % and at most 50 % (default 0.5 %); "
               "to time for the whole budget, give a large target and a budget.";
    else if (!(c.throttleThresholdPct >= 0 && c.throttleThresholdPct <= 100))
        why << "The throttle threshold " << exactly(c.throttleThresholdPct)
            << " % is out of range: give a share of the starting SM clock from 0 % (keep every sample) "
               "to 100 % (default 90 %).";
    else if (c.minSamples < 2)
        why << "At least two samples are needed for a noise figure (asked: " << c.minSamples << ").";
    return why.str();
}

TimingSeries::TimingSeries(double startClockMhz, double throttleThresholdPct)
    : m_startClockMhz(startClockMhz > 0 ? startClockMhz : 0),
      m_thresholdMhz(m_startClockMhz * throttleThresholdPct / 100)
{
}

bool TimingSeries::isThrottled(const TimedSample &s) const
{
    return m_thresholdMhz > 0 && s.clockMhz > 0 && s.clockMhz < m_thresholdMhz;
}

void TimingSeries::add(const TimedSample &sample)
{
    m_samples.push_back(sample);
    if (isThrottled(sample))
        return;
    ++m_kept;
    const double delta = sample.ms - m_mean;
    m_mean += delta / m_kept;
    m_m2 += delta * (sample.ms - m_mean);
}

double TimingSeries::noisePct() const
{
    if (m_kept < 2 || m_mean <= 0)
        return -1;
    return 100 * std::sqrt(m_m2 / (m_kept - 1)) / m_mean;
}

bool TimingSeries::noiseTargetMet(const NoiseCriterion &criterion) const
{
    const double noise = noisePct();
    return m_kept >= std::max(2, criterion.minSamples) && noise >= 0 && noise <= criterion.maxNoisePct;
}

namespace {

double sampleNoisePct(const std::vector<double> &values)
{
    if (values.size() < 2)
        return -1;
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= double(values.size());
    if (mean <= 0)
        return -1;
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return 100 * std::sqrt(squares / double(values.size() - 1)) / mean;
}

} // namespace

SampleSummary TimingSeries::summary() const
{
    SampleSummary s;
    s.samples = samples();
    s.kept = m_kept;
    s.throttled = s.samples - m_kept;
    std::vector<double> times, clocks;
    for (const TimedSample &sample : m_samples) {
        if (sample.clockMhz > 0)
            clocks.push_back(sample.clockMhz);
        if (!isThrottled(sample))
            times.push_back(sample.ms);
    }
    if (times.empty() && !m_samples.empty()) {
        s.allThrottled = true;
        for (const TimedSample &sample : m_samples)
            times.push_back(sample.ms);
    }
    std::sort(times.begin(), times.end());
    if (!times.empty()) {
        s.medianMs = percentile(times, 0.5);
        s.p20Ms = percentile(times, 0.2);
        s.p80Ms = percentile(times, 0.8);
        s.minMs = times.front();
    }
    s.noisePct = s.allThrottled ? sampleNoisePct(times) : noisePct();
    s.clockStartMhz = m_startClockMhz;
    if (!clocks.empty()) {
        std::sort(clocks.begin(), clocks.end());
        s.clockMinMhz = clocks.front();
        s.clockMedianMhz = percentile(clocks, 0.5);
    }
    return s;
}

} // namespace gemmscope
