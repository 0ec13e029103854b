// Export of charts and diagrams to files, the format chosen by the file's extension:
// .png (rastered at twice the on-screen resolution), .pdf and .svg (both vector).
// Every failure comes back as one sentence a user can act on; success is an empty optional.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class QCustomPlot;
class QPainter;
class QRectF;
class QWidget;

namespace gemmscope {

enum class ExportFormat { Png, Pdf, Svg };

// The format for a path's extension (case-insensitive), or nullopt for anything else.
std::optional<ExportFormat> exportFormatForPath(const QString &path);

// "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)" for QFileDialog.
QString exportFileFilter();

// Renders a QCustomPlot at its current size (800x500 when it has never been laid out), or at
// `size` when one is given.
std::optional<QString> exportPlot(QCustomPlot *plot, const QString &path, QSize size = {});

// The print layout of a chart: lays the plot out at `size` (not its on-screen size), lets `fit`
// set the title and legend for that width, replots (labels are placed for that size) and writes
// the file; the plot's on-screen viewport comes back afterwards.
std::optional<QString> exportPlotAt(QCustomPlot *plot, const QString &path, QSize size,
                                    const std::function<void()> &fit);

// The print layout of a painted diagram: `paint` draws into the whole of a `size` page (title,
// legend and notes included); PNG at twice the resolution, PDF and SVG as vectors with true text.
std::optional<QString> exportPainted(const QString &path, QSize size, const QString &title,
                                     const std::function<void(QPainter &, const QRectF &)> &paint);

// Paints a print page's title (bold, wrapped, never elided) and returns the rect left below it.
QRectF paintPrintTitle(QPainter &p, const QRectF &page, const QString &title);

// Renders any widget (the mapping diagrams) through QWidget::render.
std::optional<QString> exportWidget(QWidget *widget, const QString &path);

} // namespace gemmscope
