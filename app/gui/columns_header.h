// The results tables' horizontal header (results_tables.cpp): the column titles, and above them a
// row of the header's own for the columns button and the values every row shares.
#pragma once

#include <QHeaderView>
#include <QMouseEvent>
#include <QPainter>

namespace gemmscope {

// A header with a row of its own above the column titles: the columns button at its right end
// and, left of it, the values every row shares. Over a title the button hid the last column's
// name, and a strip of the header's width for it cut the stage names at 1280x800; above the
// titles it costs no column any width and shows with or without a vertical scroll bar.
class ColumnsHeader : public QHeaderView {
public:
    explicit ColumnsHeader(QWidget *parent) : QHeaderView(Qt::Horizontal, parent)
    {
        setSectionsClickable(true); // as the header QTableView makes itself
        setHighlightSections(true);
    }
    QWidget *button = nullptr;
    QString note; // "All runs: Size 4096³; GPU NVIDIA H200."

    int buttonRowHeight() const { return button ? button->sizeHint().height() : 0; }
    QSize sizeHint() const override
    {
        QSize size = QHeaderView::sizeHint();
        size.rheight() += buttonRowHeight();
        return size;
    }

protected:
    void paintSection(QPainter *painter, const QRect &rect, int logicalIndex) const override
    {
        QHeaderView::paintSection(painter, rect.adjusted(0, buttonRowHeight(), 0, 0), logicalIndex);
    }
    void paintEvent(QPaintEvent *event) override
    {
        QHeaderView::paintEvent(event);
        QPainter painter(viewport());
        const QRect row(0, 0, viewport()->width(), buttonRowHeight());
        painter.fillRect(row, palette().window());
        const int right = button ? button->x() - 8 : row.right();
        painter.setPen(palette().color(QPalette::WindowText));
        const QRect text(row.left() + 4, row.top(), right - row.left() - 4, row.height());
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(note, Qt::ElideRight, text.width()));
    }
    // The button's row sorts nothing and resizes nothing: only the titles under it do.
    void mousePressEvent(QMouseEvent *event) override
    {
        if (event->position().y() < buttonRowHeight())
            return event->ignore();
        QHeaderView::mousePressEvent(event);
    }
    void mouseDoubleClickEvent(QMouseEvent *event) override
    {
        if (event->position().y() < buttonRowHeight())
            return event->ignore();
        QHeaderView::mouseDoubleClickEvent(event);
    }
};

} // namespace gemmscope
