#include "window_menus.h"

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <initializer_list>
#include <type_traits>

namespace gemmscope {

namespace {

// "-": a separator; "@name": the submenu of that object name; else an action's object name.
struct MenuLayout {
    const char *title;
    std::initializer_list<const char *> entries;
};

const MenuLayout kMenus[] = {
    {QT_TRANSLATE_NOOP("WindowMenus", "&File"),
     {"actionOpen", "@recentMenu", "actionOpenDefaultSession", "actionSave", "actionSaveAs", "-",
      "actionImportBench", "actionExport", "-", "actionQuit"}},
    {QT_TRANSLATE_NOOP("WindowMenus", "&View"),
     {"actionWorkspaceLadder", "actionWorkspaceKernel", "actionWorkspaceCounters", "actionWorkspaceSweep",
      "actionWorkspaceEditor", "-", "actionShowPanel", "actionMaximiseView", "actionResetLayout"}},
    {QT_TRANSLATE_NOOP("WindowMenus", "&Run"),
     {"actionRun", "actionRunLadder", "actionProfile", "actionCancel", "-", "actionCompile",
      "@compileArchMenu"}},
    {QT_TRANSLATE_NOOP("WindowMenus", "&Kernel"),
     {"actionKernelNewFromStage", "actionKernelNewBlank", "actionKernelOpen", "actionKernelExport",
      "actionKernelDiff", "-", "actionKernelCompile", "actionKernelRun"}},
    {QT_TRANSLATE_NOOP("WindowMenus", "&Help"), {"actionReadingGuide", "actionGlossary", "actionShortcuts"}},
};

// The commands: running, then the arrangement of the current workspace. The workspaces themselves
// are the tabs over the pages (workspace_tab_bar.h): in this row they read as more commands.
const std::initializer_list<const char *> kToolBar{"actionRun",       "actionRunLadder",   "actionProfile",
                                                   "actionCancel",    "actionCompile",     "-",
                                                   "actionShowPanel", "actionMaximiseView"};

template <typename Container>
void fill(QMainWindow *window, Container *into, std::initializer_list<const char *> entries)
{
    for (const char *entry : entries) {
        const QString name = QString::fromLatin1(entry);
        if (name == QLatin1String("-")) {
            into->addSeparator();
        } else if (name.startsWith(QLatin1Char('@'))) {
            QMenu *submenu = window->findChild<QMenu *>(name.mid(1));
            Q_ASSERT(submenu);
            if constexpr (std::is_same_v<Container, QMenu>)
                if (submenu)
                    into->addMenu(submenu);
        } else {
            QAction *action = window->findChild<QAction *>(name);
            Q_ASSERT(action);
            if (action)
                into->addAction(action);
        }
    }
}

} // namespace

void buildWindowMenus(QMainWindow *window)
{
    for (const MenuLayout &menu : kMenus)
        fill(window, window->menuBar()->addMenu(QCoreApplication::translate("WindowMenus", menu.title)),
             menu.entries);
    QToolBar *toolbar = window->addToolBar(QCoreApplication::translate("WindowMenus", "Commands"));
    toolbar->setObjectName(QStringLiteral("runToolBar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    fill(window, toolbar, kToolBar);
}

} // namespace gemmscope
