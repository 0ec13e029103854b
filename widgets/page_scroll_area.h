// A scroll area for a page of sentences and tables, the page as wide as the area (widgetResizable).
// QScrollArea sets its page's height, and hears of a new one only when the page is resized: a page
// whose text changed while it was hidden and whose layout settled after it showed kept its old
// height, its last lines cut off with nothing to scroll (the Counters page, 20 px, at its first
// show). This one fits the page again each time the page's layout changes.
#pragma once

#include <QScrollArea>

namespace gemmscope {

class PageScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit PageScrollArea(QWidget *page, QWidget *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace gemmscope
