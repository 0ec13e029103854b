#include "scrolling_column.h"

#include <QFrame>
#include <QScrollArea>

namespace gemmscope {

QVBoxLayout *scrollingColumn(QWidget *owner)
{
    auto *column = new QWidget;
    auto *layout = new QVBoxLayout(column);
    auto *scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true); // the column grows with the pane; scrolls below its minimum
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(column);
    auto *outer = new QVBoxLayout(owner);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    return layout;
}

} // namespace gemmscope
