// A size sweep's series named as the results table names the same kernel's runs: the short
// label of its "Stage" column ("8", "+tuned", "cuBLAS FP32"; shortRunLabel) and, where there is
// room, its code and stage name ("8 — __restrict__ and #pragma unroll"; stage_names.h's runNameText),
// never the preset's key ("worklog-8", "fp32-tuned"), which no other view shows.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"

#include <QString>

namespace gemmscope {

enum class SeriesNaming { Short, WithStageName };

// The series as the run it times (stage, preset, parameters): what the table and charts name and rank.
RunRecord sizeSeriesRun(const SizeSeries &series);

QString sizeSeriesName(const SizeSeries &series, SeriesNaming naming);
// The plan's series `index` (empty for none).
QString sizeSeriesName(const SweepPlan &plan, int index, SeriesNaming naming);

} // namespace gemmscope
