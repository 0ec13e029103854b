#include "kernel_timer.h"

#include "statistics.h"

#include "clock_probe.h"
#include "cuda_check.h"
#include "event_pair.h"
#include "gpu_telemetry.h"
#include "gpu_wait.h"
#include "job_context.h"

#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gemmscope::runner {

namespace {

constexpr double kPreliminaryAfterMs = 100; // timing before the first preliminary median is sent
constexpr qint64 kTelemetryEveryMs = 20;    // NVML reads while timing: enough for a 1 s power window
// Burst: an idle GPU is one whose clocks nothing holds down, whose power (NVML's 1 s average on
// Hopper) is below half its limit and whose SM clock, probed, is back near its boost clock — on an
// H200 the clock stays ~15 % low for a while after a power-capped run although NVML no longer
// names a reason (measured: 1680 MHz at the start of the next run, boost 1980 MHz).
// Waited for at most kCooldownLimitMs, then the result says it was not.
constexpr double kIdlePowerShare = 0.5, kRecoveredClockShare = 0.95;
constexpr qint64 kCooldownLimitMs = 5000;
// Several bursts start at least this far apart. cuBLAS's slow spells last a few hundred ms: five
// bursts timed back to back (well under a second) were all slow or all fast together, runs seconds
// apart were not (H200, 4096^3 TF32): spaced out, the best burst finds a fast one.
constexpr qint64 kBurstSpacingMs = 1000;
// Sustained: at least this long at load, then until the SM clock moves less than 1 % over the
// last three readings 200 ms apart; at most the limit.
constexpr qint64 kLoadWarmupMinMs = 1000, kLoadWarmupLimitMs = 10000, kLoadClockEveryMs = 200;
constexpr double kSettledClockShare = 0.01;

// What NVML said over the timed samples.
struct TelemetryLog {
    std::optional<double> powerMaxW;
    unsigned long long reasons = 0;
    std::optional<int> temperatureStartC, temperatureEndC;

    void add(const TelemetryReading &r)
    {
        if (r.powerW)
            powerMaxW = std::max(powerMaxW.value_or(0), *r.powerW);
        if (r.reasons)
            reasons |= *r.reasons;
        if (r.temperatureC) {
            if (!temperatureStartC)
                temperatureStartC = r.temperatureC;
            temperatureEndC = r.temperatureC;
        }
    }
};

bool idle(const TelemetryReading &r, std::optional<double> powerLimitW)
{
    if (r.reasons && holdsClockDown(*r.reasons))
        return false;
    return !r.powerW || !powerLimitW || *r.powerW <= kIdlePowerShare * *powerLimitW;
}

bool clockRecovered(const TimingProbes &probes)
{
    return !probes.clock || probes.maxClockMhz <= 0 ||
           probes.clock->measureMhz() >= kRecoveredClockShare * probes.maxClockMhz;
}

// Burst: waits until the GPU is idle and its clock recovered; whether it did, and how long it took.
std::pair<bool, double> coolDown(const GpuTelemetry &telemetry, const TimingProbes &probes, JobContext &job)
{
    QElapsedTimer waited;
    waited.start();
    const std::optional<double> limit = telemetry.powerLimitW();
    while (!idle(telemetry.read(), limit) || !clockRecovered(probes)) {
        if (waited.elapsed() >= kCooldownLimitMs)
            return {false, double(waited.elapsed())};
        job.checkCancelled();
        job.progress(protocol::ProgressPhase::Cooldown, waited.elapsed(), kCooldownLimitMs);
        QThread::msleep(25);
    }
    return {true, double(waited.nsecsElapsed()) / 1e6};
}

// Sustained: runs the launches until the clock settles; how long that took.
double warmUnderLoad(const std::vector<std::function<void()>> &launches, ClockProbe *clock, JobContext &job)
{
    QElapsedTimer atLoad, sinceReading;
    atLoad.start();
    sinceReading.start();
    std::vector<double> clocks;
    while (atLoad.elapsed() < kLoadWarmupLimitMs) {
        for (const auto &launch : launches)
            launch();
        waitForDefaultStream();
        job.checkCancelled();
        job.progress(protocol::ProgressPhase::LoadWarmup, atLoad.elapsed(), kLoadWarmupLimitMs);
        if (sinceReading.elapsed() < kLoadClockEveryMs)
            continue;
        sinceReading.restart();
        if (!clock) { // nothing to watch: the minimum at load
            if (atLoad.elapsed() >= 2 * kLoadWarmupMinMs)
                break;
            continue;
        }
        clocks.push_back(clock->measureMhz());
        if (atLoad.elapsed() < kLoadWarmupMinMs || clocks.size() < 3)
            continue;
        const auto last = clocks.end() - 3;
        const auto [lo, hi] = std::minmax_element(last, clocks.end());
        if (*hi > 0 && (*hi - *lo) / *hi < kSettledClockShare)
            break;
    }
    return double(atLoad.nsecsElapsed()) / 1e6;
}

protocol::RunConditions conditionsOf(const SampleSummary &s, const TimingOptions &o,
                                     protocol::StopReason stoppedBy)
{
    protocol::RunConditions c;
    c.regime = o.regime;
    c.samples = s.samples;
    c.throttledSamples = s.allThrottled ? s.samples : s.throttled;
    c.allThrottled = s.allThrottled;
    if (s.noisePct >= 0)
        c.noisePct = s.noisePct;
    c.maxNoisePct = o.noise.maxNoisePct;
    c.throttleThresholdPct = o.noise.throttleThresholdPct;
    c.stoppedBy = stoppedBy;
    if (s.clockStartMhz > 0)
        c.smClockStartMhz = s.clockStartMhz;
    if (s.clockMinMhz > 0) {
        c.smClockMinMhz = s.clockMinMhz;
        c.smClockMedianMhz = s.clockMedianMhz;
    }
    return c;
}

} // namespace

