// What the runtime chart's legend and its reference mark say, free of QCustomPlot: from the runs
// and stages the chart draws, the legend's entries (the ladder's groups with their stages' colours,
// not every stage; the whisker, the cuBLAS FP32 reference, the marks beside numbers, failures, the
// selection) and where the reference stands. RuntimeChart draws what these say.
#pragma once

#include "run_record.h"
#include "runtime_series.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::runtime_scene {

// What the chart draws that its legend explains.
struct LegendInputs {
    QStringList stagesDrawn; // the stage keys of the measured runs' bars
    // Parallel to stagesDrawn where given: the preset shade (run_color.h) of each bar colour drawn,
    // a stage once per shade; empty: each stage's own colour.
    QList<int> shadesDrawn;
    bool publishedDrawn = false; // the worklog's published bars (hatched)
    QString referenceText;       // the reference mark's name; empty: none drawn
    bool anyNotSteady = false;   // a " (noisy)"-style mark beside a number
    bool anyFailed = false;      // a failed run's cross
    bool selectionShown = false; // the selected run's frame
};

// How an entry's icon is drawn.
enum class LegendIcon { Stripes, Hatched, Whisker, Reference, NotSteadyDot, Failed, Selection };

struct LegendEntry {
    QString text;
    LegendIcon icon = LegendIcon::Stripes;
    QList<QColor> colors; // a group's stages' colours, in ladder order; the hatch's grey
    QString look;         // what the icon shows, to tell whether an entry changed
    friend bool operator==(const LegendEntry &, const LegendEntry &) = default;
};

// The legend's entries, in order: a group a line (worklog steps, beyond the worklog, tensor cores,
// baselines) with each colour its bars wear once (a stage's presets' shades too: "+tuned", a lighter
// indigo, matched stage 7's steel blue in the legend, which showed only pipelined's own indigo), then
// what the other marks mean.
QList<LegendEntry> legendEntries(const LegendInputs &in);

// The cuBLAS FP32 reference: the latest such run of those plotted, at its median time or its
// throughput, and what the legend calls it ("cuBLAS FP32: 2.69 ms").
struct ReferenceMark {
    double value = 0;
    QString text;
};
std::optional<ReferenceMark> referenceMark(const QList<RunRecord> &plotted, RuntimeValue mode);

} // namespace gemmscope::runtime_scene
