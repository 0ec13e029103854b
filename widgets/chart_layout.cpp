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

void styleInsetLegend(QCustomPlot *plot, Qt::Alignment corner)
{
    QCPLegend *legend = plot->legend;
    legend->setVisible(true);
    QFont font = legend->font();
    font.setPointSize(7);
    legend->setFont(font);
    legend->setIconSize(12, 8);
    legend->setRowSpacing(-2);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setBrush(QColor(255, 255, 255, 210));
    legend->setBorderPen(QPen(QColor(0xb0, 0xb0, 0xb0)));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, corner);
}

} // namespace gemmscope