TimingStats summarize(std::vector<double> timesMs)
{
    std::sort(timesMs.begin(), timesMs.end());
    TimingStats s;
    s.count = int(timesMs.size());
    if (timesMs.empty())
        return s;
    s.medianMs = percentile(timesMs, 0.5);
    s.p20Ms = percentile(timesMs, 0.2);
    s.p80Ms = percentile(timesMs, 0.8);
    s.minMs = timesMs.front();
    return s;
}

namespace {

// One burst: its samples and pairs, what NVML said meanwhile, how it stopped and how long the GPU
// took to become idle before it.
struct Burst {
    std::vector<TimingSeries> series;
    std::vector<PairedRatio> pairs; // [i]: launch i against launch 0; [0] unused
    TelemetryLog log;
    protocol::StopReason stoppedBy = protocol::StopReason::MaxReps;
    std::optional<double> cooldownMs;
    bool cooled = true;
};

// Times rounds of one launch each (interleaved) from a warmed-up GPU until a stopping rule.
// `before` samples came in earlier bursts and `burstsLeft` more follow (the progress counts them).
void timeBurst(const std::vector<std::function<void()>> &launches, const std::function<void()> &betweenReps,
               const TimingOptions &options, JobContext &job, const TimingProbes &probes,
               const GpuTelemetry *telemetry, Burst &burst, int before, int burstsLeft)
{
    std::vector<TimingSeries> &series = burst.series;
    std::vector<PairedRatio> &pairs = burst.pairs;
    const auto pairsSteady = [&] {
        return launches.size() > 1 && std::all_of(pairs.begin() + 1, pairs.end(), [&](const PairedRatio &p) {
                   const double noise = p.noisePct();
                   return p.pairs() >= options.noise.minSamples && noise >= 0 &&
                          noise <= options.noise.maxNoisePct;
               });
    };
    // Burst: the GPU has left its burst once the clock falls below the share of the boost clock the
    // cool-down waits for. At 4096^3 an H200 running TF32 settled at ~1790 MHz, 90 % of its start,
    // just above the throttle threshold: those capped samples, mixed with the boosted ones, moved
    // the ratio to cuBLAS by 7 points between runs.
    const auto leftBoost = [&](double clockMhz) {
        return clockMhz > 0 && probes.maxClockMhz > 0 && clockMhz < kRecoveredClockShare * probes.maxClockMhz;
    };
    EventPair events;
    double totalMs = 0;
    const int maxReps = std::max(options.maxReps, options.minReps);
    QElapsedTimer sinceTelemetry, sincePreliminary;
    sinceTelemetry.start();
    while (true) {
        const int reps = series.front().samples();
        if (reps >= maxReps)
            break;
        if (reps >= options.minReps) {
            if (totalMs >= options.budgetMs) {
                burst.stoppedBy = protocol::StopReason::Budget;
                break;
            }
            if (options.stopOnNoise &&
                (pairsSteady() || std::all_of(series.begin(), series.end(), [&](const TimingSeries &s) {
                     return s.noiseTargetMet(options.noise);
                 }))) {
                burst.stoppedBy = protocol::StopReason::Noise;
                break;
            }
        }
        bool clockDropped = false;
        std::vector<TimedSample> round(launches.size());
        for (size_t i = 0; i < launches.size(); ++i) {
            job.checkCancelled();
            if (betweenReps)
                betweenReps();
            GEMMSCOPE_CUDA(cudaEventRecord(events.start));
            launches[i]();
            GEMMSCOPE_CUDA(cudaEventRecord(events.stop));
            double clockMhz = 0;
            if (probes.clock) { // behind the stop event: never inside the timed region
                probes.clock->enqueue();
                clockMhz = probes.clock->readMhz();
            }
            waitForEvent(events.stop); // a kernel fault, or one that never ends, surfaces here
            float ms = 0;
            GEMMSCOPE_CUDA(cudaEventElapsedTime(&ms, events.start, events.stop));
            round[i] = {ms, clockMhz};
            series[i].add(round[i]);
            clockDropped = clockDropped || series[i].isThrottled(round[i]) || leftBoost(clockMhz);
            totalMs += ms;
        }
        for (size_t i = 1; i < launches.size(); ++i)
            pairs[i].add(round[0].ms, round[i].ms,
                         !series[0].isThrottled(round[0]) && !series[i].isThrottled(round[i]));
        // Burst: once the clock falls below the threshold, or below 95 % of the boost clock, the GPU
        // has left its burst (a power cap or heat, within a second of tensor-core load on an
        // H200); later samples would be capped ones, so timing ends with the samples before, when
        // there are enough of them.
        if (options.regime == TimingRegime::Burst && clockDropped &&
            std::all_of(series.begin(), series.end(),
                        [&](const TimingSeries &s) { return s.kept() >= options.noise.minSamples; })) {
            burst.stoppedBy = protocol::StopReason::ClockDrop;
            break;
        }
        if (telemetry && sinceTelemetry.elapsed() >= kTelemetryEveryMs) {
            burst.log.add(telemetry->read());
            sinceTelemetry.restart();
        }
        // The total is an estimate (noise or the budget may end first): enough for a progress bar.
        const int done = series.front().samples();
        const long long expected = std::clamp<long long>(
            totalMs > 0 ? (long long)std::ceil(options.budgetMs / (totalMs / double(done))) : maxReps,
            options.minReps, maxReps);
        // After ~100 ms of timing the median so far goes out with the progress: the
        // window shows a number at once and refines it until timing ends.
        std::optional<double> preliminary;
        if (totalMs >= kPreliminaryAfterMs && done >= 3 &&
            (!sincePreliminary.isValid() || sincePreliminary.elapsed() >= 100)) {
            preliminary = series.front().summary().medianMs;
            sincePreliminary.start();
        }
        const long long all = before + std::max<long long>(expected, done) * (1 + burstsLeft);
        job.progress(protocol::ProgressPhase::Timing, before + done, all, preliminary);
    }
}

// Which burst a result reports: the one whose reference launch (the last: a baseline, else the
// stage) had the lowest median. On an H200 cuBLAS's median is bimodal from burst to burst — whole
// bursts at 0.353-0.361 ms or at 0.386-0.392 ms at 4096^3 TF32, the stage's within 1 %, at the same
// probed clock — so a pooled or median burst kept moving "% of cuBLAS" by 3.5 points
// between runs. Against cuBLAS at its best, the figure repeats (and never flatters the stage).
size_t chosenBurst(const std::vector<Burst> &bursts)
{
    size_t chosen = 0;
    double best = std::numeric_limits<double>::infinity();
    for (size_t b = 0; b < bursts.size(); ++b)
        if (const double ms = bursts[b].series.back().summary().medianMs; ms > 0 && ms < best) {
            best = ms;
            chosen = b;
        }
    return chosen;
}

} // namespace

