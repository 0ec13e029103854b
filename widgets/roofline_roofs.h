// The roofline's roofs as data, free of QCustomPlot: which roofs a chart draws for the ceilings
// measured on this GPU, the chosen datasheet and the chart's options; how each is drawn and named
// (its legend entry, its ridge's name); and the view a chart opens on (roofs and points in sight).
#pragma once

#include "gpu_specs.h"
#include "roofline_scene.h"

#include <QColor>
#include <QString>
#include <optional>

namespace gemmscope {

// The memory levels below DRAM the hierarchical roofline can show (DRAM is always drawn).
enum class MemoryLevel { L2, L1Shared };

namespace roofline_scene {

// What the runner measured on this GPU. Bandwidths in GB/s, peaks in TFLOP/s; 0: not measured.
struct Ceilings {
    double fmaTflops = 0, dramGBs = 0;
    QString label;         // the GPU they were measured on ("NVIDIA H200"); may be empty
    double tf32Tflops = 0; // the tensor cores' peak
    QString tf32Kernel;    // what measured it ("wgmma.m64n256k8.tf32")
    double l2GBs = 0, sharedGBs = 0;
};

struct RoofOptions {
    const GpuSpec *datasheet = nullptr; // the chosen GPU's; nullptr: none known
    bool measuredShown = false;         // the ceilings belong to the chosen GPU
    bool tensorRoofs = false;           // a TF32 run or the panel's TF32 stage is on the chart
    bool worklogOverlay = false;        // the worklog's T4 roof beside another GPU's
    bool l2Drawn = false, l1SharedDrawn = false;
};

struct RoofSpec {
    QString label;      // "FP32 measured on NVIDIA H200", "H200 datasheet FP32"
    QString legendName; // its legend entry: what it is, then its numbers
    double peakTflops = 0, bandwidthGBs = 0;
    bool measured = false;
    std::optional<MemoryLevel> level; // a level's diagonal alone, up to its ridge
    QColor color;
    double penWidth = 1;
    Qt::PenStyle penStyle = Qt::SolidLine;
    double ridgeDotSize = 4;
    QString ridgeText;         // "ridge 15.32 FLOP/B", or the level's name beside its line
    bool ridgeLabelled = true; // false: the legend names the ridge (a datasheet's beside a measured one)
    Polyline line;             // from far left to far right of any view
    double ridgeIntensity() const;
};

QString levelName(MemoryLevel level);
QColor levelColor(MemoryLevel level);
// The instruction a measured TF32 roof was measured with ("wgmma", "mma.sync"), from its kernel name.
QString tf32Instruction(const QString &kernel);
QString formatBandwidth(double gbPerS); // "4.26 TB/s": three significant digits, as the ridges
QString formatRidge(double intensity);  // "15.32 FLOP/B"

// The roofs drawn, in drawing order: the measured FP32 roof, the measured TF32 roof, the datasheet's
// FP32 and TF32 roofs, the levels' diagonals, the worklog's T4 roof.
QList<RoofSpec> roofsFor(const Ceilings &ceilings, const RoofOptions &options);

// A roof's line within a view (an SVG is not clipped: a roof from 0.001 to 100000 FLOP/B ran far
// past the axes in the file). Empty where all of it is left of or below the view.
Polyline clippedLine(const RoofSpec &roof, double xMin, double xMax, double yMin);

// A point the default view keeps in sight.
struct ViewPoint {
    double intensity = 0, tflops = 0;
    bool live = false; // the panel's settings: no label to make room for
};
struct ViewRanges {
    double xLower = 0, xUpper = 0, yLower = 0, yUpper = 0;
    friend bool operator==(const ViewRanges &, const ViewRanges &) = default;
};
// The view "Reset view" returns to: 0.1..2000 FLOP/B (with runs: to twice the farthest ridge, and
// far enough right of the rightmost run that a plot `plotWidthPx` wide has room for its crowd's names;
// 0: the Ladder workspace's at 1280x800) and 0.1 TFLOP/s up to a little over the highest roof,
// widened for the points and room for their labels, each end on a 1-2-5 value.
ViewRanges defaultView(const QList<RoofSpec> &roofs, const QList<ViewPoint> &points, double plotWidthPx = 0);

} // namespace roofline_scene
} // namespace gemmscope
