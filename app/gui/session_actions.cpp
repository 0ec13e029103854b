#include "session_actions.h"

#include "file_write.h"
#include "notice_bar.h"
#include "open_actions.h"
#include "plain_text.h"
#include "recent_files.h"
#include "session.h"
#include "window_action.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace gemmscope {

SessionActions::SessionActions(Session *session, QWidget *window, NoticeBar *autosaveNotice)
    : QObject(window), m_session(session), m_window(window), m_autosaveNotice(autosaveNotice),
      m_opener(new FileOpener(session, this, window))
{
    connect(m_opener, &FileOpener::readingStarted, this, &SessionActions::readingStarted);
    connect(m_opener, &FileOpener::readingFinished, this, &SessionActions::readingFinished);
    connect(m_opener, &FileOpener::notices, this, &SessionActions::notices);
    // A save of a recent session that was killed mid-write left its temporary beside it.
    for (const QString &path : RecentFiles::list())
        removeInterruptedWrites(path);
    m_open = addWindowAction(window, "actionOpen", tr("&Open…"), QKeySequence::Open);
    m_save = addWindowAction(window, "actionSave", tr("&Save"), QKeySequence::Save);
    m_saveAs = addWindowAction(window, "actionSaveAs", tr("Save &As…"), QKeySequence(tr("Ctrl+Shift+S")));
    m_importBench = addWindowAction(window, "actionImportBench", tr("&Import Bench JSON…"), {});
    m_open->setToolTip(tr("Open a session, a bench, sweep or size-sweep file, a sweep journal or "
                          "exported results (Ctrl+O); files can be dropped on the window too"));
    m_importBench->setToolTip(
        tr("Add the runs (and profiles) of a gemmscope-bench --json file to this session"));
    connect(m_open, &QAction::triggered, this, [this] {
        if (!confirmDiscard())
            return;
        // Every file GemmScope writes; told apart by its content, not by this filter.
        const QString path = QFileDialog::getOpenFileName(
            m_window, tr("Open"), QString(),
            tr("GemmScope files (*.json *.gsweep);;Sweep journals (*.gsweep);;All files (*)"));
        if (!path.isEmpty())
            openInBackground(path, [this](bool, const QString &error) {
                if (!error.isEmpty())
                    warn(m_window, tr("Open session"), error);
            });
    });
    connect(m_save, &QAction::triggered, this, &SessionActions::save);
    connect(m_saveAs, &QAction::triggered, this, &SessionActions::saveAs);
    connect(m_importBench, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(m_window, tr("Import bench JSON"), QString(),
                                         tr("gemmscope-bench output (*.json);;All files (*)"));
        if (!path.isEmpty())
            importInBackground(path);
    });
    m_recentMenu = new QMenu(tr("Open &Recent"), window);
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    updateRecentMenu();
}

void SessionActions::setAutosaveProblem(const QString &sentence)
{
    m_autosaveProblem = sentence;
    if (sentence.isEmpty())
        m_autosaveNotice->clear();
    else
        m_autosaveNotice->show(
            tr("%1 Runs measured from now on are kept only in this window until the autosave "
               "works again or you save the session (File > Save As, Ctrl+Shift+S).")
                .arg(sentence));
}

void SessionActions::warn(QWidget *parent, const QString &title, const QString &text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText); // file names and file contents are shown as written
    box.exec();
}

void SessionActions::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = RecentFiles::list();
    for (const QString &path : files) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(plainTextAsHtml(path)); // a file name is never markup
        connect(a, &QAction::triggered, this, [this, path] {
            if (!confirmDiscard())
                return;
            openInBackground(path, [this](bool, const QString &error) {
                if (!error.isEmpty())
                    warn(m_window, tr("Open session"), error);
            });
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

bool SessionActions::open(const QString &path, QString *error)
{
    if (!m_session->open(path, error))
        return false;
    RecentFiles::add(path);
    updateRecentMenu();
    return true;
}

void SessionActions::openInBackground(const QString &path,
                                      std::function<void(bool opened, const QString &error)> done)
{
    m_opener->open(path, FileOpener::Asked::Open, std::move(done));
}

bool SessionActions::adoptSession(SessionData &&data, const QString &path, quint64 revision, bool askedBefore)
{
    // Unsaved runs are asked about: before the read where the menu asked (then only the runs that
    // finished while the file was read), else now (a drop, the command line, Import Bench JSON).
    const bool askedAboutAll = askedBefore && m_session->revision() == revision;
    if (!askedAboutAll && m_session->isModified() && !confirmDiscard())
        return false;
    m_session->replace(std::move(data), QFileInfo(path).absoluteFilePath());
    RecentFiles::add(path);
    updateRecentMenu();
    return true;
}

void SessionActions::importInBackground(const QString &path)
{
    m_opener->open(path, FileOpener::Asked::ImportBench, [this](bool, const QString &error) {
        if (!error.isEmpty())
            warn(m_window, tr("Import bench JSON"), error);
    });
}

bool SessionActions::save()
{
    if (m_session->filePath().isEmpty())
        return saveAs();
    bool replaceReadOnly = false;
    if (!confirmReplacingReadOnly(m_session->filePath(), &replaceReadOnly))
        return false;
    QString error;
    if (!m_session->save(&error, replaceReadOnly)) {
        warn(m_window, tr("Save session"), error);
        return false;
    }
    return true;
}

bool SessionActions::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save session as"), QString(),
                                                      tr("GemmScope sessions (*.json)"));
    if (path.isEmpty())
        return false;
    bool replaceReadOnly = false;
    if (!confirmReplacingReadOnly(path, &replaceReadOnly))
        return false;
    QString error;
    if (!m_session->saveAs(path, &error, replaceReadOnly)) {
        warn(m_window, tr("Save session"), error);
        return false;
    }
    RecentFiles::add(path);
    updateRecentMenu();
    return true;
}

