// gemmscope-bench --size-sweep: TFLOP/s of --stages (presets or stage keys) against problem size
// (--sizes square, aspect or a list; --size-range, --powers-only), run on a pool of runners
// (sweep_command.h). Its budget is 30 ms per point unless --budget-ms says otherwise.
#pragma once

#include "sweep_command.h"

namespace gemmscope::bench {

Parsed<SweepCommand> parseSizeSweep(const BenchCommandLine &commandLine);

} // namespace gemmscope::bench
