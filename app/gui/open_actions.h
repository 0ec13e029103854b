// The one place a file comes into the window, however it came (File > Open, Open Recent, Import
// Bench JSON, a drop on the window, the command line): the file is read in a worker thread and
// told apart by its content (file_open.h), then opened where it belongs:
// - a session replaces the open one (unsaved runs are asked about first, SessionActions);
// - a bench file (the ladder, recorded profiles: a profile attaches to the runs of its
//   configuration) or an exported results table adds its runs to the open session;
// - a sweep (a bench sweep or size sweep, a view's export, a journal) opens on the Sweep
//   workspace, added to the open session or as a new one, as the user chooses (remembered when
//   asked to);
// - anything else, and a damaged file of any kind, changes nothing and says why in the window,
//   naming what it is when it is another GemmScope file.
#pragma once

#include "file_open.h"

#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

class QMimeData;
class QTimer;
class QWidget;

namespace gemmscope {

struct ReadProgress;
class Session;
class SessionActions;

class FileOpener : public QObject {
    Q_OBJECT
public:
    // How the file was asked for: what a failure is said through (a dialog for the menus, the
    // window's notice for a drop or the command line), and what Import Bench JSON adds.
    enum class Asked { Open, ImportBench, Drop, CommandLine };
    // Where a sweep goes (the setting kSweepIntoKey remembers it; unset: the user is asked).
    enum class SweepInto { Ask, CurrentSession, NewSession };
    static constexpr const char *kSweepIntoKey = "open/sweepInto";

    // Drops on `window` are taken from now on (it accepts drops).
    FileOpener(Session *session, SessionActions *actions, QWidget *window);

    // Reads `path` in a worker thread and opens it; `done` runs in this thread afterwards: opened,
    // or refused (false and the sentence; nothing changed), or dropped (false, no sentence: a
    // later open replaced it, or the user kept the runs the session would have replaced).
    void open(const QString &path, Asked asked,
              std::function<void(bool opened, const QString &error)> done = {});
    // Several files, one after the other in the order given (a drop, the command line); what
    // each one's failure said stays in the notice until the last is open. `afterwards` runs then,
    // with those sentences.
    void openAll(const QStringList &paths, Asked asked,
                 std::function<void(const QStringList &failures)> afterwards = {});
    // The files of a drop: each one opened; a folder or a link to elsewhere is said in a sentence.
    void openDropped(const QMimeData *mime);

    static SweepInto sweepInto();
    static void setSweepInto(SweepInto choice);

    bool isReading() const { return !m_reading.empty(); }
    // Stops every file being read: each is dropped as it stops, the session stays as it was, and
    // the notice says so. Files queued after them (openAll) are still opened.
    void cancelReading();

signals:
    void readingStarted(const QString &path);
    // A few times a second while a session is read: its runs read so far, of `total` (0 until known).
    void readingProgress(const QString &path, qint64 runsRead, qint64 total);
    void readingFinished(const QString &path);
    // Sentences for the window's notice: what an opened file left out, why one was not opened.
    void notices(const QStringList &sentences);
    // A sweep was opened into the session (it holds it now): the window shows it.
    void sweepOpened(const SweepData &sweep);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override; // drags and drops on the window

private:
    // Opens what was read; false with a sentence when it was refused, false without one when it
    // was dropped.
    bool route(OpenedFile &file, Asked asked, quint64 revision, QString *error); // takes its data
    bool openSweep(const SweepData &sweep, const QString &path, QString *error);
    SweepInto askSweepInto(const QString &name);
    QString profileAttached(const StoredProfile &profile, const QString &name) const;
    void openNext(); // the next of openAll's files
    void reportProgress();

    // The files being read now, each with what its worker reports (shared: a worker may outlive
    // the window).
    struct Reading {
        QString path;
        std::shared_ptr<ReadProgress> progress;
    };
    std::vector<Reading> m_reading;
    QTimer *m_progressTimer = nullptr;

    Session *m_session;
    SessionActions *m_actions;
    QWidget *m_window;
    quint64 m_sessionTicket = 0; // the latest session read: an earlier one is dropped
    QStringList m_queue;         // openAll's files not yet read
    Asked m_queueAsked = Asked::Drop;
    bool m_queueBusy = false;
    std::function<void(const QStringList &failures)> m_afterQueue;
    // What the files opened together said (each opened, left out or refused), said again once the
    // last is open: an opened session (or the default one) replaces the notice.
    QStringList m_batchSaid;
    QStringList m_batchFailures; // the sentences of those that were not opened
    // Where the first sweep of the files opened together went: the others follow it unasked.
    std::optional<SweepInto> m_batchSweepInto;
};

} // namespace gemmscope
