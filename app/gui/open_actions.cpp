#include "open_actions.h"

#include "session.h"
#include "session_actions.h"
#include "session_runs_read.h"

#include <QCheckBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QUrl>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace gemmscope {

FileOpener::FileOpener(Session *session, SessionActions *actions, QWidget *window)
    : QObject(actions), m_session(session), m_actions(actions), m_window(window)
{
    m_progressTimer = new QTimer(this);
    window->setAcceptDrops(true);
    window->installEventFilter(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &FileOpener::reportProgress);
}

void FileOpener::cancelReading()
{
    for (const Reading &reading : m_reading)
        reading.progress->cancelled = true;
}

void FileOpener::reportProgress()
{
    if (m_reading.empty())
        return;
    const Reading &latest = m_reading.back();
    emit readingProgress(latest.path, latest.progress->runsRead, latest.progress->runsTotal);
}

FileOpener::SweepInto FileOpener::sweepInto()
{
    const QString value = QSettings().value(QLatin1String(kSweepIntoKey)).toString();
    if (value == QLatin1String("current"))
        return SweepInto::CurrentSession;
    if (value == QLatin1String("new"))
        return SweepInto::NewSession;
    return SweepInto::Ask;
}

void FileOpener::setSweepInto(SweepInto choice)
{
    QSettings settings;
    if (choice == SweepInto::Ask)
        settings.remove(QLatin1String(kSweepIntoKey));
    else
        settings.setValue(QLatin1String(kSweepIntoKey), choice == SweepInto::CurrentSession
                                                            ? QStringLiteral("current")
                                                            : QStringLiteral("new"));
}

void FileOpener::open(const QString &path, Asked asked, std::function<void(bool, const QString &)> done)
{
    // A session asked for later replaces one still being read (File > Open twice, or Open Recent).
    const quint64 ticket = asked == Asked::ImportBench ? m_sessionTicket : ++m_sessionTicket;
    const quint64 revision = m_session->revision();
    emit readingStarted(path);
    const auto progress = std::make_shared<ReadProgress>();
    m_reading.push_back({path, progress});
    m_progressTimer->start();
    auto *watcher = new QFutureWatcher<OpenedFile>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [=, this] {
        watcher->deleteLater();
        OpenedFile file = watcher->future().takeResult(); // moved: 10,000 runs are never copied here
        std::erase_if(m_reading, [&](const Reading &r) { return r.progress == progress; });
        if (m_reading.empty())
            m_progressTimer->stop();
        emit readingFinished(path);
        QString error;
        bool opened = false;
        // Stop pressed before this result was shown drops it too: the worker may have just finished.
        if (file.cancelled || progress->cancelled)
            emit notices({tr("Stopped reading %1: nothing of it was opened, and the open session is as it "
                             "was.")
                              .arg(QFileInfo(path).fileName())});
        else if (file.kind == FileKind::Session && file.data && ticket != m_sessionTicket)
            opened = false; // a later open's file is shown instead
        else
            opened = route(file, asked, revision, &error);
        if (done)
            done(opened, error);
    });
    watcher->setFuture(
        QtConcurrent::run([path, progress] { return readGemmScopeFile(path, progress.get()); }));
}

