#include "rich_text_label.h"

#include <QEvent>

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

int RichTextLabel::heightForWidth(int width) const
{
    // QLabel::setText is not virtual: the text is compared instead (a few kilobytes, beside a
    // layout of them that costs milliseconds).
    if (text() != m_measuredText) {
        m_measuredText = text();
        m_heights.clear();
    }
    if (const auto it = m_heights.constFind(width); it != m_heights.constEnd())
        return *it;
    const int height = QLabel::heightForWidth(width);
    ++m_layoutsDone;
    if (m_heights.size() >= kMaxHeights)
        m_heights.clear();
    m_heights.insert(width, height);
    return height;
}

void RichTextLabel::changeEvent(QEvent *event)
{
    // A new font or style lays the same text out to other heights.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_heights.clear();
    QLabel::changeEvent(event);
}

} // namespace gemmscope
