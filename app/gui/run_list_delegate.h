// The Counters run list's Stage cell in two lines: the stage's name, and under it the run's
// parameters in the placeholder colour. As a column of their own beside the name, the parameters
// were cut at 1280x800 and 1440x900 ("…TN=8 SWIZZ…"), just where SWIZZLE, STAGES and WM tell +pipe,
// +tuned and +async apart; under the name they have the column's width.
#pragma once

#include <QStyledItemDelegate>

namespace gemmscope {

class RunListDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // `parametersColumn`: the model's column the second line reads, on the same row.
    RunListDelegate(int parametersColumn, QObject *parent);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

    // The two lines a row shows: its stage's name and its parameters.
    QStringList lines(const QModelIndex &index) const;
    static int rowHeight(const QFontMetrics &metrics) { return 2 * metrics.height() + 8; }

private:
    int m_parametersColumn;
};

} // namespace gemmscope
