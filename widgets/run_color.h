// A run's colour in the charts: its stage's colour (the family: the worklog's steps, the stages
// past it, the tensor cores, cuBLAS in greys), shaded by which of the stage's presets it ran. The
// ladder puts a stage's presets next to each other (1, G32, G32+1; 4, 5a, 5b; +pipe, +tuned): in
// the stage's colour alone they read as one long bar.
#pragma once

#include "run_record.h"

#include <QColor>
#include <QString>

namespace gemmscope {

// 0 for a stage's first preset (and for runs with no preset), 1, 2, ... for the next ones, in
// catalog order.
int presetShade(const RunRecord &run);
// The same for a stage and preset key without a run (a size sweep's series, whose label is its
// preset's key or its stage's key): 0 where the key names no preset of that stage.
int presetShade(const StageId &stage, const QString &presetKey);

// The stage's colour, lighter or darker by presetShade: shade 0 is the stage's colour itself.
QColor shadedStageColor(const QString &stageKey, int shade);
QColor runColor(const RunRecord &run);
// The colour runColor gives a run of this stage and preset: a size sweep's curve wears it, so a
// preset is one colour in the Ladder, the roofline and the Sweep workspace.
QColor presetColor(const StageId &stage, const QString &presetKey);

} // namespace gemmscope
