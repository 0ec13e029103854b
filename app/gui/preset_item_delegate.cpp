#include "preset_item_delegate.h"

#include "help_text_color.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>

namespace gemmscope {

namespace {

constexpr int kPadding = 4; // around the texts, as the style pads a list row
constexpr int kGap = 10;    // between the name and the time

QString timeOf(const QModelIndex &index)
{
    return index.data(PresetItemDelegate::TimeRole).toString();
}

// The width the row is laid out in: the view's, where the list wraps to it.
int rowWidth(const QStyleOptionViewItem &option)
{
    if (const auto *view = qobject_cast<const QAbstractItemView *>(option.widget))
        return view->viewport()->width();
    return option.rect.width();
}

} // namespace

std::pair<QRect, QRect> PresetItemDelegate::columns(const QRect &rect, const QFontMetrics &metrics,
                                                    const QString &time)
{
    const QRect inner = rect.adjusted(kPadding, kPadding / 2, -kPadding, -kPadding / 2);
    if (time.isEmpty())
        return {inner, QRect()};
    // The widest time any row shows, so the times stand in one column.
    const int timeWidth = metrics.horizontalAdvance(QStringLiteral("T4 000.00 ms"));
    const QRect timeRect(inner.right() - timeWidth + 1, inner.top(), timeWidth, metrics.height());
    QRect name = inner;
    name.setRight(timeRect.left() - kGap);
    return {name, timeRect};
}

QSize PresetItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QFontMetrics metrics(option.font);
    // As wide as the name on one line beside its time: the combo's popup takes that width, and its
    // rows stay one line each (a row as wide as the viewport grew the popup each time it opened).
    const QString timeText = timeOf(index);
    const QString nameText = index.data(Qt::DisplayRole).toString();
    const int timeWidth =
        timeText.isEmpty() ? 0 : metrics.horizontalAdvance(QStringLiteral("T4 000.00 ms")) + kGap;
    const int natural = metrics.horizontalAdvance(nameText) + timeWidth + 2 * kPadding + 1;
    const auto [name, time] =
        columns(QRect(0, 0, std::max(rowWidth(option), natural), 1 << 20), metrics, timeText);
    const QRect text = metrics.boundingRect(name, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, nameText);
    return {natural, std::max(text.height(), metrics.height()) + kPadding};
}

void PresetItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear(); // the texts are drawn below, in their columns
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, option.widget);

    const bool selected = option.state & QStyle::State_Selected;
    const auto [name, time] = columns(option.rect, option.fontMetrics, timeOf(index));
    painter->save();
    painter->setFont(option.font);
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(name, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                      index.data(Qt::DisplayRole).toString());
    if (!time.isNull()) {
        painter->setPen(selected ? option.palette.color(QPalette::HighlightedText)
                                 : helpTextColor(option.palette));
        painter->drawText(time, Qt::AlignRight | Qt::AlignTop, timeOf(index));
    }
    painter->restore();
}

} // namespace gemmscope
