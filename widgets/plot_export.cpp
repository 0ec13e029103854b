#include "plot_export.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <functional>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

constexpr double kPngScale = 2.0; // sharp on high-DPI screens and in slides
const QSize kFallbackSize(800, 500);

QSize exportSize(const QWidget *widget)
{
    // A widget that was never shown still reports Qt's default 640x480 or less; anything
    // smaller than a thumbnail would give an unreadable picture.
    QSize size = widget->size();
    if (size.width() < 100 || size.height() < 100)
        size = kFallbackSize;
    return size;
}

// Checks the extension and opens the target for writing, so that "no such folder" and
// "permission denied" are reported before anything is rendered.
std::optional<QString> openTarget(const QString &path, QFile &file, std::optional<ExportFormat> &format)
{
    format = exportFormatForPath(path);
    if (!format) {
        const QString suffix = QFileInfo(path).suffix();
        return suffix.isEmpty() ? QStringLiteral("Cannot export to \"%1\": the file name needs an extension "
                                                 "(.png, .pdf or .svg) to choose the format.")
                                      .arg(path)
                                : QStringLiteral("Cannot export to \"%1\": \".%2\" is not a supported format "
                                                 "(use .png, .pdf or .svg).")
                                      .arg(path, suffix);
    }
    const QDir dir = QFileInfo(path).absoluteDir();
    if (!dir.exists())
        return QStringLiteral("Cannot export to \"%1\": the folder \"%2\" does not exist.")
            .arg(path, dir.absolutePath());
    file.setFileName(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("Cannot export to \"%1\": %2.").arg(path, file.errorString());
    return std::nullopt;
}

std::optional<QString> finish(QFile &file, bool rendered, const QString &path)
{
    if (!rendered || file.error() != QFileDevice::NoError) {
        const QString reason =
            file.error() != QFileDevice::NoError ? file.errorString() : QStringLiteral("rendering failed");
        file.close();
        file.remove(); // never leave a truncated picture behind
        return QStringLiteral("Could not write \"%1\": %2.").arg(path, reason);
    }
    file.close();
    return std::nullopt;
}

bool writeSvg(QFile &file, const QSize &size, const QString &title,
              const std::function<void(QPainter &)> &draw)
{
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("Exported from GemmScope"));
    QCPPainter painter; // QCPPainter so QCustomPlot keeps its antialiasing and pen modes
    if (!painter.begin(&generator))
        return false;
    draw(painter);
    return painter.end();
}

} // namespace

std::optional<ExportFormat> exportFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    return std::nullopt;
}

QString exportFileFilter()
{
    return QStringLiteral("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

std::optional<QString> exportPlot(QCustomPlot *plot, const QString &path, QSize requested)
{
    if (!plot)
        return QStringLiteral("Cannot export to \"%1\": there is no chart to export.").arg(path);
    QFile file;
    std::optional<ExportFormat> format;
    if (auto error = openTarget(path, file, format))
        return error;
    const QSize size = requested.isValid() ? requested : exportSize(plot);
    bool rendered = false;
    switch (*format) {
    case ExportFormat::Png: {
        const QPixmap pixmap = plot->toPixmap(size.width(), size.height(), kPngScale);
        rendered = !pixmap.isNull() && pixmap.save(&file, "PNG");
        break;
    }
    case ExportFormat::Pdf:
        // savePdf opens the file itself (through QPdfWriter): release our handle first.
        file.close();
        rendered = plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic,
                                 QStringLiteral("GemmScope"), QFileInfo(path).completeBaseName());
        if (!rendered) {
            file.remove();
            return QStringLiteral("Could not write \"%1\": the PDF writer failed.").arg(path);
        }
        return std::nullopt;
    case ExportFormat::Svg:
        rendered = writeSvg(file, size, QFileInfo(path).completeBaseName(), [&](QPainter &painter) {
            plot->toPainter(static_cast<QCPPainter *>(&painter), size.width(), size.height());
        });
        break;
    }
    return finish(file, rendered, path);
}

std::optional<QString> exportPlotAt(QCustomPlot *plot, const QString &path, QSize size,
                                    const std::function<void()> &fit)
{
    if (!plot)
        return QStringLiteral("Cannot export to \"%1\": there is no chart to export.").arg(path);
    const QRect saved = plot->viewport();
    plot->setViewport(QRect(QPoint(0, 0), size));
    if (fit)
        fit();
    plot->replot(QCustomPlot::rpImmediateRefresh); // lays the axes out at the print size
    std::optional<QString> error = exportPlot(plot, path, size);
    plot->setViewport(saved);
    if (fit)
        fit();
    plot->replot(QCustomPlot::rpQueuedReplot);
    return error;
}

QRectF paintPrintTitle(QPainter &p, const QRectF &page, const QString &title)
{
    p.save();
    QFont font = p.font();
    font.setPointSizeF(12);
    font.setBold(true);
    p.setFont(font);
    p.setPen(Qt::black);
    const QRectF box = page.adjusted(12, 8, -12, 0);
    const QRectF used = p.boundingRect(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, title);
    p.drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, title);
    p.restore();
    return QRectF(page.left(), used.bottom() + 8, page.width(), page.bottom() - used.bottom() - 8);
}

std::optional<QString> exportPainted(const QString &path, QSize size, const QString &title,
                                     const std::function<void(QPainter &, const QRectF &)> &paint)
{
    QFile file;
    std::optional<ExportFormat> format;
    if (auto error = openTarget(path, file, format))
        return error;
    const QRectF page(QPointF(0, 0), QSizeF(size));
    const auto draw = [&](QPainter &p) {
        p.fillRect(page, Qt::white);
        paint(p, page);
    };
    bool rendered = false;
    switch (*format) {
    case ExportFormat::Png: {
        QImage image(size * kPngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kPngScale);
        image.fill(Qt::white);
        QPainter painter(&image);
        draw(painter);
        painter.end();
        rendered = image.save(&file, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        QPdfWriter writer(&file);
        writer.setCreator(QStringLiteral("GemmScope"));
        writer.setTitle(title);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (painter.begin(&writer)) {
            draw(painter);
            rendered = painter.end();
        }
        break;
    }
    case ExportFormat::Svg:
        rendered = writeSvg(file, size, title, draw);
        break;
    }
    return finish(file, rendered, path);
}

std::optional<QString> exportWidget(QWidget *widget, const QString &path)
{
    if (!widget)
        return QStringLiteral("Cannot export to \"%1\": there is no diagram to export.").arg(path);
    QFile file;
    std::optional<ExportFormat> format;
    if (auto error = openTarget(path, file, format))
        return error;
    const QSize size = exportSize(widget);
    if (widget->size() != size)
        widget->resize(size); // lay out a never-shown widget at a sensible size first
    bool rendered = false;
    switch (*format) {
    case ExportFormat::Png: {
        QImage image(size * kPngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kPngScale);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            widget->render(&painter);
        }
        rendered = image.save(&file, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        QPdfWriter writer(&file);
        writer.setCreator(QStringLiteral("GemmScope"));
        writer.setTitle(QFileInfo(path).completeBaseName());
        writer.setResolution(96);
        // A page exactly the widget's size (pixels at 96 dpi -> points), no margins.
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (painter.begin(&writer)) {
            widget->render(&painter);
            rendered = painter.end();
        }
        break;
    }
    case ExportFormat::Svg:
        rendered = writeSvg(file, size, QFileInfo(path).completeBaseName(),
                            [&](QPainter &painter) { widget->render(&painter); });
        break;
    }
    return finish(file, rendered, path);
}

} // namespace gemmscope
