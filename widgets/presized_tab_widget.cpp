#include "presized_tab_widget.h"

#include <QStackedWidget>
#include <QStyle>
#include <QStyleOptionTabWidgetFrame>

namespace gemmscope {

void PresizedTabWidget::resizeEvent(QResizeEvent *event)
{
    QTabWidget::resizeEvent(event);
    // Shown, QTabWidget places its pages itself. Hidden, a size waits for the show, and is sent
    // before the pages are shown: they get it here, where QTabWidget puts them (its style's
    // tab-contents rectangle), so that its own placing at its show event moves nothing.
    if (isVisible())
        return;
    auto *pages =
        findChild<QStackedWidget *>(QStringLiteral("qt_tabwidget_stackedwidget"), Qt::FindDirectChildrenOnly);
    if (!pages)
        return; // another Qt's inside: it places them itself, one layout later
    QStyleOptionTabWidgetFrame option;
    initStyleOption(&option);
    pages->setGeometry(style()->subElementRect(QStyle::SE_TabWidgetTabContents, &option, this));
}

} // namespace gemmscope