std::vector<TimedLaunch> timeInterleaved(const std::vector<std::function<void()>> &launches,
                                         const std::function<void()> &betweenReps,
                                         const TimingOptions &options, JobContext &job,
                                         const TimingProbes &probes)
{
    const GpuTelemetry *telemetry =
        probes.telemetry && probes.telemetry->available() ? probes.telemetry : nullptr;
    const int burstCount = options.regime == TimingRegime::Burst ? std::max(1, options.bursts) : 1;
    std::optional<double> loadWarmupMs;
    if (options.regime == TimingRegime::Sustained)
        loadWarmupMs = warmUnderLoad(launches, probes.clock, job);
    std::vector<Burst> bursts;
    int timedBefore = 0;
    QElapsedTimer sinceBurst;
    for (int b = 0; b < burstCount; ++b) {
        Burst burst;
        while (b > 0 && sinceBurst.elapsed() < kBurstSpacingMs) {
            job.checkCancelled();
            QThread::msleep(25);
        }
        sinceBurst.start();
        if (options.regime == TimingRegime::Burst && telemetry) {
            const auto [idleNow, waitedMs] = coolDown(*telemetry, probes, job);
            burst.cooled = idleNow;
            burst.cooldownMs = waitedMs;
        }
        for (int i = 0; i < options.warmup; ++i) {
            for (const auto &launch : launches)
                launch();
            waitForDefaultStream();
            job.checkCancelled();
        }
        if (telemetry)
            burst.log.add(telemetry->read());
        const double startClockMhz = probes.clock ? probes.clock->measureMhz() : 0;
        burst.series.assign(launches.size(), TimingSeries(startClockMhz, options.noise.throttleThresholdPct));
        burst.pairs.resize(launches.size());
        timeBurst(launches, betweenReps, options, job, probes, telemetry, burst, timedBefore,
                  burstCount - 1 - b);
        if (telemetry)
            burst.log.add(telemetry->read());
        timedBefore += burst.series.front().samples();
        bursts.push_back(std::move(burst));
    }
    const size_t chosen = chosenBurst(bursts);
    const Burst &reported = bursts[chosen];

    std::vector<TimedLaunch> answers;
    for (size_t i = 0; i < launches.size(); ++i) {
        const SampleSummary summary = reported.series[i].summary();
        TimedLaunch answer;
        answer.stats = {summary.medianMs, summary.p20Ms, summary.p80Ms, summary.minMs,
                        summary.allThrottled ? summary.samples : summary.kept};
        answer.conditions = conditionsOf(summary, options, reported.stoppedBy);
        answer.conditions.cooldownMs = reported.cooldownMs;
        answer.conditions.cooled = reported.cooled;
        answer.conditions.loadWarmupMs = loadWarmupMs;
        if (telemetry) {
            answer.conditions.powerMaxW = reported.log.powerMaxW;
            answer.conditions.powerLimitW = telemetry->powerLimitW();
            answer.conditions.throttleReasons = throttleReasonsOf(reported.log.reasons);
            answer.conditions.temperatureStartC = reported.log.temperatureStartC;
            answer.conditions.temperatureEndC = reported.log.temperatureEndC;
        } else if (probes.telemetry) {
            answer.conditions.telemetryUnavailable = probes.telemetry->unavailableReason();
        }
        if (burstCount > 1) {
            answer.conditions.bursts = burstCount;
            answer.conditions.chosenBurst = int(chosen);
            for (const Burst &burst : bursts) {
                answer.conditions.burstMediansMs << burst.series[i].summary().medianMs;
                if (i > 0)
                    answer.burstPairedMedians << burst.pairs[i].summary().median;
            }
        }
        if (i > 0)
            answer.pairedWithFirst = reported.pairs[i].summary();
        answers.push_back(answer);
    }
    return answers;
}

TimingStats timeLaunches(const std::function<void()> &launch, const std::function<void()> &betweenReps,
                         const TimingOptions &options, JobContext &job)
{
    return timeInterleaved({launch}, betweenReps, options, job, {}).front().stats;
}

protocol::TimingResult timingResult(const TimingStats &s, const TimingOptions &o)
{
    protocol::TimingResult timing;
    timing.medianMs = s.medianMs;
    timing.p20Ms = s.p20Ms;
    timing.p80Ms = s.p80Ms;
    timing.minMs = s.minMs;
    timing.count = s.count;
    timing.warmup = o.warmup;
    timing.budgetMs = o.budgetMs;
    timing.flushL2 = o.flushL2;
    return timing;
}

} // namespace gemmscope::runner
