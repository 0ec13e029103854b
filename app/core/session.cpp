#include "session.h"

#include "custom_stage.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace gemmscope {

Session::Session(QObject *parent)
    : SessionStore(parent), m_autosave(new AutosaveWriter(
                                *this, [this] { return m_filePath; }, this))
{
    connect(m_autosave, &AutosaveWriter::failed, this, &Session::autosaveFailed);
    connect(m_autosave, &AutosaveWriter::restored, this, &Session::autosaveRestored);
}

void Session::edited(Edit edit)
{
    setModified(true);
    switch (edit) {
    case Edit::Measured:
        m_autosave->writeNow(); // a failure is said by the writer itself, once
        break;
    case Edit::SweepSettled:
        m_autosave->writeSettled();
        break;
    case Edit::SweepProgress:
        m_autosave->writeSoon(); // one autosave per second at most; the sweep's journal holds the rest
        break;
    case Edit::Other:
        m_autosave->retryIfFailing();
        break;
    }
}

void Session::replace(SessionData data, const QString &filePath)
{
    // The session's own kernels become catalog stages before any view reads its runs, which name
    // them by key. Registering parses; nothing is compiled or run (that waits for the user's Run).
    for (const CustomKernelSource &kernel : data.customKernels)
        if (const CustomStageParse parsed = registerCustomKernel(kernel); !parsed.problems.empty())
            data.notices << tr("The kernel %1 in this session could not be read back (%2): its runs are "
                               "shown without it.")
                                .arg(QString::fromStdString(kernel.fileName),
                                     QString::fromStdString(parsed.problems.front().message));
    SessionStore::replace(std::move(data));
    m_filePath = filePath;
    m_importedFiles.clear();
    emit filePathChanged(m_filePath);
    setModified(false);
}

void Session::clear()
{
    replace({}, {});
}

bool Session::open(const QString &path, QString *error)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    replace(std::move(*parsed.data), QFileInfo(path).absoluteFilePath());
    return true;
}

bool Session::save(QString *error, bool replaceReadOnly)
{
    if (m_filePath.isEmpty() || m_filePath.startsWith(QLatin1Char(':'))) {
        if (error)
            *error = tr("The session has no file yet; use Save As.");
        return false;
    }
    return saveAs(m_filePath, error, replaceReadOnly);
}

bool Session::saveAs(const QString &path, QString *error, bool replaceReadOnly)
{
    // A bench file this session imported is never saved over (`--import-bench X --save X`).
    if (!writeSessionFile(
            path, data(), error, {},
            {.followSymlinks = true, .inputs = m_importedFiles, .replaceReadOnly = replaceReadOnly}))
        return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != m_filePath) {
        m_filePath = absolute;
        emit filePathChanged(m_filePath);
    }
    setModified(false);
    autosave(); // the autosave now shadows the saved file and holds nothing new
    return true;
}

bool Session::importBench(const QString &path, QString *error, QStringList *notices)
{
    SessionParse parsed = importBenchFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    addImported(*parsed.data, path);
    if (notices)
        *notices = parsed.data->notices;
    return true;
}

void Session::addImported(const SessionData &bench, const QString &path)
{
    m_importedFiles << QFileInfo(path).absoluteFilePath();
    appendImported(bench, QFileInfo(path).completeBaseName());
}

bool Session::loadDefault(QString *error, const QString &path)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return false;
    }
    replace(std::move(*parsed.data), {});
    return true;
}

std::optional<QStringList> Session::addRecordedSweeps(QString *error, const QString &path)
{
    SessionParse parsed = readSessionFile(path);
    if (!parsed.data) {
        if (error)
            *error = parsed.error;
        return std::nullopt;
    }
    QStringList added;
    for (const SweepData &sweep : std::as_const(parsed.data->sweeps)) {
        const bool held = std::any_of(sweeps().cbegin(), sweeps().cend(),
                                      [&](const SweepData &s) { return s.id == sweep.id; });
        if (held)
            continue; // added before: never twice, never over one that ran on
        setSweep(sweep, true);
        added << sweep.title();
    }
    return added;
}

QString Session::autosavePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave.json");
}

void Session::adoptRecovered(const QList<SessionData> &recovered)
{
    if (recovered.isEmpty())
        return;
    replace(mergeRecovered(recovered), {});
    setModified(true);
    autosave();
}

bool Session::runsSavedNowhere() const
{
    if (!m_modified || m_autosave->keepsTheData())
        return false;
    const auto measured = [](const RunRecord &r) {
        return r.origin == QLatin1String("measured") &&
               (r.status == RunStatus::Ok || r.status == RunStatus::Failed);
    };
    if (std::any_of(runs().begin(), runs().end(), measured))
        return true;
    if (std::any_of(profiles().begin(), profiles().end(),
                    [](const StoredProfile &p) { return !p.isRecorded(); }))
        return true;
    return std::any_of(sweeps().begin(), sweeps().end(), [&](const SweepData &s) {
        return std::any_of(s.runs.begin(), s.runs.end(), measured);
    });
}

void Session::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

} // namespace gemmscope
