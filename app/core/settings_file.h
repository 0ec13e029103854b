// The user's settings file (QSettings: the window's arrangement, the results tables' columns, the
// recent files), read and written without trusting what is at its name. A link, a device, a named
// pipe, a socket or a folder planted there is left exactly as it is (never read through, written
// through nor replaced), and so is a file over 1 MB; the window then runs on default settings and
// says so once (notice()) and on stderr. Nothing is opened in a way that can block the start.
//
// Every default-constructed QSettings of the process works on a private copy of the file, in a
// folder of its own; the copy goes back to the real name through writeFileAtomically after each
// change of the settings (SettingsChange). Before a change the copy takes what the real file holds
// now, so two windows' changes merge as QSettings merged them.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTemporaryDir>

namespace gemmscope {

// The window's settings are a few KiB; a larger file is not GemmScope's.
inline constexpr qint64 kMaxSettingsBytes = 1024 * 1024;

class SettingsFile : public QObject {
    Q_OBJECT
public:
    // Where QSettings keeps this application's user settings:
    // <GenericConfigLocation>/<organisation>/<application>.conf.
    static QString userSettingsPath();

    // Reads `path` and points every default-constructed QSettings at the private copy for as long as
    // this object lives. One at a time: the last one made is the one in use.
    explicit SettingsFile(const QString &path = userSettingsPath(), QObject *parent = nullptr);
    ~SettingsFile() override;

    // The one in use, or nullptr: without one (tests of other units), QSettings works as Qt made it.
    static SettingsFile *installed();

    QString path() const { return m_path; }
    // Why the settings are not read or not saved, as one sentence; empty while all is well.
    QString notice() const { return m_notice; }
    // Whether changes reach the real file: false once something other than a regular file (or
    // nothing) was found at its name, or it was too large or unreadable at the start.
    bool saving() const { return m_saving; }

    // The private copy takes what the real file holds now, if it changed since it was last read or
    // written here (another window saved its changes).
    void refresh();
    // Writes the private copy to the real name if it differs from what is there; false (notice()
    // says why) when refused or when the write failed.
    bool save();

signals:
    void noticeChanged(const QString &notice);

private:
    struct Found;
    Found look() const; // what is at the real name now, read if it is a regular file
    void copyToPrivate(const QByteArray &bytes);
    void refuse(const QString &sentence); // saving stops; said in notice() and once on stderr
    void say(const QString &sentence);

    QString m_path;
    QTemporaryDir m_private;
    QString m_privatePath;
    QByteArray m_realBytes; // what the real name held when last read or written here
    bool m_realExists = false;
    bool m_saving = true;
    QString m_notice;
    QSet<QString> m_said; // the sentences already printed on stderr
};

// Around a change of the settings: the private copy is refreshed when it is made and saved when it
// ends (the QSettings changed in its scope are synced first). Does nothing without an installed
// SettingsFile.
class SettingsChange {
public:
    SettingsChange();
    ~SettingsChange();
    SettingsChange(const SettingsChange &) = delete;
    SettingsChange &operator=(const SettingsChange &) = delete;
};

} // namespace gemmscope
