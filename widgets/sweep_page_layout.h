// The Sweep views' page: the form and the run controls in a column beside the chart, so
// that the chart keeps the page's whole height (the Sweep workspace is about 980x650 at 1280x800);
// in a pane narrower than kSideBySideMinWidth the column goes above the chart instead. The column
// scrolls rather than squeezing its widgets over one another.
#pragma once

#include <QSize>

class QBoxLayout;
class QScrollArea;
class QVBoxLayout;
class QWidget;

namespace gemmscope {

struct SweepPage {
    static constexpr int kSideBySideMinWidth = 760;
    QBoxLayout *columns = nullptr;     // the owner's layout: the side column, then the main column
    QScrollArea *side = nullptr;       // scrolls the form and controls
    QVBoxLayout *sideLayout = nullptr; // the form and the run controls
    QVBoxLayout *mainLayout = nullptr; // the Shown list, the chart, its key and the lines under it
    // Side by side or stacked, for the owner's new size: call from its resizeEvent.
    void arrange(const QSize &size);
};

SweepPage makeSweepPage(QWidget *owner);

} // namespace gemmscope
