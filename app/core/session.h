// A session: the runs a user has made or loaded, plus metadata, saved as a versioned JSON file.
// Three parts do the work: SessionStore holds the data and announces its changes
// (session_store.h), session_codec.h reads and writes the files, and session_autosave.h keeps a
// copy on disk so that no finished result is lost. Session joins them: the file the session is
// saved in and whether it changed since, opening, saving and importing, and when to autosave.
#pragma once

#include "session_autosave.h"
#include "session_codec.h"
#include "session_store.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

class Session : public SessionStore {
    Q_OBJECT
public:
    explicit Session(QObject *parent = nullptr);

    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }

    // A whole new session (SessionStore::replace), saved in `filePath` (empty: in none yet).
    void replace(SessionData data, const QString &filePath);
    void clear();

    bool open(const QString &path, QString *error);          // nothing changes when it fails
    bool save(QString *error, bool replaceReadOnly = false); // to filePath()
    // A read-only file is refused with a sentence unless `replaceReadOnly` (the user confirmed).
    bool saveAs(const QString &path, QString *error, bool replaceReadOnly = false);
    // Appends the bench's runs and profiles; what it left out (a profile past the limits), one
    // sentence each, in `notices`.
    bool importBench(const QString &path, QString *error, QStringList *notices = nullptr);
    // The same with the bench as importBenchFile read it (in a worker thread, where the window
    // imports one); its notices are the caller's to show.
    void addImported(const SessionData &bench, const QString &path);
    bool loadDefault(QString *error, const QString &path = defaultSessionPath());
    // Adds the sweeps of the session at `path` (the default one: a parameter sweep and a size sweep
    // measured on an NVIDIA H200) that this session lacks, keeping everything else: a session of
    // one's own runs gets something to show on the Sweep workspace. Their titles, or std::nullopt
    // with the file's problem in `error`.
    std::optional<QStringList> addRecordedSweeps(QString *error, const QString &path = defaultSessionPath());
    static QString defaultSessionPath() { return QStringLiteral(":/gemmscope/default_session.json"); }

    // Autosave (AutosaveWriter): every finished run, profile and kernel is written at once, a
    // sweep's progress within a second, to the autosave path (none by default; the window gives
    // each instance its own through AutosaveSlot).
    void setAutosavePath(const QString &path) { m_autosave->setPath(path); }
    QString autosaveFile() const { return m_autosave->path(); }
    // Writes the autosave now; a failure is also said through autosaveFailed.
    bool autosave(QString *error = nullptr) { return m_autosave->writeNow(error); }
    static QString autosavePath(); // the single autosave older GemmScopes shared (recovered, never written)
    static AutosaveRecovery recoverableAutosave(const QString &file) { return readAutosaveForRecovery(file); }
    static void discardAutosave(const QString &file) { removeAutosave(file); }
    // Takes recovered autosaves as the open session (mergeRecovered); marked modified and
    // autosaved at once.
    void adoptRecovered(const QList<SessionData> &recovered);
    // Whether the user is at risk: measured runs that neither a saved file nor a current autosave
    // holds (the autosave failed, could not be set up, or there is none). The window asks before
    // closing while this is true.
    bool runsSavedNowhere() const;
    // Why the last autosave failed (the sentence autosaveFailed carried); empty while it works.
    QString autosaveError() const { return m_autosave->error(); }
    // The window could not set up an autosave at all (AutosaveSlot::error()): reported as a failure.
    void setAutosaveUnavailable(const QString &reason) { m_autosave->setUnavailable(reason); }

signals:
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);
    // AutosaveWriter::failed and restored, for the window.
    void autosaveFailed(const QString &message);
    void autosaveRestored();

protected:
    void edited(Edit edit) override; // marks the session modified and autosaves as the edit asks

private:
    void setModified(bool modified);
    AutosaveWriter *m_autosave = nullptr;
    QString m_filePath;
    bool m_modified = false;
    QStringList m_importedFiles; // bench files this session read: never saved over
};

} // namespace gemmscope
