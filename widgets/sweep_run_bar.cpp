#include "sweep_run_bar.h"

#include "sweep_view_base.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QStackedWidget>
#include <QTabWidget>
#include <algorithm>

namespace gemmscope {

namespace {

// One page per view in a stack: the tab shown shows its own.
QHBoxLayout *addRowPage(QStackedWidget *stack)
{
    auto *page = new QWidget;
    auto *row = new QHBoxLayout(page);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(6);
    stack->addWidget(page);
    return row;
}

} // namespace

SweepRunBar::SweepRunBar(QTabWidget *tabs, const QList<SweepViewBase *> &views, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sweepRunBar"));
    // Two rows: the runner fields beside the buttons, then what the runner command may be beside the
    // progress, why Start is off and the status, each a line. Stacked in a column (the help in four
    // lines, the reason under the buttons wrapped) the bar took 100 px of a 1280x800 window.
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(6, 3, 6, 3);
    grid->setVerticalSpacing(2);
    auto *fields = new QHBoxLayout;
    fields->setSpacing(6); // its own: a grid of two spacings gives a row inside it none
    auto *help = new QHBoxLayout;
    grid->addLayout(fields, 0, 0);
    grid->addLayout(help, 1, 0);
    m_buttons = new QStackedWidget;
    m_buttons->setObjectName(QStringLiteral("sweepRunBarActions"));
    m_lines = new QStackedWidget;
    m_lines->setObjectName(QStringLiteral("sweepRunBarLines"));
    grid->addWidget(m_buttons, 0, 1);
    grid->addWidget(m_lines, 1, 1);
    grid->setColumnStretch(1, 1); // the status line takes what the runner fields leave
    for (SweepViewBase *view : views) {
        Q_ASSERT(tabs->indexOf(view) == m_buttons->count());
        SweepRunPanel *panel = view->runPanel();
        if (view == views.front()) {
            panel->addRunnersLine(fields, help);
        } else {
            views.front()->runPanel()->alsoSetRunnersOf(view->control());
            panel->dropRunnerFields();
        }
        panel->addCompactTo(addRowPage(m_buttons), addRowPage(m_lines));
    }
    const int shown = std::max(0, tabs->currentIndex());
    m_buttons->setCurrentIndex(shown);
    m_lines->setCurrentIndex(shown);
    // The tabs hold the views in this order: the tab's index is its pages'.
    connect(tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && index < m_buttons->count()) {
            m_buttons->setCurrentIndex(index);
            m_lines->setCurrentIndex(index);
        }
    });
}

} // namespace gemmscope
