#include "code_heat_edit.h"

#include "chart_text.h"
#include "stall_reasons.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace gemmscope {

namespace {
constexpr int kStrip = 6;
constexpr int kChip = 8; // the first reason's colour, as in the where-the-time-goes bar
// "100 % " and a stall name of at most kStallNameMaxChars (stall_reasons.h), and one to spare
// for the 2 px the text keeps from the margin's edge: every name is printed whole.
constexpr int kLabelChars = 6 + kStallNameMaxChars + 1;
} // namespace

class CodeHeatMargin : public QWidget {
public:
    explicit CodeHeatMargin(CodeHeatEdit *editor) : QWidget(editor), m_editor(editor)
    {
        setObjectName(QStringLiteral("codeHeatMargin"));
    }
    QSize sizeHint() const override { return {m_editor->marginWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintMargin(event); }
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            const QString tip = m_editor->marginTooltipAt(help->pos().y());
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), plainTooltip(tip), this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    CodeHeatEdit *m_editor;
};

CodeHeatEdit::CodeHeatEdit(QWidget *parent) : QPlainTextEdit(parent), m_margin(new CodeHeatMargin(this))
{
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_margin->scroll(0, dy);
        else
            m_margin->update(0, rect.y(), m_margin->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargins(); });
    updateMargins();
}

void CodeHeatEdit::setLineHeat(const QHash<int, LineHeat> &heat)
{
    m_heat = heat;
    updateMargins();
    m_margin->update();
}

int CodeHeatEdit::heatWidth() const
{
    if (m_heat.isEmpty())
        return 0;
    // The strip, the first reason's colour chip (the bar's colour for it), the share and reason.
    return kStrip + 4 + kChip + 4 + fontMetrics().horizontalAdvance(QLatin1Char('0')) * kLabelChars;
}

QString CodeHeatEdit::marginText(int block) const
{
    const auto it = m_heat.constFind(block);
    if (it == m_heat.constEnd())
        return {};
    const int textLeft = numberWidth() + kStrip + 4 + kChip + 4;
    return fontMetrics().elidedText(it->label, Qt::ElideRight, marginWidth() - textLeft - 2);
}

int CodeHeatEdit::numberWidth() const
{
    if (!m_lineNumbers)
        return 0;
    const int digits = int(QString::number(std::max(1, blockCount())).size());
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

int CodeHeatEdit::marginWidth() const
{
    return heatWidth() + numberWidth();
}

void CodeHeatEdit::setLineNumbers(bool on)
{
    m_lineNumbers = on;
    updateMargins();
    m_margin->update();
}

void CodeHeatEdit::updateMargins()
{
    setViewportMargins(marginWidth(), 0, 0, 0);
    m_margin->setVisible(marginWidth() > 0);
    const QRect cr = contentsRect();
    m_margin->setGeometry(QRect(cr.left(), cr.top(), marginWidth(), cr.height()));
}

void CodeHeatEdit::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateMargins();
}

QColor CodeHeatEdit::heatColor(double heat, const QColor &base)
{
    const double h = std::clamp(std::isfinite(heat) ? heat : 0.0, 0.0, 1.0);
    const QColor hot(0xd6, 0x27, 0x28);
    const double amount = 0.12 + 0.88 * h; // even a cold sampled line shows a trace
    return QColor::fromRgbF(float(base.redF() * (1 - amount) + hot.redF() * amount),
                            float(base.greenF() * (1 - amount) + hot.greenF() * amount),
                            float(base.blueF() * (1 - amount) + hot.blueF() * amount));
}

void CodeHeatEdit::paintMargin(QPaintEvent *event)
{
    QPainter p(m_margin);
    const QColor base = palette().color(QPalette::Base);
    p.fillRect(event->rect(), palette().color(QPalette::Window));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const QColor text = palette().color(QPalette::WindowText);
    const int numbers = numberWidth(), heatLeft = numbers;
    QColor numberPen = text;
    numberPen.setAlphaF(0.5f);
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            if (numbers > 0) {
                p.setPen(numberPen);
                p.drawText(QRect(0, top, numbers - 6, bottom - top), Qt::AlignRight | Qt::AlignVCenter,
                           QString::number(block.blockNumber() + 1));
            }
            const auto it = m_heat.constFind(block.blockNumber());
            if (it != m_heat.constEnd()) {
                p.fillRect(QRect(heatLeft, top, kStrip, bottom - top), heatColor(it->heat, base));
                // Lines under 0.1 % of the samples get the faint strip alone: their labels would
                // bury the few hot lines in noise (the tooltip still has them).
                if (it->share < 0.001) {
                    block = block.next();
                    top = bottom;
                    bottom = top + qRound(blockBoundingRect(block).height());
                    continue;
                }
                const int chipTop = top + std::max(0, (bottom - top - kChip) / 2);
                p.fillRect(QRect(heatLeft + kStrip + 4, chipTop, kChip, std::min(kChip, bottom - top)),
                           QColor::fromRgb(QRgb(it->reasonColor)));
                QColor label = text;
                if (it->heat < 0.02)
                    label.setAlphaF(0.6f);
                p.setPen(label);
                const int textLeft = heatLeft + kStrip + 4 + kChip + 4;
                p.drawText(QRect(textLeft, top, marginWidth() - textLeft - 2, bottom - top),
                           Qt::AlignLeft | Qt::AlignVCenter, marginText(block.blockNumber()));
            }
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

QString CodeHeatEdit::marginTooltipAt(int y) const
{
    const QTextCursor cursor = cursorForPosition(QPoint(0, y));
    return m_heat.value(cursor.blockNumber()).tooltip;
}

void CodeHeatEdit::scrollToLine(int block)
{
    const QTextBlock b = document()->findBlockByNumber(block);
    if (!b.isValid())
        return;
    setTextCursor(QTextCursor(b));
    centerCursor();
}

} // namespace gemmscope
