// The File menu's work on sessions: Open, Open Recent, Save, Save As, Import Bench JSON, the
// question before unsaved runs are dropped, the notice while the autosave cannot be written, and
// the offer to recover the runs of a GemmScope that ended without saving them (autosaves read off
// the UI thread). Messages quoting a file are shown as plain text, never markup.
#pragma once

#include <QList>
#include <QObject>
#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace gemmscope {

class NoticeBar;
class Session;
struct AutosaveRecovery;

class SessionActions : public QObject {
    Q_OBJECT
public:
    // `window`: the parent of dialogs. The actions are created here, named "actionOpen",
    // "actionSave", "actionSaveAs", "actionImportBench" (the menu "recentMenu"), and added to
    // `window`, where the menus find them by name (window_menus.cpp). `autosaveNotice`: where the
    // autosave's trouble is said.
    SessionActions(Session *session, QWidget *window, NoticeBar *autosaveNotice);

    bool open(const QString &path, QString *error); // and remembers it in Open Recent
    bool save();
    bool saveAs();
    // True when the session's runs may be dropped: nothing unsaved, or the user saved or chose
    // to discard them.
    bool confirmDiscard();
    // True when the window may close: a named file with unsaved changes asks first, and so do runs
    // that are saved nowhere (no file and no working autosave).
    bool confirmClose();
    // Why the autosave cannot be written now (empty: it works): shown in the notice, with what it
    // means for the runs measured from now on; confirmClose() asks while it fails.
    void setAutosaveProblem(const QString &sentence);

    // Offers the unsaved runs of every autosave whose instance has ended; `afterwards` runs
    // whatever the user chose (the window rescans the sweep journals then).
    void offerAutosaveRecovery(std::function<void()> afterwards);

    static void warn(QWidget *parent, const QString &title, const QString &text); // plain text

private:
    // True when `path` may be written: not read-only, or the user said to replace it (then
    // `replace` is set).
    bool confirmReplacingReadOnly(const QString &path, bool *replace);
    void updateRecentMenu();
    void offerRecovered(const QList<AutosaveRecovery> &found);

    Session *m_session;
    QWidget *m_window;
    QAction *m_open, *m_save, *m_saveAs, *m_importBench;
    QMenu *m_recentMenu;
    NoticeBar *m_autosaveNotice;
    QString m_autosaveProblem;
};

} // namespace gemmscope
