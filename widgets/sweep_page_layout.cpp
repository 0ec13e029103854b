#include "sweep_page_layout.h"

#include <QBoxLayout>
#include <QFrame>
#include <QScrollArea>
#include <QScrollBar>
#include <QWidget>
#include <algorithm>

namespace gemmscope {

namespace {

// Wide enough for a stage's name in the Stage list and a series' name in the size sweep's list
// ("+wgmma  Tensor cores: Hopper wgmma TF32"): at 290 both were cut (the runner row, which once set
// the column's width, is in the run bar under the tabs now).
constexpr int kSideMinWidth = 360, kSideMaxWidth = 360;

} // namespace

SweepPage makeSweepPage(QWidget *owner)
{
    SweepPage page;
    auto *column = new QWidget;
    page.sideLayout = new QVBoxLayout(column);
    page.sideLayout->setContentsMargins(4, 4, 4, 4);
    page.side = new QScrollArea;
    page.side->setFrameShape(QFrame::NoFrame);
    page.side->setWidgetResizable(true);
    page.side->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    page.side->setWidget(column);
    page.mainLayout = new QVBoxLayout;
    page.mainLayout->setContentsMargins(0, 0, 0, 0);
    page.columns = new QBoxLayout(QBoxLayout::LeftToRight, owner);
    page.columns->setContentsMargins(2, 2, 2, 2);
    page.columns->addWidget(page.side);
    page.columns->addLayout(page.mainLayout, 1);
    page.arrange(owner->size());
    return page;
}

void SweepPage::arrange(const QSize &size)
{
    const bool sideBySide = size.width() >= kSideBySideMinWidth;
    columns->setDirection(sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    if (sideBySide) {
        // As wide as the column's widgets need (the scroll area never scrolls sideways), within
        // bounds that leave the chart most of the page.
        const int needed =
            side->widget()->minimumSizeHint().width() + side->verticalScrollBar()->sizeHint().width();
        const int width = std::clamp(needed, kSideMinWidth, std::max(kSideMinWidth, size.width() * 2 / 5));
        side->setMinimumWidth(width);
        side->setMaximumWidth(std::max(width, kSideMaxWidth));
        side->setMaximumHeight(QWIDGETSIZE_MAX);
        side->setMinimumHeight(0);
    } else { // a narrow pane: the controls above, at most ~45 % of the height (they scroll)
        side->setMinimumWidth(0);
        side->setMaximumWidth(QWIDGETSIZE_MAX);
        side->setMaximumHeight(std::max(160, size.height() * 45 / 100));
        side->setMinimumHeight(90);
    }
    // Now, not at the next event loop pass: the owner's layout already placed its children for
    // this size with the old direction (a grab or export before then would show that).
    columns->activate();
}

} // namespace gemmscope
