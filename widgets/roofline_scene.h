// The roofline as a scene, free of QCustomPlot and widgets: what is drawn (roofs, marks, texts) in
// plot coordinates and in pixels of a log-log plot area. RooflineChart draws what these types say;
// roofline_roofs.h, roofline_marks.h and roofline_label_scene.h compute them, each tested on its own.
#pragma once

#include <QColor>
#include <QLineF>
#include <QList>
#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QString>
#include <cmath>

namespace gemmscope::roofline_scene {

// The worklog's T4: its roof, its published runs and their labels.
inline const QColor kWorklogColor{0x6d, 0x6d, 0x6d};

// The plot area of a log-log chart: its axis rect in pixels and the ranges it shows. Maps a point
// as QCustomPlot's logarithmic axes do (left to right, bottom to top), so what a scene computes in
// pixels is where the chart draws it.
struct PlotFrame {
    QRect area;
    double xLower = 0.1, xUpper = 1000, yLower = 0.1, yUpper = 100;

    double xPixel(double intensity) const
    {
        if (intensity <= 0)
            return area.left() - 200; // off the area, as the plot draws what a log axis cannot hold
        return std::log(intensity / xLower) / std::log(xUpper / xLower) * area.width() + area.left();
    }
    double yPixel(double tflops) const
    {
        if (tflops <= 0)
            return area.bottom() + 200;
        return area.bottom() - std::log(tflops / yLower) / std::log(yUpper / yLower) * area.height();
    }
    QPointF pixelOf(double intensity, double tflops) const { return {xPixel(intensity), yPixel(tflops)}; }
    bool xContains(double intensity) const { return intensity >= xLower && intensity <= xUpper; }
    bool yContains(double tflops) const { return tflops >= yLower && tflops <= yUpper; }
    friend bool operator==(const PlotFrame &, const PlotFrame &) = default;
};

// The room right of the rightmost run the default view leaves, in pixels of the plot: the list of its
// crowd's names (the widest, "cuBLAS FP32" after its swatch, ~76 px at 7 pt) and their leaders' gap
// from the markers.
inline constexpr double kNamesRoomPx = 96;

// What a mark on the plot is. The live point (the panel's settings, not run) and the selection's
// marks move without any run changing: the label cache follows them by their role.
enum class MarkRole {
    RunModel,      // a run at the traffic model's intensity (a disc)
    RunMeasured,   // a run at its counter-measured DRAM intensity (a diamond)
    RunLevel,      // a run at its measured L2 or L1/shared intensity (a triangle)
    Published,     // a worklog row or the worklog overlay (a square)
    Live,          // the panel's settings, not run (a hollow circle)
    SelectionRing, // the ring around the selected run
    SelectedModel, // the selected run's model disc, where model discs are hidden
    Ridge,         // where a roof's diagonal meets its flat part (a dot)
};

// A marker drawn: where (plot coordinates) and how far it reaches from its centre in pixels.
struct Mark {
    MarkRole role = MarkRole::RunModel;
    double intensity = 0; // FLOP/B
    double tflops = 0;
    double radius = 4; // half the marker's box, pen included
    friend bool operator==(const Mark &, const Mark &) = default;
};

// A line drawn in plot coordinates: a roof's polyline, a dotted join from a run's model intensity
// to its measured one.
struct Polyline {
    QList<QPointF> points; // (intensity, TFLOP/s)
    friend bool operator==(const Polyline &, const Polyline &) = default;
};

// The shapes a run's label list repeats before each line (a copy of the marker it names).
enum class SwatchShape { Diamond, Disc, Square };
struct Swatch {
    QColor color;
    SwatchShape shape = SwatchShape::Diamond;
    friend bool operator==(const Swatch &, const Swatch &) = default;
};

} // namespace gemmscope::roofline_scene
