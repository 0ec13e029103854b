// The one way the window names a stage, a preset and a run. A preset has a code, the one the charts
// and the tables' Stage column print ("0", "5a", "8/BK8", "G32", "+tuned", "cuBLAS FP32"), and a
// stage name, the one the tables' Stage name column prints ("Double buffering: 128x128 tiles").
// Where there is room it is called by both ("5a — Double buffering: 128x128 tiles"), where there is
// none by its code; never by its catalog key ("worklog-5a", "fp32-tuned", words of the files) nor by
// a title of its own ("Step 5a: larger tiles"), which a reader took for a fourth kernel.
#pragma once

#include "run_record.h"

#include <QString>

namespace gemmscope {

// A code and a name joined the one way every view joins them: "5a — Double buffering: 128x128
// tiles"; the name alone where it starts with the code ("cuBLAS FP32 (pedantic SGEMM)") or there is
// no code.
QString codeAndName(const QString &code, const QString &name);
// The preset's code; empty for a preset the catalog does not know.
QString shortPresetLabel(const QString &presetKey);
// A run's code: its preset's, with "*" where the run is not the preset as the ladder runs it (other
// parameters, build or launch); without a preset, its stage's short label and "*" (a library stage:
// its label alone).
QString shortRunLabel(const RunRecord &run);
// "8 — __restrict__ and #pragma unroll": code and stage name, or the stage name alone where it
// starts with the code ("cuBLAS FP32 (pedantic SGEMM)").
QString presetTitle(const Preset &preset);
QString presetTitle(const QString &presetKey); // empty for a preset the catalog does not know
// A run named the same way, by shortRunLabel and runStageTitleText: "5a — Double buffering: 128x128
// tiles", "coal* — Coalesced cooperative loads".
QString runNameText(const RunRecord &run);

} // namespace gemmscope
