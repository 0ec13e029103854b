#include "workspace_tab_bar.h"

#include <QAction>

namespace gemmscope {

WorkspaceTabBar::WorkspaceTabBar(const QList<QAction *> &actions, QWidget *parent)
    : QTabBar(parent), m_actions(actions)
{
    setObjectName(QStringLiteral("workspaceTabs"));
    setDocumentMode(true); // a page switcher over the pages, not a framed tab widget
    setExpanding(false);
    setUsesScrollButtons(false); // five short words: every tab whole, at 1280 pixels too
    // Unlike the framed tabs inside the workspaces (Kernel's diagrams, Sweep's two views), which a
    // second row of the same tabs over them read as one more level of: flat names, the current one
    // bold and underlined, on a band ruled off from the page under it.
    setStyleSheet(QStringLiteral(
        "QTabBar#workspaceTabs { border-bottom: 1px solid palette(mid); }"
        "QTabBar#workspaceTabs::tab { border: none; border-bottom: 3px solid transparent;"
        " padding: 4px 14px 3px 14px; margin: 0; background: transparent; }"
        "QTabBar#workspaceTabs::tab:selected { font-weight: bold; border-bottom-color: palette(highlight); }"
        "QTabBar#workspaceTabs::tab:hover:!selected { border-bottom-color: palette(mid); }"));
    for (int i = 0; i < m_actions.size(); ++i) {
        addTab(QString());
        showAction(i);
        QAction *action = m_actions[i];
        if (action->isChecked())
            setCurrentIndex(i);
        connect(action, &QAction::changed, this, [this, i] { showAction(i); });
        connect(action, &QAction::toggled, this, [this, i](bool checked) {
            if (checked)
                setCurrentIndex(i);
        });
    }
    connect(this, &QTabBar::currentChanged, this, [this](int index) {
        if (index >= 0 && index < m_actions.size() && !m_actions[index]->isChecked())
            m_actions[index]->trigger();
    });
}

void WorkspaceTabBar::showAction(int index)
{
    const QAction *action = m_actions[index];
    setTabText(index, action->text());
    setTabToolTip(index, action->toolTip());
    setTabEnabled(index, action->isEnabled());
}

} // namespace gemmscope
