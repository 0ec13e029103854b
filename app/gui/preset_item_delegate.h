// The preset combo's rows: the preset's name, wrapped in its own column, and the worklog's T4 time
// right-aligned beside its first line in the placeholder colour. As one wrapped text the times broke
// onto lines of their own at one width and not at another, and read as items;
// in a column of their own they read as the table they are.
#pragma once

#include <QStyledItemDelegate>

namespace gemmscope {

class PresetItemDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // The role holding a row's time text ("T4 956.41 ms"); empty where the worklog has none.
    // Past ElidingComboBox::kFaceRole (UserRole + 1): the combo's face is the name alone.
    static constexpr int TimeRole = Qt::UserRole + 2;

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The name's rect and the time's in a row of `rect` (for the tests: the time never overlaps the name).
    static std::pair<QRect, QRect> columns(const QRect &rect, const QFontMetrics &metrics,
                                           const QString &time);
};

} // namespace gemmscope