bool FileOpener::route(OpenedFile &file, Asked asked, quint64 revision, QString *error)
{
    if (!file.ok()) {
        *error = file.error;
        return false;
    }
    const QString name = QFileInfo(file.path).fileName();
    QStringList said;
    // Import Bench JSON given another GemmScope file: it is opened as what it is, and said so.
    if (asked == Asked::ImportBench && file.kind != FileKind::Bench)
        said << tr("%1 is %2, not a bench file: opening it.").arg(name, describeFileKind(file.kind));
    if (file.sweep) {
        if (!openSweep(*file.sweep, file.path, error))
            return false;
        said << tr("Opened %1 (%2) on the Sweep workspace.").arg(name, describeFileKind(file.kind));
    } else if (file.kind == FileKind::Session) {
        const QStringList sessionSaid = file.data->notices + QStringList{file.data->description};
        if (!m_actions->adoptSession(std::move(*file.data), file.path, revision, asked == Asked::Open))
            return false; // the user kept the runs it would have replaced
        if (said.isEmpty() && !m_queueBusy)
            return true; // the session's own notice is shown as it opens
        said << sessionSaid;
    } else if (file.kind == FileKind::Profile) {
        m_session->addImported(*file.data, file.path);
        said << profileAttached(file.data->profiles.first(), name);
    } else {
        // A bench file, recorded profiles, an exported table: added, never replacing anything.
        m_session->addImported(*file.data, file.path);
        said << (file.data->profiles.isEmpty()
                     ? tr("Added %n run(s) from %1.", nullptr, int(file.data->runs.size())).arg(name)
                     : tr("Added %n run(s) and %1 profile(s) from %2.", nullptr, int(file.data->runs.size()))
                           .arg(file.data->profiles.size())
                           .arg(name));
    }
    said << file.notices;
    if (m_queueBusy)
        m_batchSaid << said; // said again, with the others', once the last file is open
    emit notices(m_batchSaid.isEmpty() ? said : m_batchSaid);
    return true;
}

QString FileOpener::profileAttached(const StoredProfile &profile, const QString &name) const
{
    // A profile belongs to the runs of the preset and size it sampled: say which, or how to see it.
    const protocol::ProfileEvent &p = profile.event;
    const QString what = tr("the profile of %1 at %2").arg(p.stage, squareOrFullSizeText(p.size));
    const ProfileKey key = profileKeyOf(p);
    for (const RunRecord &run : m_session->runs())
        if (profileMatches(key, profileKeyOf(run)))
            return tr("Added %1 from %2: it shows with run %3 (the same parameters, size and GPU).")
                .arg(what, name, run.runId);
    return tr("Added %1 from %2. No run of this session has its parameters, size and GPU: set them in "
              "the panel (or run them) to see the profile.")
        .arg(what, name);
}

bool FileOpener::openSweep(const SweepData &sweep, const QString &path, QString *error)
{
    Q_UNUSED(error); // a sweep that was read always opens, unless the user cancels
    // The session's own sweep (its journal, opened while it runs or after): shown, never replaced.
    for (const SweepData &held : m_session->sweeps())
        if (held.id == sweep.id) {
            emit sweepOpened(held);
            return true;
        }
    const bool emptySession = m_session->runs().isEmpty() && m_session->sweeps().isEmpty();
    // The files opened together are asked about once: after the first sweep of a drop went into
    // this session or a new one, the next ones join it (a second "new session" would have closed
    // the first sweep's).
    SweepInto into = m_batchSweepInto ? SweepInto::CurrentSession
                     : emptySession   ? SweepInto::CurrentSession
                                      : sweepInto();
    if (into == SweepInto::Ask)
        into = askSweepInto(QFileInfo(path).fileName());
    if (into == SweepInto::Ask)
        return false; // cancelled
    if (m_queueBusy)
        m_batchSweepInto = into;
    if (into == SweepInto::NewSession) {
        if (!m_actions->confirmDiscard())
            return false;
        SessionData data;
        data.title = sweep.title();
        data.description = tr("The sweep in %1.").arg(QDir::toNativeSeparators(path));
        data.created = sweep.created;
        data.sweeps = {sweep};
        m_session->replace(std::move(data), {});
    } else {
        m_session->setSweep(sweep, true);
    }
    emit sweepOpened(sweep);
    return true;
}

