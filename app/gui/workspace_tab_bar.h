// The workspace switcher: one tab per workspace (Ladder, Kernel, Counters, Sweep, Editor) on a row
// of its own over the pages, as Nsight Compute's pages and Qt Creator's modes are, apart from the
// tool bar's commands (Run, Profile, …). In one tool bar row the two read as one group of buttons.
// The tabs show the window's workspace actions (their shortcuts, Ctrl+1 … Ctrl+5, and the View
// menu stay theirs): a tab clicked triggers its action, the checked action is the current tab.
#pragma once

#include <QList>
#include <QTabBar>

class QAction;

namespace gemmscope {

class WorkspaceTabBar : public QTabBar {
    Q_OBJECT
public:
    explicit WorkspaceTabBar(const QList<QAction *> &actions, QWidget *parent = nullptr);

private:
    void showAction(int index); // the action's text and tooltip on its tab

    QList<QAction *> m_actions;
};

} // namespace gemmscope
