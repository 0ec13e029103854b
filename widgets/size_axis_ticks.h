// The size sweep's x axis: a labelled tick at every swept size (the 1.5x sizes too, which the note
// names: "+tuned at 3072³"), thinned where the plot is too narrow for their labels side by side.
#pragma once

#include <QFontMetrics>
#include <QString>
#include <vector>

namespace gemmscope {

// "768", "1536"; a whole number of K as "1K", "3K", "8K".
QString sizeTickLabel(double size);

// The sizes (ascending, > 0) whose labels fit side by side, at least `gap` px apart, on a log axis
// from `lo` to `hi` drawn `widthPx` wide. Powers of two are placed first, then the sizes between
// them where there is room, so a narrow plot keeps the regular 256, 512, 1K, ... scale.
std::vector<double> sizeTicksThatFit(const std::vector<double> &sizes, double lo, double hi, int widthPx,
                                     const QFontMetrics &metrics, int gap = 8);

} // namespace gemmscope
