// How steady the GPU was while a result was timed (docs/protocol.md, "conditions"): the
// regime, which samples counted and why timing stopped, the SM clock the SMs counted, and what the
// driver said of power, temperature and clock limits. A result without it was recorded before the
// runner measured conditions (or published elsewhere): its conditions are unknown.
#pragma once

#include "values.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::protocol {

struct RunConditions {
    // A default-constructed one (built by hand, not decoded) reads as a burst, the default regime.
    TimingRegime regime = TimingRegime::Burst;
    int samples = 0, throttledSamples = 0; // every sample timed; those left out (clock too low)
    bool allThrottled = false;             // every sample was below the threshold: all of them counted
    std::optional<double> noisePct;        // relative standard deviation of the samples counted
    double maxNoisePct = 0, throttleThresholdPct = 0;
    // Noise (the target was met), Budget, MaxReps, or ClockDrop (burst: the clock fell below the
    // threshold after enough samples; the one that showed it is left out); None where not said
    StopReason stoppedBy = StopReason::None;
    // Measured by the clock probe (clock64 over %globaltimer); empty where it could not run.
    std::optional<double> smClockStartMhz, smClockMinMhz, smClockMedianMhz;
    // NVML, over the timed samples; empty (and telemetryUnavailable set) without NVML.
    std::optional<double> powerMaxW, powerLimitW;
    // A newer runner's reason reads as Unknown (shown as "a limit this GemmScope does not know").
    QList<ThrottleReason> throttleReasons;
    std::optional<int> temperatureStartC, temperatureEndC;
    QString telemetryUnavailable;
    // Time spent before timing: waiting for an idle GPU (burst), running at load (sustained).
    std::optional<double> cooldownMs, loadWarmupMs;
    bool cooled = true; // burst: the GPU was idle and unthrottled before timing began
    // Burst: how many bursts were timed (each from an idle GPU), which one the result reports (the
    // one whose reference launch was fastest: docs/protocol.md) and each one's median, in order.
    int bursts = 1;
    int chosenBurst = 0;
    QList<double> burstMediansMs; // empty for one burst
    friend bool operator==(const RunConditions &, const RunConditions &) = default;
};

QJsonObject toJson(const RunConditions &conditions);
bool fromJson(const QJsonObject &json, RunConditions &out, QString *error = nullptr);

} // namespace gemmscope::protocol
