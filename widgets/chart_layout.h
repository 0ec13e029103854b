// Layout helpers shared by the QCustomPlot charts.
#pragma once

#include <Qt>

class QCustomPlot;

namespace gemmscope {

// Moves the plot's legend out of the axis rect into a column on its right, top-aligned, so it never
// hides a bar or a roof (inside, every corner is data somewhere on these charts).
void placeLegendBesidePlot(QCustomPlot *plot);

// Keeps the legend inside the axis rect, compact (small font and icons) and semi-transparent, in
// the given corner: beside the plot it ate half the width of a chart in the side-by-side layout.
// Callers pick a corner their data never reaches (above the memory roof, right of the tall bars).
void styleInsetLegend(QCustomPlot *plot, Qt::Alignment corner);

} // namespace gemmscope
