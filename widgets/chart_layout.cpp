#include "chart_layout.h"

#include <qcustomplot.h>

namespace gemmscope {

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

void fitTitleAndLegend(QCustomPlot *plot, const QString &fullTitle, bool legendWanted, int legendMinWidth)
{
    auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
    title->setText(
        QFontMetrics(title->font()).elidedText(fullTitle, Qt::ElideRight, std::max(60, plot->width() - 16)));
    plot->legend->setVisible(legendWanted && plot->legend->itemCount() > 0 &&
                             plot->width() >= legendMinWidth);
}

} // namespace gemmscope
