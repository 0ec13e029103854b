#include "page_scroll_area.h"

#include <QEvent>
#include <QLayout>

namespace gemmscope {

PageScrollArea::PageScrollArea(QWidget *page, QWidget *parent) : QScrollArea(parent)
{
    setWidget(page); // which watches the page through eventFilter
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
}

bool PageScrollArea::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest) {
        // The page's layout now, then its height and the scroll range from it (what QScrollArea
        // does at a layout request of its own).
        if (QLayout *layout = widget()->layout())
            layout->activate();
        QEvent request(QEvent::LayoutRequest);
        QScrollArea::event(&request);
    }
    return QScrollArea::eventFilter(watched, event);
}

} // namespace gemmscope
