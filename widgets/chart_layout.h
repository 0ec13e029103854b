// Layout helpers shared by the QCustomPlot charts.
#pragma once

#include <QString>
#include <Qt>

class QCustomPlot;

namespace gemmscope {

// Keeps the legend inside the axis rect, compact (small font and icons) and semi-transparent, in
// the given corner: beside the plot it ate half the width of a chart in the side-by-side layout.
// Callers pick a corner their data never reaches (above the memory roof, right of the tall bars).
void styleInsetLegend(QCustomPlot *plot, Qt::Alignment corner);

// Fits a chart to its current width: elides the title (element 0,0 of the plot layout) and shows
// the legend only when it is wanted, has items, and the plot is at least legendMinWidth wide.
void fitTitleAndLegend(QCustomPlot *plot, const QString &fullTitle, bool legendWanted, int legendMinWidth);

} // namespace gemmscope
