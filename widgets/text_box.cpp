#include "text_box.h"

#include <QFontMetricsF>
#include <QHash>
#include <QRectF>

namespace gemmscope {

// Measuring was a quarter of the roofline's placing time in a 10,000-run session. One cache per
// thread: a chart rendered off the UI thread keeps its own.
QSizeF textBox(const QFont &font, const QString &text)
{
    // By font, then text (QFont::key() spelled the font out as a string at every call).
    thread_local QHash<QFont, QHash<QString, QSizeF>> boxesByFont;
    QHash<QString, QSizeF> &boxes = boxesByFont[font];
    if (const auto it = boxes.constFind(text); it != boxes.cend())
        return *it;
    if (boxes.size() > 4096)
        boxes.clear(); // a long session's changing texts never pile up
    const QFontMetricsF metrics(font);
    const QSizeF box = metrics.boundingRect(QRectF(0, 0, 10000, 10000), Qt::TextDontClip, text).size();
    boxes.insert(text, box);
    return box;
}

} // namespace gemmscope
