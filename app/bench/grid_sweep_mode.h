// gemmscope-bench --sweep: a parameter grid of one stage (--x, --y, their values, the rest fixed or
// best) at one --size, run on a pool of runners (sweep_command.h).
#pragma once

#include "sweep_command.h"

namespace gemmscope::bench {

Parsed<SweepCommand> parseGridSweep(const BenchCommandLine &commandLine);

} // namespace gemmscope::bench
