// What a cell of the parameter sweep's heatmap says, fitted to the cell's size in pixels: its
// value ("★51.2"), in a sweep "best over the rest" the other parameters of the run that value is
// from ("BK=8 TM=4 TN=4": which BK, TM and TN won the cell, on one line or broken between its
// words), and its marks ("s reg"). A cell too small for the parameters leaves them out (its
// tooltip names them); value and marks always stay. No widget: the font metrics come in, so that
// the fitting is tested like the chart scenes are.
#pragma once

#include <QSizeF>
#include <QString>

class QFontMetrics;

namespace gemmscope {

struct SweepCellText {
    QString value;  // "★51.2", "87%", "failed", "—"
    QString params; // the other parameters' values of the cell's best run; empty: nothing to name
    QString marks;  // "s reg", "✗"; empty: none
};

struct FittedCellText {
    QString text;             // the label's lines: value, parameters (where they fit), marks
    bool paramsShown = false; // the parameters are in `text`
};

// Room kept free at each side of a cell's text, in pixels: the text never touches the cell's edge.
inline constexpr int kCellTextPadding = 5;

FittedCellText fitCellText(const SweepCellText &cell, const QFontMetrics &metrics, const QSizeF &cellPx);

} // namespace gemmscope
