// Bars and whiskers for a chart of one row per run that stays fast with 10,000 rows. Where a bar
// is thinner than two pixels (a session of thousands of runs), QCPBars would fill one antialiased
// polygon per run (80 ms a replot for 10,000 runs); RowBars fills one pixel row per pixel row
// instead, as wide as the longest of its bars there, which is what the eye can tell apart anyway.
// RowWhiskers draws no whiskers there: one pixel cannot show a p20-p80 range (the tooltip does).
// Taller bars are drawn by QCustomPlot as before. The data stay one point per run (hit-testing,
// barRects and the tests read them).
#pragma once

#include <qcustomplot.h>

namespace gemmscope {

// Below this height (pixels) a bar is drawn as part of its pixel row.
inline constexpr double kThinBarPx = 2.0;

class RowBars : public QCPBars {
    Q_OBJECT
public:
    using QCPBars::QCPBars;
    bool thin() const; // whether this replot draws pixel rows

protected:
    void draw(QCPPainter *painter) override;
};

class RowWhiskers : public QCPErrorBars {
    Q_OBJECT
public:
    using QCPErrorBars::QCPErrorBars;

protected:
    void draw(QCPPainter *painter) override;
};

} // namespace gemmscope
