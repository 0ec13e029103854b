// Export of charts and diagrams to files, the format chosen by the file's extension:
// .png (rastered at twice the on-screen resolution), .pdf and .svg (both vector).
// Every failure comes back as one sentence a user can act on; success is an empty optional.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

class QCustomPlot;
class QWidget;

namespace gemmscope {

enum class ExportFormat { Png, Pdf, Svg };

// The format for a path's extension (case-insensitive), or nullopt for anything else.
std::optional<ExportFormat> exportFormatForPath(const QString &path);

// "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)" for QFileDialog.
QString exportFileFilter();

// Renders a QCustomPlot at its current size (800x500 when it has never been laid out).
std::optional<QString> exportPlot(QCustomPlot *plot, const QString &path);

// Renders any widget (the mapping diagrams) through QWidget::render.
std::optional<QString> exportWidget(QWidget *widget, const QString &path);

} // namespace gemmscope
