// Layout helpers shared by the QCustomPlot charts.
#pragma once

class QCustomPlot;

namespace gemmscope {

// Moves the plot's legend out of the axis rect into a column on its right, top-aligned, so it never
// hides a bar or a roof (inside, every corner is data somewhere on these charts).
void placeLegendBesidePlot(QCustomPlot *plot);

} // namespace gemmscope
