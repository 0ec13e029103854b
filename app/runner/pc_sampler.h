// CUPTI PC sampling (cupti_pcsampling.h) of one launch: every 2^period SM cycles each SM reports
// one warp's program counter and the reason it did not issue (or "selected" when it did). The
// kernels are serialized, so the samples are the launch's alone. Used by the `profile` job
// (docs/protocol.md "Profile"); never during a timed launch.
//
// A sampling failure (no permission, an unsupported GPU, ...) is part of the answer, never its
// end: it comes back as a sentence. Only a CUDA error of the launch itself propagates.
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gemmscope::runner {

struct SampledPc {
    std::string function; // as CUPTI names it (mangled)
    std::uint64_t pcOffset = 0;
    std::map<std::string, std::uint64_t>
        stalls; // "long_scoreboard" -> samples (the _not_issued subsets left out)
};

struct PcSampling {
    std::vector<SampledPc> pcs;
    std::uint64_t totalSamples = 0, droppedSamples = 0;
    bool hardwareBufferFull = false;
    int period = 0;
};

struct PcSamplingOutcome {
    std::optional<PcSampling> sampling;
    QString error; // when sampling is empty
};

// Samples the kernels `launch` enqueues (synchronized here) with a sample every 2^period cycles.
PcSamplingOutcome samplePcs(const std::function<void()> &launch, int period);

// The period that gives about `targetSamples` samples for a launch of `launchMs` on `sms` SMs at
// `clockMhz` (each SM samples once per period), within CUPTI's 5..31.
int samplingPeriodFor(double launchMs, int sms, double clockMhz, double targetSamples = 1e6);

} // namespace gemmscope::runner