FileOpener::SweepInto FileOpener::askSweepInto(const QString &name)
{
    // The files still to open with it are named too: the answer holds for their sweeps as well.
    QStringList others;
    for (const QString &queued : std::as_const(m_queue))
        others << QFileInfo(queued).fileName();
    const QString question =
        others.isEmpty() ? tr("Add the sweep in %1 to this session, or open it as a new session?").arg(name)
                         : tr("Add the sweeps in %1 and %2 to this session, or open them as a new session?")
                               .arg(name, QLocale().createSeparatedList(others));
    QMessageBox box(QMessageBox::Question, tr("Open a sweep"), question, QMessageBox::NoButton, m_window);
    box.setObjectName(QStringLiteral("sweepIntoQuestion"));
    box.setTextFormat(Qt::PlainText); // a file name is never markup
    box.setInformativeText(tr("Added to this session, a sweep is saved with its runs. Opened as a "
                              "new session, this session closes first, and you are asked about any "
                              "unsaved runs."));
    QPushButton *add = box.addButton(tr("Add to This Session"), QMessageBox::AcceptRole);
    QPushButton *fresh = box.addButton(tr("Open as New Session"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(add);
    auto *remember = new QCheckBox(tr("Do the same for every sweep from now on"), &box);
    box.setCheckBox(remember);
    box.exec();
    const SweepInto chosen = box.clickedButton() == add     ? SweepInto::CurrentSession
                             : box.clickedButton() == fresh ? SweepInto::NewSession
                                                            : SweepInto::Ask;
    if (chosen != SweepInto::Ask && remember->isChecked())
        setSweepInto(chosen);
    return chosen;
}

void FileOpener::openAll(const QStringList &paths, Asked asked,
                         std::function<void(const QStringList &failures)> afterwards)
{
    m_queue << paths;
    m_queueAsked = asked;
    if (afterwards)
        m_afterQueue = std::move(afterwards);
    if (!m_queueBusy)
        openNext();
}

void FileOpener::openNext()
{
    if (m_queue.isEmpty()) {
        m_queueBusy = false;
        m_batchSweepInto.reset();
        const QStringList failures = std::exchange(m_batchFailures, {});
        if (auto afterwards = std::exchange(m_afterQueue, {}))
            afterwards(failures);
        // What the files said, again: an opened session (or the default one) replaced the notice.
        // A file that was not opened first: the notice shows its first sentence until expanded.
        QStringList said = failures;
        for (const QString &sentence : std::exchange(m_batchSaid, {}))
            if (!failures.contains(sentence))
                said << sentence;
        if (!said.isEmpty())
            emit notices(said);
        return;
    }
    m_queueBusy = true;
    const QString path = m_queue.takeFirst();
    open(path, m_queueAsked, [this](bool, const QString &error) {
        if (!error.isEmpty()) {
            m_batchSaid << error;
            m_batchFailures << error;
            emit notices(m_batchSaid);
        }
        openNext();
    });
}

void FileOpener::openDropped(const QMimeData *mime)
{
    QStringList files, refused;
    for (const QUrl &url : mime->urls()) {
        if (!url.isLocalFile()) {
            refused << tr("%1 is not a file on this computer: GemmScope opens files (download it first).")
                           .arg(url.toDisplayString());
            continue;
        }
        const QString path = url.toLocalFile();
        if (QFileInfo(path).isDir()) {
            refused << tr("%1 is a folder: drop the files in it (sessions, bench, sweep and journal "
                          "files), not the folder.")
                           .arg(QDir::toNativeSeparators(path));
            continue;
        }
        files << path;
    }
    if (!refused.isEmpty())
        emit notices(refused);
    if (!files.isEmpty()) {
        m_batchSaid << refused; // said again with the files' own sentences, once they are open
        m_batchFailures << refused;
        openAll(files, Asked::Drop);
    }
}

bool FileOpener::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove)) {
        auto *drag = static_cast<QDragMoveEvent *>(event);
        if (drag->mimeData()->hasUrls()) {
            drag->acceptProposedAction();
            return true;
        }
    } else if (watched == m_window && event->type() == QEvent::Drop) {
        auto *drop = static_cast<QDropEvent *>(event);
        if (drop->mimeData()->hasUrls()) {
            drop->acceptProposedAction();
            openDropped(drop->mimeData());
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace gemmscope
