// Number and run formatting shared by the charts' tick labels and tooltips, so a time or a
// throughput reads the same everywhere.
#pragma once

#include "run_record.h"

#include <QString>

namespace gemmscope {

QString formatMs(double ms);                 // "30.1 ms", "0.482 ms", "956 ms"
QString formatTflops(double tflops);         // "13.7 TFLOP/s", "0.43 TFLOP/s"
QString formatGflops(double tflops);         // "13 700 GFLOP/s" style, for the roofline tooltip
QString formatRunSize(const RunRecord &run); // "8192 x 4096 x 6144"
QString runTitle(const RunRecord &run);      // "3 — Coalesced cooperative loads, run r7"

// A multi-line tooltip with everything measured about a run (or why it failed).
QString runTooltip(const RunRecord &run);
// What a chart adds to a run's label when its number is not comparable with a steady burst run:
// " (noisy)", " (throttled)", " (sustained)" — in a merged roofline label it stays with
// its own run; empty otherwise (unknown conditions —
// recorded or published runs — say so on hover, not on every label).
QString comparabilityMark(const RunRecord &run);

// Plain text (run ids, GPU names, messages: anything a session file can say) as the rich text
// QToolTip shows verbatim: escaped, line breaks kept, so `<img>` or `<h1>` from a crafted file is
// shown as written, never rendered.
QString plainTooltip(const QString &text);

} // namespace gemmscope
