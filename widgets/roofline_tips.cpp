#include "roofline_tips.h"

#include "chart_text.h"
#include "jargon_text.h"
#include "roofline_marks.h"
#include "roofline_math.h"
#include "runtime_series.h"

namespace gemmscope::roofline_scene {

namespace {

QString roofPercentText(double tflops, double intensity, const TipRoof &roof)
{
    return QStringLiteral("%1% of the %2 roof at this intensity (attainable %3)")
        .arg(roofline::percentOfRoof(tflops, intensity, roof.peakTflops, roof.bandwidthGBs), 0, 'f', 1)
        .arg(roof.label, formatTflops(roofline::roofAt(intensity, roof.peakTflops, roof.bandwidthGBs)));
}

QString fmtIntensity(double ai)
{
    return QString::number(ai, 'g', 4) + QStringLiteral(" FLOP/B");
}

// A measured intensity this many times the model's is explained in the tooltip.
constexpr double kMeasuredAboveModel = 1.5;

constexpr MemoryLevel kTipLevels[] = {MemoryLevel::L2, MemoryLevel::L1Shared};

} // namespace

QString runTooltip(const RunRecord &run, const RunTip &tip, const TipRoofs &roofs)
{
    QStringList lines{runTitle(run)};
    if (!run.params.isEmpty())
        lines << formatRunParams(run);
    lines << QStringLiteral("AI predicted: %1  (%2)").arg(fmtIntensity(tip.predicted), tip.formula);
    lines << (tip.measured
                  ? QStringLiteral("AI measured: %1 (DRAM counters)").arg(fmtIntensity(*tip.measured))
                  : QStringLiteral("AI measured: hardware counters not available"));
    for (MemoryLevel level : kTipLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared)
            lines << QStringLiteral("AI measured at %1: %2 (counters)")
                         .arg(levelName(level), fmtIntensity(*ai));
    // Far above the model: the reader asks why (the naive kernel's 16.8 FLOP/B above the tiled
    // stage's 8.0 on the H100 looked like a wrong measurement).
    if (tip.measured && !tip.published && *tip.measured > kMeasuredAboveModel * tip.predicted)
        lines << jargon::measuredIntensityCountsDram();
    lines << QStringLiteral("achieved %1 (%2)").arg(formatGflops(tip.tflops), formatMs(run.medianMs));
    const double intensity = tip.measured.value_or(tip.predicted);
    // A TF32 run is judged against the tensor cores' roofs, never the FP32 one it can pass.
    const std::optional<TipRoof> datasheetTf32 = tip.tensor ? roofs.datasheetTf32 : std::nullopt;
    const std::optional<TipRoof> measuredTf32 = tip.tensor ? roofs.measuredTf32 : std::nullopt;
    if (measuredTf32)
        lines << roofPercentText(tip.tflops, intensity, *measuredTf32);
    if (datasheetTf32)
        lines << roofPercentText(tip.tflops, intensity, *datasheetTf32);
    if (!tip.tensor && roofs.fp32.peakTflops > 0)
        lines << roofPercentText(tip.tflops, intensity, roofs.fp32);
    // At each level, against that level's roof capped by the compute roof the run is judged by.
    const double levelPeak =
        tip.tensor ? (measuredTf32 ? measuredTf32->peakTflops : 0) : roofs.measuredFmaTflops;
    for (MemoryLevel level : kTipLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared;
            ai && levelPeak > 0)
            lines << roofPercentText(tip.tflops, *ai,
                                     TipRoof{levelName(level) + QStringLiteral(", measured"), levelPeak,
                                             level == MemoryLevel::L2 ? roofs.l2GBs : roofs.sharedGBs})
                         .replace(QStringLiteral("at this intensity"),
                                  QStringLiteral("at its %1 intensity").arg(levelName(level)));
    if (tip.tensor && !datasheetTf32 && !measuredTf32)
        lines << QStringLiteral("no TF32 roof for this GPU: measure its ceilings (sm_80 or newer)");
    if (tip.published)
        lines[0] = runTitle(run) + QStringLiteral(" — published in the worklog, not measured here");
    return lines.join(QLatin1Char('\n'));
}

RunRecord liveConfiguration(const LiveSettings &live)
{
    RunRecord run;
    run.stage = live.stage;
    run.m = live.size.m;
    run.n = live.size.n;
    run.k = live.size.k;
    for (const auto &[name, value] : live.params)
        run.params.insert(QString::fromStdString(name), value);
    return run;
}

bool liveUsesTensorCores(const LiveSettings &live)
{
    return stageInfo(live.stage).precision == Precision::Tf32;
}

std::optional<ChartPoint> livePoint(const LiveSettings &live, const TipRoofs &roofs)
{
    // A TF32 stage is capped by the tensor cores' roof: the datasheet's (what the hardware can do at
    // best), else the one measured here (wgmma on Hopper, mma.sync elsewhere).
    std::optional<TipRoof> tensor;
    if (liveUsesTensorCores(live))
        tensor = roofs.datasheetTf32 ? roofs.datasheetTf32 : roofs.measuredTf32;
    const TipRoof roof = tensor ? *tensor : roofs.fp32;
    const TrafficEstimate traffic = estimateTraffic(live.stage, live.params, live.size);
    const double ai = plottedIntensity(traffic);
    if (ai <= 0)
        return std::nullopt;
    // Without a run the model predicts only where the roof caps this configuration.
    const double attainable =
        roof.peakTflops > 0 ? roofline::roofAt(ai, roof.peakTflops, roof.bandwidthGBs) : 1.0;
    QStringList lines{QStringLiteral("%1, current settings (not run)")
                          .arg(QString::fromStdString(stageInfo(live.stage).title)),
                      QString::fromStdString(formatParams(live.params)),
                      QStringLiteral("AI predicted: %1  (%2)")
                          .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula))};
    if (roof.peakTflops > 0)
        lines << QStringLiteral("attainable under the %1 roof: %2").arg(roof.label, formatGflops(attainable));
    return ChartPoint{PointKind::Live, QString(), ai, attainable, lines.join(QLatin1Char('\n')), QString()};
}

QList<ChartPoint> worklogPoints(const GpuSpec *t4)
{
    QList<ChartPoint> points;
    const ProblemSize worklogSize; // the default is the worklog's 8192 x 4096 x 6144
    for (const Preset &preset : presets()) {
        if (!preset.worklogT4Ms)
            continue;
        const TrafficEstimate traffic = estimateTraffic(preset.stage, preset.params, worklogSize);
        const double ai = plottedIntensity(traffic);
        const double tflops = roofline::tflopsFor(roofline::kWorklogFlops, *preset.worklogT4Ms);
        if (ai <= 0 || tflops <= 0)
            continue;
        QStringList lines{
            presetTitle(preset) + QStringLiteral(" (published in the worklog, T4)"),
            QStringLiteral("AI predicted: %1  (%2)")
                .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula)),
            QStringLiteral("published %1 -> %2").arg(formatMs(*preset.worklogT4Ms), formatGflops(tflops))};
        if (t4)
            lines << roofPercentText(tflops, ai,
                                     TipRoof{QStringLiteral("T4 datasheet"), t4->fp32Tflops, t4->dramGBs});
        points << ChartPoint{PointKind::WorklogT4,
                             QString(),
                             ai,
                             tflops,
                             lines.join(QLatin1Char('\n')),
                             shortPresetLabel(QString::fromStdString(preset.key))};
    }
    return points;
}

} // namespace gemmscope::roofline_scene
