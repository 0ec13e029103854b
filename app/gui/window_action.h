// One way to make a window action: named (tests, menus and window_menus.cpp find it by name),
// with its shortcut working anywhere in the window, and added to the window.
#pragma once

#include <QAction>
#include <QKeySequence>
#include <QWidget>

namespace gemmscope {

inline QAction *addWindowAction(QWidget *window, const char *name, const QString &text,
                                const QKeySequence &shortcut = {})
{
    auto *action = new QAction(text, window);
    action->setObjectName(QLatin1String(name));
    if (!shortcut.isEmpty())
        action->setShortcut(shortcut);
    action->setShortcutContext(Qt::WindowShortcut);
    window->addAction(action);
    return action;
}

} // namespace gemmscope
