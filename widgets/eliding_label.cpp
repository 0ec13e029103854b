#include "eliding_label.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>
#include <cmath>

namespace gemmscope {

ElidingLabel::ElidingLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText); // runner messages and paths: data, never markup
}

QString ElidingLabel::oneLine() const
{
    QString line = text();
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return line;
}

QString ElidingLabel::shownText() const
{
    return fontMetrics().elidedText(oneLine(), Qt::ElideRight, contentsRect().width());
}

bool ElidingLabel::isElided() const
{
    return !wordWrap() && !text().isEmpty() && shownText() != oneLine();
}

QSize ElidingLabel::sizeHint() const
{
    if (wordWrap())
        return QLabel::sizeHint();
    const QMargins m = contentsMargins();
    // Rounded up, and a pixel over: elidedText() cuts a text given its rounded width.
    const int whole = int(std::ceil(QFontMetricsF(font()).horizontalAdvance(oneLine()))) + 1;
    return {whole + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

QSize ElidingLabel::minimumSizeHint() const
{
    if (wordWrap())
        return QLabel::minimumSizeHint();
    const QMargins m = contentsMargins();
    // A few characters and the ellipsis: the rest is in the tooltip.
    return {fontMetrics().horizontalAdvance(QStringLiteral("xxxxxx…")) + m.left() + m.right(),
            fontMetrics().height() + m.top() + m.bottom()};
}

bool ElidingLabel::event(QEvent *event)
{
    // Cut, and no tooltip of its own: the whole text, escaped, in paragraphs that wrap.
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty() && isElided()) {
        const QString html = text().toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(),
                           QStringLiteral("<p>%1</p>").arg(html), this);
        return true;
    }
    return QLabel::event(event);
}

void ElidingLabel::paintEvent(QPaintEvent *event)
{
    if (wordWrap()) {
        QLabel::paintEvent(event);
        return;
    }
    QPainter painter(this);
    style()->drawItemText(&painter, contentsRect(), int(alignment()) | Qt::TextSingleLine, palette(),
                          isEnabled(), shownText(), foregroundRole());
}

} // namespace gemmscope