bool SessionActions::confirmReplacingReadOnly(const QString &path, bool *replace)
{
    *replace = false;
    if (!isReadOnlyFile(path))
        return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Replace a read-only file?"),
        tr("%1 is read-only: someone marked it not to be changed. Replace it with this session anyway?")
            .arg(QDir::toNativeSeparators(path)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    *replace = answer == QMessageBox::Yes;
    return *replace;
}

bool SessionActions::confirmDiscard()
{
    if (!m_session->isModified())
        return true;
    const QString text =
        m_session->runsSavedNowhere()
            ? tr("The measured runs of this session exist only in this window: they are in no "
                 "saved file and the autosave could not be written. Save them first?")
            : tr("The session has unsaved changes. Save them first?");
    const auto answer = QMessageBox::question(m_window, tr("Unsaved runs"), text,
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool SessionActions::confirmClose()
{
    // Measured runs are in the autosave already; ask only when a named file would lose them, or
    // when the autosave cannot be written and the runs are kept nowhere else.
    if (!m_session->isModified())
        return true;
    m_session->autosave(); // a sweep's pending autosave first: it may be all that keeps its runs
    const bool keptNowhere = m_session->runsSavedNowhere() || !m_autosaveProblem.isEmpty();
    if (!m_session->filePath().isEmpty() || keptNowhere)
        return confirmDiscard();
    return true;
}

void SessionActions::offerAutosaveRecovery(std::function<void()> afterwards)
{
    const QString own = m_session->autosaveFile();
    if (own.isEmpty()) {
        afterwards();
        return;
    }
    const QString directory = QFileInfo(own).absolutePath();
    // Autosaves, and the files they name, are read in a worker thread: a damaged or hostile one
    // (a FIFO, /dev/zero) must never hold up the window.
    auto *watcher = new QFutureWatcher<QList<AutosaveRecovery>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, afterwards] {
        watcher->deleteLater();
        const auto done = qScopeGuard(afterwards); // whatever the user chose
        offerRecovered(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([directory, own] { return AutosaveSlot::orphans(directory, own); }));
}

void SessionActions::offerRecovered(const QList<AutosaveRecovery> &found)
{
    QList<SessionData> recovered;
    QStringList problems;
    int unsaved = 0, unsavedProfiles = 0;
    for (const AutosaveRecovery &r : found) {
        if (r.data && (r.unsavedRuns > 0 || r.unsavedProfiles > 0)) {
            recovered << *r.data;
            unsaved += r.unsavedRuns;
            unsavedProfiles += r.unsavedProfiles;
        }
        problems << r.problems;
    }
    // A measured profile is worth recovering as a run is; the question names both.
    const QString profilesToo =
        unsavedProfiles > 0 ? tr(" (and %n profile(s))", nullptr, unsavedProfiles) : QString();
    const bool worthIt = unsaved > 0 || unsavedProfiles > 0;
    if (!worthIt && problems.isEmpty())
        return;
    QMessageBox box(m_window);
    box.setWindowTitle(tr("Recover runs"));
    box.setIcon(worthIt ? QMessageBox::Question : QMessageBox::Warning);
    box.setTextFormat(Qt::PlainText); // autosaves are files: their text is never markup
    box.setText(
        unsaved > 0 ? tr("%n run(s)%1 measured in an earlier GemmScope session were not saved to a file. "
                         "Recover them?",
                         nullptr, unsaved)
                          .arg(profilesToo)
        : worthIt ? tr("%n profile(s) measured in an earlier GemmScope session were not saved to a file. "
                       "Recover them?",
                       nullptr, unsavedProfiles)
                  : tr("An earlier GemmScope session left an autosave that could not be recovered."));
    if (!problems.isEmpty()) {
        box.setInformativeText(tr("Not everything could be recovered; see the details. Damaged autosaves are "
                                  "kept beside the others with the suffix .damaged."));
        box.setDetailedText(problems.join(QLatin1Char('\n')));
    }
    QPushButton *recover = worthIt ? box.addButton(tr("Recover"), QMessageBox::AcceptRole) : nullptr;
    QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    QPushButton *later = box.addButton(tr("Ask again next time"), QMessageBox::RejectRole);
    box.setDefaultButton(recover ? recover : later);
    box.setEscapeButton(later);
    box.exec();
    if (box.clickedButton() != recover && box.clickedButton() != discard)
        return; // kept for the next start
    if (box.clickedButton() == recover)
        m_session->adoptRecovered(recovered); // in this instance's autosave before the old ones go
    for (const AutosaveRecovery &r : found) {
        if (!r.damaged)
            Session::discardAutosave(r.path);
        else
            QFile::rename(r.path, r.path + QStringLiteral(".damaged"));
    }
}

} // namespace gemmscope
