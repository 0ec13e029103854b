#include "run_list_delegate.h"

#include "help_text_color.h"
#include "plain_text.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace gemmscope {

namespace {
constexpr int kCellPadding = 4; // as the style pads a cell's text
} // namespace

RunListDelegate::RunListDelegate(int parametersColumn, QObject *parent)
    : QStyledItemDelegate(parent), m_parametersColumn(parametersColumn)
{
}

QStringList RunListDelegate::lines(const QModelIndex &index) const
{
    return {index.data(Qt::DisplayRole).toString(),
            index.sibling(index.row(), m_parametersColumn).data(Qt::DisplayRole).toString()};
}

QSize RunListDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QStringList both = lines(index);
    const int width = std::max(option.fontMetrics.horizontalAdvance(both[0]),
                               option.fontMetrics.horizontalAdvance(both[1]));
    return {width + 2 * kCellPadding + 4, rowHeight(option.fontMetrics)};
}

void RunListDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const
{
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear(); // the two lines are drawn below
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, option.widget);

    const QStringList both = lines(index);
    const bool selected = option.state & QStyle::State_Selected;
    const QRect text = option.rect.adjusted(kCellPadding, 3, -kCellPadding, -3);
    const int line = option.fontMetrics.height();
    painter->save();
    painter->setFont(option.font);
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(QRect(text.left(), text.top(), text.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(both[0], Qt::ElideRight, text.width()));
    painter->setPen(selected ? option.palette.color(QPalette::HighlightedText)
                             : helpTextColor(option.palette));
    painter->drawText(QRect(text.left(), text.top() + line, text.width(), line),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(both[1], Qt::ElideRight, text.width()));
    painter->restore();
}

bool RunListDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
                                const QStyleOptionViewItem &option, const QModelIndex &index)
{
    if (event->type() != QEvent::ToolTip || !index.isValid())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QStringList both = lines(index);
    // A failed or refused run's cell says why (the model's tooltip): kept. Otherwise both lines
    // whole; they come from a session file: never markup.
    if (index.data(Qt::ToolTipRole).toString() != plainTextAsHtml(both[0]))
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    QToolTip::showText(event->globalPos(),
                       plainTextAsHtml(both[1].isEmpty() ? both[0] : both.join(QLatin1Char('\n'))), view);
    return true;
}

} // namespace gemmscope
