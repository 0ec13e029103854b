// Test helper: the roofline as the layout tests look at it (tst_roofline_chart, tst_roofline_labels):
// the whole ladder with its measured ceilings, worklog-8 at 4096^3 as the panel's settings, and the
// measured worklog-7 run selected.
#pragma once

#include "full_ladder.h"
#include "roofline_chart.h"
#include "stage_catalog.h"

namespace gemmscope::test {

// The ladder's runs under the roofs measured with it.
inline void showRunsUnderTheirCeilings(RooflineChart &chart, const FullLadder &ladder)
{
    chart.setRuns(ladder.runs);
    chart.setMeasuredCeilings(ladder.fmaTflops, ladder.dramGBs, ladder.ceilingsLabel, ladder.tf32Tflops,
                              ladder.tf32Kernel);
}

// The id of the selected run (empty if the ladder has no measured worklog-7: the caller checks).
inline QString showFullLadder(RooflineChart &chart, const FullLadder &ladder)
{
    showRunsUnderTheirCeilings(chart, ladder);
    if (const Preset *current = findPreset("worklog-8"))
        chart.setPredicted(current->stage, current->params, ProblemSize{4096, 4096, 4096});
    QString selected;
    for (const RunRecord &run : ladder.runs)
        if (run.presetKey == QLatin1String("worklog-7") && run.origin != QLatin1String("worklog"))
            selected = run.runId;
    chart.setSelectedRun(selected);
    return selected;
}

} // namespace gemmscope::test
