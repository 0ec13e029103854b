// The order a size sweep's series are listed in, wherever they are listed: the form's list of
// series beside the chart, the chart's legend, the Shown list's and the print title's names. It
// is the ladder's order (runtime_series.h's ladderRank), as the Ladder's chart and results table
// list the same kernels' runs: the worklog's steps, the FP32 stages past them, cuBLAS FP32, the
// tensor-core stages, cuBLAS TF32. The list once followed the catalog's presets and the legend the
// sweep file's order, so one chart's two lists disagreed.
#pragma once

#include "stage_catalog.h"
#include "sweep_plan.h"

#include <vector>

namespace gemmscope {

// Indices into `series` in ladder order; series of one rank keep their order.
std::vector<int> seriesInLadderOrder(const std::vector<SizeSeries> &series);

// Every preset as a size sweep's series would be, in the same order.
std::vector<const Preset *> presetsInLadderOrder();

} // namespace gemmscope
