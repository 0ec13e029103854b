// Test helper: the conditions of a steady burst result (docs/protocol.md, "Conditions") — 40
// samples at 1980 MHz, 0.21 % noise against the 0.5 % target — for tests to vary one field of.
#pragma once

#include "conditions.h"

namespace gemmscope::test {

inline protocol::RunConditions steadyBurst()
{
    protocol::RunConditions c;
    c.regime = protocol::TimingRegime::Burst;
    c.samples = 40;
    c.noisePct = 0.21;
    c.maxNoisePct = 0.5;
    c.throttleThresholdPct = 90;
    c.stoppedBy = protocol::StopReason::Noise;
    c.smClockStartMhz = 1980;
    c.smClockMinMhz = 1980;
    c.smClockMedianMhz = 1980;
    return c;
}

} // namespace gemmscope::test
