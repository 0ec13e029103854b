#include "sweep_run_bar.h"

#include "sweep_view_base.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace gemmscope {

namespace {

// As wide as the views' side column (sweep_page_layout.h), so that the runner fields sit under the
// forms they run and the buttons under the chart.
constexpr int kRunnersWidth = 360;

} // namespace

SweepRunBar::SweepRunBar(QTabWidget *tabs, const QList<SweepViewBase *> &views, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sweepRunBar"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 4, 6, 4);
    auto *runners = new QWidget;
    runners->setObjectName(QStringLiteral("sweepRunBarRunners"));
    runners->setMaximumWidth(kRunnersWidth);
    auto *form = new QFormLayout(runners);
    form->setContentsMargins(0, 0, 0, 0);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    row->addWidget(runners, 0, Qt::AlignTop);
    auto *help = new QVBoxLayout; // what the runner command may be, beside it: the bar stays low
    row->addLayout(help);
    m_actions = new QStackedWidget;
    m_actions->setObjectName(QStringLiteral("sweepRunBarActions"));
    row->addWidget(m_actions, 1, Qt::AlignTop);
    for (SweepViewBase *view : views) {
        Q_ASSERT(tabs->indexOf(view) == m_actions->count());
        SweepRunPanel *panel = view->runPanel();
        if (view == views.front()) {
            panel->addRunnersRow(form, help);
        } else {
            views.front()->runPanel()->alsoSetRunnersOf(view->control());
            panel->dropRunnerFields();
        }
        auto *page = new QWidget;
        auto *column = new QVBoxLayout(page);
        column->setContentsMargins(0, 0, 0, 0);
        panel->addTo(column);
        column->addStretch(1);
        m_actions->addWidget(page);
    }
    m_actions->setCurrentIndex(std::max(0, tabs->currentIndex()));
    // The tabs hold the views in this order: the tab's index is its page's.
    connect(tabs, &QTabWidget::currentChanged, m_actions, [this](int index) {
        if (index >= 0 && index < m_actions->count())
            m_actions->setCurrentIndex(index);
    });
}

} // namespace gemmscope
