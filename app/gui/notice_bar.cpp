#include "notice_bar.h"

#include "plain_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace gemmscope {

namespace {

constexpr int kShortLength = 160; // longer texts start folded to their first sentence

QString firstSentence(const QString &text)
{
    const int end = text.indexOf(QLatin1String(". "));
    if (end > 0 && end < kShortLength)
        return text.left(end + 1) + QStringLiteral(" …");
    // No short first sentence: fold at the last space before the limit, never inside a word or a
    // number ("at M=8 …" read as a value).
    const int space = text.lastIndexOf(QLatin1Char(' '), kShortLength);
    const int cut = space > kShortLength / 2 ? space : kShortLength;
    return text.left(cut).trimmed() + QStringLiteral(" …");
}

} // namespace

NoticeBar::NoticeBar(Kind kind, QWidget *parent)
    : QFrame(parent), m_label(new QLabel), m_more(new QToolButton), m_close(new QToolButton)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    // Pale yellow for a warning, pale blue for information: readable in light and dark themes'
    // default text colour because the text colour is set with them.
    p.setColor(QPalette::Window, kind == Kind::Warning ? QColor(0xff, 0xf3, 0xcd) : QColor(0xe7, 0xf1, 0xfb));
    p.setColor(QPalette::WindowText, QColor(0x1f, 0x1f, 0x1f));
    setPalette(p);
    auto *icon = new QLabel;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()
                        ->standardIcon(kind == Kind::Warning ? QStyle::SP_MessageBoxWarning
                                                             : QStyle::SP_MessageBoxInformation)
                        .pixmap(size, size));
    m_label->setObjectName(QStringLiteral("noticeText"));
    m_label->setTextFormat(Qt::PlainText); // a description from a file is never markup
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Hide this notice"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    m_more->setAutoRaise(true);
    m_more->setObjectName(QStringLiteral("noticeMore"));
    connect(m_more, &QToolButton::clicked, this, [this] {
        m_expanded = !m_expanded;
        updateShown();
    });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_more, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    setVisible(false);
}

void NoticeBar::show(const QString &text)
{
    m_text = text;
    m_expanded = false;
    updateShown();
    setVisible(!text.isEmpty());
}

void NoticeBar::updateShown()
{
    const bool longText = m_text.size() > kShortLength;
    m_label->setText(longText && !m_expanded ? firstSentence(m_text) : m_text);
    m_label->setToolTip(longText && !m_expanded ? plainTextAsHtml(m_text)
                                                : QString()); // file text: never markup
    m_more->setVisible(longText);
    m_more->setText(m_expanded ? tr("Show less") : tr("Show all"));
}

void NoticeBar::clear()
{
    m_text.clear();
    m_label->clear();
    setVisible(false);
}

QString NoticeBar::text() const
{
    return isVisibleTo(parentWidget()) ? m_text : QString();
}

} // namespace gemmscope
