// The box a text takes in a font, in pixels, free of QCustomPlot: the charts' label placing (and
// their scene models, which place texts without a plot) measure through it.
#pragma once

#include <QFont>
#include <QSizeF>
#include <QString>

namespace gemmscope {

// Measured once per font and text (a cache per thread): a placement asks for the same few dozen
// texts in every pass of every replot.
QSizeF textBox(const QFont &font, const QString &text);

} // namespace gemmscope
