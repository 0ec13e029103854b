// A QTabWidget that gives its pages their size while it is hidden. QTabWidget places its pages
// only once it is visible, and its children are shown before it is: a page shown for the first
// time with its tab widget was laid out first at the size it had before (its share of a default
// 640x480) and then again at its own. The Counters workspace's access table, 2,300 characters of
// rich text, was laid out three more times at 472-490 px before its 1,318 px. Placed here where
// QTabWidget will place it, the page is shown once, at its size.
#pragma once

#include <QTabWidget>

namespace gemmscope {

class PresizedTabWidget : public QTabWidget {
    Q_OBJECT
public:
    using QTabWidget::QTabWidget;

protected:
    void resizeEvent(QResizeEvent *event) override;
};

} // namespace gemmscope
