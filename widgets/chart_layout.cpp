#include "chart_layout.h"

#include <qcustomplot.h>

namespace gemmscope {

void placeLegendBesidePlot(QCustomPlot *plot)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    const int row = layout->rowCount() - 1; // the axis rect's row (a title row may sit above)
    auto *column = new QCPLayoutGrid;
    layout->addElement(row, 1, column);
    plot->axisRect()->insetLayout()->take(plot->legend);
    column->addElement(0, 0, plot->legend);
    column->addElement(1, 0, new QCPLayoutElement(plot)); // filler pushes the legend to the top
    column->setRowStretchFactor(0, 0.001);
    column->setRowStretchFactor(1, 1);
    column->setMargins(QMargins(4, 0, 4, 0));
    layout->setColumnStretchFactor(1, 0.001); // as narrow as the legend allows
    plot->legend->setMaximumSize(260, QWIDGETSIZE_MAX);
}

} // namespace gemmscope
