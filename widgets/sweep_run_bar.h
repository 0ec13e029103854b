// The Sweep workspace's run bar, under its two tabs (Parameter grid, Problem sizes): one runner
// command for both kinds of sweep, and Start, Cancel, Resume and Export… with the progress and the
// status line of the tab shown, in two rows (the controls, then a line of text). Each tab had these in its
// own column before: the same buttons and runner field on both tabs read as two things to set. The tabs'
// columns keep what differs, what a sweep of their kind times. The buttons are the views' run panels'
// (sweep_run_panel.h), so that each acts on its own view's sweep; the bar shows the shown tab's.
#pragma once

#include <QWidget>

class QStackedWidget;
class QTabWidget;

namespace gemmscope {

class SweepViewBase;

class SweepRunBar : public QWidget {
    Q_OBJECT
public:
    // `views`: the tabs' pages, made with SweepViewBase::RunControls::Shared; the first one's runner
    // fields set every view's runners.
    SweepRunBar(QTabWidget *tabs, const QList<SweepViewBase *> &views, QWidget *parent = nullptr);

private:
    // One page per view, the shown tab's on top: its buttons; its progress, why Start is off and status.
    QStackedWidget *m_buttons = nullptr;
    QStackedWidget *m_lines = nullptr;
};

} // namespace gemmscope
