// Help > Keyboard Shortcuts and Help > How to Read This Window: the window's own actions and their
// shortcuts (read from the actions, so the page can never disagree with them), and a short guide
// to the workspaces and what each chart's marks mean.
#pragma once

#include <QList>
#include <QString>

class QAction;
class QWidget;

namespace gemmscope {

// The shortcut table as HTML: every action of `window` that has a shortcut, by menu text.
QString shortcutsHtml(const QList<QAction *> &actions);
// The guide to the window, as HTML.
QString readingGuideHtml();
// Help > How to Read This Window (F1), Help > Glossary and Help > Keyboard Shortcuts (Ctrl+/),
// added to `window` as "actionReadingGuide", "actionGlossary" and "actionShortcuts".
void addHelpActions(QWidget *window);
// Shows `html` in a dialog titled `title` (non-modal, closes with Esc).
void showHelpDialog(QWidget *window, const QString &title, const QString &html);

} // namespace gemmscope
