// How the window says what a job is doing (the status bar's "run-3: timing"): one place for the
// words of every progress phase the runner reports.
#pragma once

#include "values.h"

#include <QString>

namespace gemmscope {

// "compiling", "timing", "cooling down", ...; a phase this build does not know (a newer runner's)
// is said as such, never left blank.
QString phaseWords(protocol::ProgressPhase phase);

} // namespace gemmscope
