// Which timed samples count, and when timing may stop, as nvbench does it: a sample
// taken while the SM clock was below a fraction of the run's starting clock is left out of the
// statistics (nvbench's --throttle-threshold), and timing may stop once the relative noise of the
// samples kept (standard deviation over mean, nvbench's "stdrel") is at or below a target.
// Pure arithmetic, no GPU: the runner feeds it and the tests feed it synthetic streams.
#pragma once

#include <string>
#include <vector>

namespace gemmscope {

struct TimedSample {
    double ms = 0;
    double clockMhz = 0; // the SM clock measured at the sample; 0: not measured (never left out)
};

// What a caller may ask for; checkNoiseCriterion says whether it makes sense.
struct NoiseCriterion {
    double maxNoisePct = 0.5;         // stop once the kept samples' noise is at or below this
    double throttleThresholdPct = 90; // leave out samples below this share of the starting clock
    int minSamples = 10;              // a noise figure of fewer kept samples is not trusted
};

// Empty when `criterion` is usable, else one sentence naming the value and its range.
std::string checkNoiseCriterion(const NoiseCriterion &criterion);

struct SampleSummary {
    int samples = 0;   // every sample timed
    int kept = 0;      // those in the statistics
    int throttled = 0; // left out: clock below the threshold
    // Every sample was below the threshold: the statistics are then over all of them, and the
    // result must say so (nothing steady was seen).
    bool allThrottled = false;
    double medianMs = 0, p20Ms = 0, p80Ms = 0, minMs = 0;
    double noisePct = -1; // of the samples in the statistics; -1 with fewer than two
    double clockStartMhz = 0, clockMinMhz = 0, clockMedianMhz = 0; // 0: not measured
};

class TimingSeries {
public:
    // `startClockMhz` 0: no clock measured, nothing is left out.
    TimingSeries(double startClockMhz, double throttleThresholdPct);

    void add(const TimedSample &sample);
    int samples() const { return int(m_samples.size()); }
    int kept() const { return m_kept; }
    // Relative standard deviation of the kept samples in percent (-1 with fewer than two).
    double noisePct() const;
    bool isThrottled(const TimedSample &sample) const;
    // Enough kept samples, and their noise at or below the target.
    bool noiseTargetMet(const NoiseCriterion &criterion) const;
    SampleSummary summary() const;

private:
    double m_startClockMhz, m_thresholdMhz;
    std::vector<TimedSample> m_samples;
    // Welford's running mean and squared deviations of the kept samples: the noise check after
    // every sample stays O(1) however many samples a long budget takes.
    int m_kept = 0;
    double m_mean = 0, m_m2 = 0;
};

} // namespace gemmscope
