// What the roofline's points say when the pointer is over them, and the points the chart computes
// itself, free of QCustomPlot: the panel's settings (the live point: where the traffic model puts
// them, at the roof's bound there) and the worklog's published steps on the T4 roof.
#pragma once

#include "gpu_specs.h"
#include "roofline_points.h"
#include "run_record.h"
#include "stage_catalog.h"
#include "traffic_model.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope::roofline_scene {

// A roof a point is judged against: its name in the tooltip ("measured", "H200 datasheet",
// "wgmma TF32, measured") and its numbers. A peak of 0: none.
struct TipRoof {
    QString label;
    double peakTflops = 0;
    double bandwidthGBs = 0;
};

// The roofs the tooltips compare with.
struct TipRoofs {
    TipRoof fp32;                         // the chart's FP32 roof: the measured one, else the datasheet's
    std::optional<TipRoof> datasheetTf32; // the tensor cores' roofs, for TF32 stages
    std::optional<TipRoof> measuredTf32;
    double measuredFmaTflops = 0; // caps an FP32 run's level roofs
    double l2GBs = 0, sharedGBs = 0;
};

// A run point's tooltip: what ran, its intensities (modelled and measured), its throughput and how
// much of each roof it is judged against it reached.
QString runTooltip(const RunRecord &run, const RunTip &tip, const TipRoofs &roofs);

// The panel's settings, not run.
struct LiveSettings {
    StageId stage;
    ParamValues params;
    ProblemSize size;
};
// A run of the panel's settings, keyed as the chart keys the runs it models (RunMarker::modelled).
RunRecord liveConfiguration(const LiveSettings &live);
bool liveUsesTensorCores(const LiveSettings &live);
// The live point: at the model's intensity, at the bound of the roof its stage is capped by (a TF32
// stage's: the tensor cores' datasheet roof, else the measured one). nullopt where the model gives
// no intensity.
std::optional<ChartPoint> livePoint(const LiveSettings &live, const TipRoofs &roofs);

// The worklog's published T4 steps, each at its modelled intensity and published throughput,
// compared with the T4's datasheet roof (`t4`; nullptr: no comparison).
QList<ChartPoint> worklogPoints(const GpuSpec *t4);

} // namespace gemmscope::roofline_scene
