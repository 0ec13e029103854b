// A legend whose entries flow in rows like words, each as wide as its own text, where a grid (every
// column as wide as its widest entry) would take more rows. Under the runtime chart's bars at the
// Ladder's 1280x800 its seven entries took three grid rows (one wide entry, "stages 0–8 (worklog),
// G32 (guide)", widened a whole column) and the rows left to the bars were too low to name each;
// flowing, they take two.
#pragma once

#include <QList>
#include <qcustomplot.h>

namespace gemmscope {

// Where each row of entries `widths` wide starts (an index into `widths`), filling rows of at most
// `available` pixels with `spacing` between neighbours, in order; an entry wider than a row has
// one of its own.
QList<int> flowRowStarts(const QList<int> &widths, int available, int spacing);

class FlowLegend : public QCPLegend {
    Q_OBJECT
public:
    // Entries in rows `width` pixels wide, margins included; 0: the grid's rows and columns, as
    // QCPLegend lays them out (wrap and fill order).
    void setFlowWidth(int width);
    int flowWidth() const { return m_flowWidth; }
    QSize minimumOuterSizeHint() const override;

protected:
    void updateLayout() override;

private:
    QList<QCPLayoutElement *> entries() const; // in order, the grid's empty cells left out
    QList<int> entryWidths() const;
    int m_flowWidth = 0;
};

// Puts a FlowLegend in place of `plot`'s default legend (where the default sits: in the axis rect,
// hidden); returns it. Call before anything is added to the legend.
FlowLegend *useFlowLegend(QCustomPlot *plot);

} // namespace gemmscope
