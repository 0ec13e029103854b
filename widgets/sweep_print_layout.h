// The print layout of the Sweep views' charts (Ctrl+E on the Sweep workspace writes the
// chart with its title and legend, not a screen grab of buttons): the plot at kSweepPrintSize with
// a bold title row above and a footer below (what the marks mean, the summary, where and when it
// was measured), both wrapped to the page; .png, .pdf or .svg through plot_export. The two rows
// exist only while the file is written.
#pragma once

#include <QSize>
#include <QString>
#include <functional>
#include <optional>

class QCustomPlot;
class QFont;

namespace gemmscope {

inline constexpr QSize kSweepPrintSize{1200, 800};

std::optional<QString> exportSweepPlot(QCustomPlot *plot, const QString &path, const QString &title,
                                       const QString &footer, const std::function<void()> &fit = {});

// `text` with line breaks inserted between words so that no line is wider than `width` pixels in
// `font` (its own line breaks kept; a word wider than the line stays whole).
QString wrapToWidth(const QString &text, const QFont &font, int width);

} // namespace gemmscope
