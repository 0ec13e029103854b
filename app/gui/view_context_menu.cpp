#include "view_context_menu.h"

#include "chart_interaction.h"
#include "view_registry.h"
#include "workspaces.h"

#include <QCoreApplication>
#include <QMenu>
#include <QPointer>

namespace gemmscope {

namespace {

QString menuTr(const char *text)
{
    return QCoreApplication::translate("ViewContextMenu", text);
}

} // namespace

void addViewContextMenu(QWidget *window, ViewRegistry *registry, Workspaces *workspaces,
                        std::function<void()> exportDialog)
{
    // The list of menu entries is global (every chart's): a window that is gone answers nothing.
    ChartInteraction::addCommonMenuEntries([window = QPointer<QWidget>(window), registry, workspaces,
                                            exportDialog](QMenu &menu, QWidget *surface) {
        if (!window)
            return;
        QWidget *view = registry->viewContaining(surface);
        if (!view || !window->isAncestorOf(view))
            return;
        menu.addAction(menuTr("Export %1…").arg(registry->viewName(view)), window,
                       [registry, view, exportDialog] {
                           registry->setFocused(view);
                           exportDialog();
                       });
        QAction *max = menu.addAction(
            workspaces->maximised() ? menuTr("Restore the arrangement") : menuTr("Maximise this view"),
            window, [registry, workspaces, view] {
                registry->setFocused(view);
                workspaces->setMaximised(workspaces->maximised() ? nullptr : workspaces->paneOf(view));
            });
        max->setShortcut(QKeySequence(menuTr("Ctrl+M")));
    });
}

} // namespace gemmscope
