#include "empty_state.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace gemmscope {

EmptyState::EmptyState(QWidget *parent)
    : QWidget(parent), m_text(new QLabel), m_button(new QPushButton), m_buttonRow(new QHBoxLayout)
{
    setObjectName(QStringLiteral("emptyState"));
    m_text->setObjectName(QStringLiteral("emptyStateText"));
    m_text->setTextFormat(Qt::PlainText); // runner messages and stage names are data, never markup
    m_text->setWordWrap(true);
    m_text->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A reading measure: across a 1920 window's pane the sentences ran 1,100 px a line; some 90
    // characters a line at most.
    m_text->setMaximumWidth(m_text->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 90);
    m_button->setObjectName(QStringLiteral("emptyStateOffer"));
    m_button->hide();
    connect(m_button, &QPushButton::clicked, this, &EmptyState::offerTaken);

    m_buttonRow->setContentsMargins(0, 0, 0, 0);
    m_buttonRow->addWidget(m_button);
    m_buttonRow->addStretch(1); // the buttons as wide as their words, under the sentence's start
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(10);
    layout->addWidget(m_text);
    layout->addLayout(m_buttonRow);
    layout->addStretch(1); // top-aligned: the eye finds it where a filled pane's headline is
}

void EmptyState::centre()
{
    if (m_centred)
        return;
    m_centred = true;
    // Space above the block half of that below it: the block's top a third of the way down.
    auto *box = static_cast<QVBoxLayout *>(layout());
    box->insertStretch(0, 1);
    box->setStretch(box->count() - 1, 2);
    fitText();
}

void EmptyState::setHeading(const QString &heading)
{
    if (!m_heading) {
        m_heading = new QLabel;
        m_heading->setObjectName(QStringLiteral("emptyStateHeading"));
        m_heading->setTextFormat(Qt::PlainText);
        m_heading->setWordWrap(true);
        QFont font = m_heading->font();
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 1.4);
        m_heading->setFont(font);
        auto *box = static_cast<QVBoxLayout *>(layout());
        box->insertWidget(box->indexOf(m_text), m_heading);
        centre();
    }
    m_heading->setText(heading);
    m_heading->setVisible(!heading.isEmpty());
}

QString EmptyState::heading() const
{
    return m_heading && !m_heading->isHidden() ? m_heading->text() : QString();
}

QPushButton *EmptyState::addStep(const QString &buttonText, const QString &what, const QKeySequence &keys)
{
    auto *button = new QPushButton(buttonText);
    addStep(button, what, keys);
    return button;
}

void EmptyState::addStep(QPushButton *button, const QString &what, const QKeySequence &keys)
{
    if (!m_steps) {
        m_steps = new QGridLayout;
        m_steps->setContentsMargins(0, 0, 0, 0);
        m_steps->setHorizontalSpacing(12);
        m_steps->setVerticalSpacing(8);
        m_steps->setColumnStretch(1, 1);
        auto *box = static_cast<QVBoxLayout *>(layout());
        box->insertLayout(box->indexOf(m_text) + 1, m_steps);
        centre();
    }
    auto *text =
        new QLabel(keys.isEmpty() ? what : tr("%1 (%2)").arg(what, keys.toString(QKeySequence::NativeText)));
    text->setTextFormat(Qt::PlainText);
    text->setWordWrap(true);
    text->setBuddy(button);
    m_buttonRow->removeWidget(button); // the offer's, made for the row under the sentence
    const int row = m_steps->rowCount();
    m_steps->addWidget(button, row, 0, Qt::AlignLeft | Qt::AlignTop);
    m_steps->addWidget(text, row, 1, Qt::AlignTop);
    m_stepTexts.insert(button, text);
    text->setVisible(!button->isHidden());
}

void EmptyState::setStepShown(QPushButton *step, bool shown)
{
    step->setVisible(shown);
    if (QLabel *text = m_stepTexts.value(step))
        text->setVisible(shown);
}

QString EmptyState::stepText(QPushButton *step) const
{
    const QLabel *text = m_stepTexts.value(step);
    return text ? text->text() : QString();
}

void EmptyState::setFootnote(const QString &sentence)
{
    if (!m_footnote) {
        m_footnote = new QLabel;
        m_footnote->setObjectName(QStringLiteral("emptyStateFootnote"));
        m_footnote->setTextFormat(Qt::PlainText);
        m_footnote->setWordWrap(true);
        m_footnote->setMaximumWidth(m_text->maximumWidth());
        auto *box = static_cast<QVBoxLayout *>(layout());
        box->insertWidget(box->indexOf(m_text) + (m_steps ? 2 : 1), m_footnote);
    }
    m_footnote->setText(sentence);
    m_footnote->setVisible(!sentence.isEmpty());
}

void EmptyState::setText(const QString &sentence)
{
    m_text->setText(sentence);
    fitText();
}

void EmptyState::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitText();
}

void EmptyState::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitText();
}

// The layout asks the label's height for the pane's whole width, but the label is no wider than
// its reading measure: in a wide pane the sentence took more lines than it was given and its end
// was cut. Its height is asked here for the width it will have.
void EmptyState::fitText()
{
    if (!isVisible()) // a hidden page's width is not the one it will be shown at (showEvent asks again)
        return;
    if (m_centred) { // the block a reading measure wide, in the middle of the pane
        const int side = std::max(4, (contentsRect().width() - m_text->maximumWidth()) / 2);
        layout()->setContentsMargins(side, 4, side, 4);
    }
    const QMargins margins = layout() ? layout()->contentsMargins() : QMargins();
    const int width =
        std::min(contentsRect().width() - margins.left() - margins.right(), m_text->maximumWidth());
    if (width <= 0)
        return;
    m_text->setMinimumHeight(0); // the label's height for a width counts a minimum set earlier
    m_text->setMinimumHeight(m_text->heightForWidth(width));
}

QString EmptyState::text() const
{
    return m_text->text();
}

void EmptyState::setOffer(const QString &buttonText, const QString &toolTip)
{
    m_button->setText(buttonText);
    m_button->setToolTip(toolTip);
    setStepShown(m_button, !buttonText.isEmpty());
}

QPushButton *EmptyState::addAction(const QString &buttonText, const QString &toolTip)
{
    auto *button = new QPushButton(buttonText);
    button->setToolTip(toolTip);
    m_buttonRow->insertWidget(m_buttonRow->count() - 1, button); // before the stretch
    return button;
}

QString EmptyState::offer() const
{
    return m_button->isHidden() ? QString() : m_button->text();
}

QLabel *makeReferenceNote(QWidget *parent)
{
    auto *note = new QLabel(parent);
    note->setObjectName(QStringLiteral("referenceNote"));
    note->setTextFormat(Qt::PlainText); // stage and GPU names come from a file
    note->setWordWrap(true);
    // A warm band with dark text in light and dark palettes alike.
    note->setStyleSheet(QStringLiteral("QLabel#referenceNote { background: #fff3cd; color: #4d3800; "
                                       "border: 1px solid #e0c060; border-radius: 3px; padding: 4px 6px; }"));
    note->hide();
    return note;
}

void setReferenceNoteText(QLabel *note, const QString &sentence)
{
    note->setText(sentence);
    note->setToolTip(sentence);
    note->setVisible(!sentence.isEmpty());
}

} // namespace gemmscope
