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

class FileOpener;
class NoticeBar;
class Session;
struct SessionData;
struct AutosaveRecovery;

class SessionActions : public QObject {
    Q_OBJECT
public:
    // `window`: the parent of dialogs. The actions are created here, named "actionOpen",
    // "actionSave", "actionSaveAs", "actionImportBench" (the menu "recentMenu"), and added to
    // `window`, where the menus find them by name (window_menus.cpp). `autosaveNotice`: where the
    // autosave's trouble is said.
    SessionActions(Session *session, QWidget *window, NoticeBar *autosaveNotice);

    bool open(const QString &path, QString *error); // and remembers it in Open Recent; blocks
    // What File > Open and Open Recent do: the file is read, checked and its profiles folded in a
    // worker thread, so that a large file never holds up the window; then it replaces the session
    // and is remembered in Open Recent. `done` runs in this thread once it is open (true), or was
    // refused (false and the sentence why: nothing changed), or was dropped (false, no sentence):
    // a later open replaced it, or the user kept the changes made while it was read.
    // Any file GemmScope writes opens so (FileOpener, open_actions.h): a session as above, a bench
    // or sweep where it belongs.
    void openInBackground(const QString &path,
                          std::function<void(bool opened, const QString &error)> done = {});
    // Replaces the session with one read from `path` (FileOpener's reads): unsaved runs are asked
    // about unless the user was asked before the read began (`askedBefore`, at `revision`) and
    // nothing changed since. False: the user kept them, nothing changed.
    bool adoptSession(SessionData &&data, const QString &path, quint64 revision, bool askedBefore);
    FileOpener *opener() const { return m_opener; }
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

    // What Import Bench JSON does: the bench is read in a worker thread, then its runs and
    // profiles are added to the session; what it left out is said through notices(), a file that
    // cannot be read in a dialog. Another GemmScope file is opened as what it is, and said so.
    void importInBackground(const QString &path);

signals:
    // A file is being read in a worker thread (opened or imported), and the read is over.
    void readingStarted(const QString &path);
    void readingFinished(const QString &path);
    // What an imported file left out (a profile past the limits), one sentence each.
    void notices(const QStringList &sentences);

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
    FileOpener *m_opener; // every read of a file the user names
};

} // namespace gemmscope
