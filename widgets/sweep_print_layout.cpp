#include "sweep_print_layout.h"

#include "plot_export.h"

#include <QFontMetrics>
#include <qcustomplot.h>

namespace gemmscope {

QString wrapToWidth(const QString &text, const QFont &font, int width)
{
    const QFontMetrics metrics(font);
    QStringList out;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '))) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
                out << line;
                line = word;
            } else {
                line = candidate;
            }
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

std::optional<QString> exportSweepPlot(QCustomPlot *plot, const QString &path, const QString &title,
                                       const QString &footer, const std::function<void()> &fit)
{
    if (!plot)
        return QStringLiteral("Cannot export to \"%1\": there is no chart to export.").arg(path);
    QCPLayoutGrid *grid = plot->plotLayout();
    const int textWidth = kSweepPrintSize.width() - 200; // the heatmap's colour scale takes a column
    QFont titleFont(plot->font().family(), 12, QFont::Bold);
    auto *titleRow = new QCPTextElement(plot, wrapToWidth(title, titleFont, textWidth), titleFont);
    titleRow->setTextColor(Qt::black);
    grid->insertRow(0);
    grid->addElement(0, 0, titleRow);
    grid->setRowStretchFactor(0, 0.001);
    QCPTextElement *footerRow = nullptr;
    if (!footer.isEmpty()) {
        QFont footerFont(plot->font().family(), 8);
        footerRow = new QCPTextElement(plot, wrapToWidth(footer, footerFont, textWidth), footerFont);
        footerRow->setTextFlags(Qt::AlignLeft | Qt::AlignTop);
        footerRow->setTextColor(QColor(0x33, 0x33, 0x33));
        footerRow->setMargins(QMargins(16, 6, 16, 8));
        const int last = grid->rowCount();
        grid->insertRow(last);
        grid->addElement(last, 0, footerRow);
        grid->setRowStretchFactor(last, 0.001);
    }
    const std::optional<QString> error = exportPlotAt(plot, path, kSweepPrintSize, fit);
    grid->remove(titleRow); // deletes it
    if (footerRow)
        grid->remove(footerRow);
    grid->simplify();
    plot->replot(QCustomPlot::rpQueuedReplot);
    return error;
}

} // namespace gemmscope
