#include "plot_export.h"

#include "clipping_svg_device.h"
#include "file_write.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTemporaryDir>
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

// Checks the extension and the target, so that "no such folder", a device or a pipe in its place
// are reported before anything is rendered.
std::optional<QString> checkTarget(const QString &path, std::optional<ExportFormat> &format)
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
    if (const auto refused = refuseOutput(path))
        return QStringLiteral("Cannot export to \"%1\": %2").arg(path, *refused);
    return std::nullopt;
}

// The picture is rendered into memory first; the file is then replaced whole, or left as it was.
std::optional<QString> finish(const QBuffer &buffer, bool rendered, const QString &path)
{
    if (!rendered)
        return QStringLiteral("Could not write \"%1\": rendering failed.").arg(path);
    if (const FileWrite written = writeFileAtomically(path, buffer.data()); !written)
        return written.error;
    return std::nullopt;
}

bool writeSvg(QIODevice &file, const QSize &size, const QString &title,
              const std::function<void(QPainter &)> &draw)
{
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    // At the screen's 96 dpi, as the views lay out their texts and as the PDF is written: at the
    // generator's own 72 a 7 pt list line came out 7 px high where the chart had made it 9 px, and a
    // list's lines drifted off their swatches and leaders.
    generator.setResolution(96);
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("Exported from GemmScope"));
    ClippingSvgDevice clipping(&generator); // the generator alone draws what the view clips
    QCPPainter painter;                     // QCPPainter so QCustomPlot keeps its antialiasing and pen modes
    if (!painter.begin(&clipping))
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
    std::optional<ExportFormat> format;
    if (auto error = checkTarget(path, format))
        return error;
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    const QSize size = requested.isValid() ? requested : exportSize(plot);
    bool rendered = false;
    switch (*format) {
    case ExportFormat::Png: {
        const QPixmap pixmap = plot->toPixmap(size.width(), size.height(), kPngScale);
        rendered = !pixmap.isNull() && pixmap.save(&file, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        // savePdf writes a file itself (through QPdfWriter): into a private scratch folder, so
        // the target is still replaced whole or not at all.
        QTemporaryDir scratch;
        const QString pdf = scratch.filePath(QStringLiteral("chart.pdf"));
        rendered = scratch.isValid() &&
                   plot->savePdf(pdf, size.width(), size.height(), QCP::epNoCosmetic,
                                 QStringLiteral("GemmScope"), QFileInfo(path).completeBaseName());
        QFile written(pdf);
        if (!rendered || !written.open(QIODevice::ReadOnly))
            return QStringLiteral("Could not write \"%1\": the PDF writer failed.").arg(path);
        file.buffer() = written.readAll();
        break;
    }
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
    std::optional<ExportFormat> format;
    if (auto error = checkTarget(path, format))
        return error;
    QBuffer file;
    file.open(QIODevice::WriteOnly);
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
    std::optional<ExportFormat> format;
    if (auto error = checkTarget(path, format))
        return error;
    QBuffer file;
    file.open(QIODevice::WriteOnly);
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
