// The parameter panel's two questions in words (and the sweep form's stage list). The stage list
// answers "which kernel?" by its code and name ("3 — Coalesced cooperative loads"); the list under
// it answers "which of that kernel's named tile parameters?" by where its values come from, what
// they are and the preset's code ("Worklog: BM=192 BN=192 BK=16 TM=12 TN=12 (preset 6)"), never
// by the stage's name again: the two said the same thing and read as one question asked twice.
#pragma once

#include "stage_catalog.h"

#include <QList>
#include <QString>

namespace gemmscope {

// The catalog's presets of `stage`, in the catalog's order; none for a user's kernel.
QList<const Preset *> presetsOfStage(StageId stage);
// A stage's code: its first preset's ("3" for the stage that worklog steps 3 and 6 run, "+pipe",
// "cuBLAS FP32"); empty for a stage without presets (a user's kernel).
QString stageCode(StageId stage);
// "3 — Coalesced cooperative loads"; the title alone where it starts with the code ("cuBLAS FP32
// (pedantic SGEMM)") or there is none.
QString stageChoiceText(const StageInfo &stage);
// Where a preset's values come from: "Worklog", "Worklog, newer GPUs", "Guide", "Tuned on the
// H200", "Beyond the worklog" (with what the preset changes, where that tells it from its stage's
// other presets), "cuBLAS".
QString presetSourceText(const Preset &preset);
// Its values in the catalog's order, as the tables write them: "BM=64 BN=64 BK=8 TM=4 TN=4"; "no
// tile parameters".
QString presetValuesText(const Preset &preset);
// "Worklog: BM=192 BN=192 BK=16 TM=12 TN=12 (preset 6)"; a cuBLAS baseline's says it has none.
QString presetChoiceText(const Preset &preset);

} // namespace gemmscope
