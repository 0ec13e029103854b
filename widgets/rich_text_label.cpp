#include "rich_text_label.h"

#include <QEvent>
#include <QTextFrame>
#include <QTextOption>

#include <cmath>

namespace gemmscope {

namespace {

// More widths than a layout asks for while the window is resized by hand are not worth keeping.
constexpr qsizetype kMaxHeights = 32;

} // namespace

RichTextLabel::RichTextLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
}

bool RichTextLabel::measuresItself() const
{
    return wordWrap() && margin() == 0 && indent() <= 0 && frameWidth() == 0 && minimumWidth() == 0;
}

QTextDocument &RichTextLabel::measured() const
{
    // QLabel::setText is not virtual: the text is compared instead (a few kilobytes, beside a
    // layout of them that costs milliseconds).
    if (!m_document || text() != m_measuredText) {
        m_measuredText = text();
        m_heights.clear();
        m_sizeHint = m_minimumSizeHint = QSize();
        m_document = std::make_unique<QTextDocument>();
        m_document->setUndoRedoEnabled(false);
        m_document->setDefaultFont(font());
        m_document->setHtml(m_measuredText);
        // As QLabel lays out its own: wrapped at words, aligned as the label, no frame margin.
        QTextOption option = m_document->defaultTextOption();
        option.setAlignment(alignment());
        option.setWrapMode(QTextOption::WordWrap);
        m_document->setDefaultTextOption(option);
        QTextFrameFormat frame = m_document->rootFrame()->frameFormat();
        frame.setMargin(0);
        m_document->rootFrame()->setFrameFormat(frame);
    }
    return *m_document;
}

QSizeF RichTextLabel::layOut(qreal textWidth) const
{
    QTextDocument &document = measured();
    ++m_layoutsDone;
    document.setTextWidth(textWidth);
    return document.size();
}

int RichTextLabel::heightForWidth(int width) const
{
    if (!measuresItself())
        return QLabel::heightForWidth(width);
    measured(); // drops the heights of another text
    if (const auto it = m_heights.constFind(width); it != m_heights.constEnd())
        return *it;
    const QMargins margins = contentsMargins();
    const int textWidth = std::max(width - margins.left() - margins.right(), 0);
    const int height = int(std::ceil(layOut(textWidth).height())) + margins.top() + margins.bottom();
    if (m_heights.size() >= kMaxHeights)
        m_heights.clear();
    m_heights.insert(width, height);
    return height;
}

QSize RichTextLabel::sizeHint() const
{
    if (!measuresItself())
        return QLabel::sizeHint();
    measured();
    if (!m_sizeHint.isValid()) {
        // As wide as its text needs up to some 80 characters (QLabel's measure of a wrapped text's
        // width), as tall as it is at that width.
        const int most = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 80;
        const QMargins margins = contentsMargins();
        const int atMost = int(std::ceil(layOut(most).height())) + margins.top() + margins.bottom();
        const int width = std::min(most, int(std::ceil(measured().idealWidth())));
        const int outer = width + margins.left() + margins.right();
        // A text as wide as the most or wider has just been laid out at the width asked next.
        if (width == most && m_heights.size() < kMaxHeights)
            m_heights.insert(outer, atMost);
        m_sizeHint = QSize(outer, heightForWidth(outer));
    }
    return m_sizeHint;
}

QSize RichTextLabel::minimumSizeHint() const
{
    if (!measuresItself())
        return QLabel::minimumSizeHint();
    measured();
    if (!m_minimumSizeHint.isValid()) {
        // As QLabel's: the width of its widest word (or table laid out as narrow as it goes), and
        // the height of the text unwrapped, or of the size hint where that is less.
        const QMargins margins = contentsMargins();
        const int narrowest = int(std::ceil(layOut(0).width()));
        const int unwrapped = int(std::ceil(layOut(QWIDGETSIZE_MAX).height()));
        m_minimumSizeHint =
            QSize(narrowest + margins.left() + margins.right(),
                  std::min(unwrapped + margins.top() + margins.bottom(), sizeHint().height()));
    }
    return m_minimumSizeHint;
}

void RichTextLabel::changeEvent(QEvent *event)
{
    // A new font or style lays the same text out to other sizes.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_document.reset();
    QLabel::changeEvent(event);
}

} // namespace gemmscope
