#include "settings_file.h"

#include "file_read.h"
#include "file_write.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QRandomGenerator>
#include <QSettings>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace gemmscope {

namespace {

SettingsFile *g_installed = nullptr;

QString notUsed()
{
    return QObject::tr("this window uses default settings and does not save them.");
}

// What a refused settings file means for the user, first, and what to do about it, last: the
// notice bar shows the start of one line.
QString notReadNorSaved()
{
    return QObject::tr(
        "Settings are not read or saved in this window (changes to its layout are lost when it "
        "closes)");
}

QString toKeepSettings()
{
    return QObject::tr("Remove or rename it to keep settings again.");
}

QString notSavedFromNowOn()
{
    return QObject::tr("the settings of this window are not saved from now on.");
}

// What is at the real name, looked at without following a link.
enum class Kind { Missing, Regular, Refused };

struct Look {
    Kind kind = Kind::Missing;
    QString refusal; // with Kind::Refused: what is there, as the start of a sentence
};

Look lookAt(const QString &path)
{
    struct stat info {};
    if (::lstat(QFile::encodeName(path).constData(), &info) != 0) {
        if (errno == ENOENT)
            return {Kind::Missing, {}};
        return {Kind::Refused, QObject::tr("Could not look at %1 (%2), so GemmScope leaves it as it is")
                                   .arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    }
    if (S_ISREG(info.st_mode))
        return {Kind::Regular, {}};
    const QString what = nonRegularFileKind(info.st_mode);
    return {Kind::Refused,
            QObject::tr("%1 is %2, not a regular file, so GemmScope leaves it as it is").arg(path, what)};
}

// Points QSettings' user and system folders at these, for both formats (on Unix they are one).
void pointSettingsAt(const QString &userFolder, const QString &systemFolder)
{
    for (const QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat}) {
        QSettings::setPath(format, QSettings::UserScope, userFolder);
        QSettings::setPath(format, QSettings::SystemScope, systemFolder);
    }
}

} // namespace

QString SettingsFile::userSettingsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QLatin1Char('/') +
           QCoreApplication::organizationName() + QLatin1Char('/') + QCoreApplication::applicationName() +
           QStringLiteral(".conf");
}

SettingsFile::SettingsFile(const QString &path, QObject *parent) : QObject(parent), m_path(path)
{
    g_installed = this;
    // The system-wide files (/etc/xdg) are pointed at an empty folder too: GemmScope ships none, and
    // only the one file checked here is ever opened.
    QString folder = m_private.path();
    if (!m_private.isValid()) {
        // No private folder (the temporary folder is full or read-only): QSettings gets a fresh
        // name no one has made, so it reads nothing, and the user's file is still left alone.
        folder = QDir(QDir::tempPath())
                     .filePath(QStringLiteral("gemmscope-settings-%1")
                                   .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0')));
        refuse(tr("GemmScope could not make a private folder for its settings (%1), so %2")
                   .arg(m_private.errorString(), notUsed()));
    }
    QSettings::setDefaultFormat(QSettings::IniFormat);
    pointSettingsAt(folder + QStringLiteral("/user"), folder + QStringLiteral("/system"));
    m_privatePath = QSettings().fileName(); // the file Qt itself will use there
    if (!m_saving)
        return;

    const Look look = lookAt(m_path);
    if (look.kind == Kind::Refused) {
        refuse(notReadNorSaved() + QStringLiteral(": ") + look.refusal + QStringLiteral(". ") +
               toKeepSettings());
        return;
    }
    if (look.kind == Kind::Missing)
        return; // a first start: defaults, saved when they change
    // O_NONBLOCK and the descriptor's own fstat (readRegularFile): a pipe or a device swapped in
    // after the look above is refused without blocking, and a file over the cap is never read.
    const FileBytes read = readRegularFile(m_path, kMaxSettingsBytes);
    if (!read.bytes) {
        refuse(notReadNorSaved() + QStringLiteral(": ") + read.error + QLatin1Char(' ') +
               tr("It is left as it is. %1").arg(toKeepSettings()));
        return;
    }
    m_realBytes = *read.bytes;
    m_realExists = true;
    copyToPrivate(m_realBytes);
}

SettingsFile::~SettingsFile()
{
    if (g_installed != this)
        return;
    g_installed = nullptr;
    // QSettings as Qt made it: its default format and folders.
    QSettings::setDefaultFormat(QSettings::NativeFormat);
    pointSettingsAt(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
                    QLibraryInfo::path(QLibraryInfo::SettingsPath));
}

SettingsFile *SettingsFile::installed()
{
    return g_installed;
}

void SettingsFile::refresh()
{
    if (!m_saving)
        return;
    const Look look = lookAt(m_path);
    if (look.kind == Kind::Refused) {
        refuse(look.refusal + QStringLiteral(": ") + notSavedFromNowOn());
        return;
    }
    QByteArray bytes;
    if (look.kind == Kind::Regular) {
        const FileBytes read = readRegularFile(m_path, kMaxSettingsBytes);
        if (!read.bytes)
            return; // kept as they are here; saving says whether the name can be written
        bytes = *read.bytes;
    }
    const bool exists = look.kind == Kind::Regular;
    if (exists == m_realExists && bytes == m_realBytes)
        return;
    // Another window saved since: its settings are taken whole, the next change is made on them.
    m_realBytes = bytes;
    m_realExists = exists;
    copyToPrivate(bytes);
}

bool SettingsFile::save()
{
    if (!m_saving)
        return false;
    QSettings().sync(); // every QSettings of the process shares the copy's pending changes
    QByteArray bytes;
    if (QFileInfo::exists(m_privatePath)) {
        const FileBytes copy = readRegularFile(m_privatePath, kMaxSettingsBytes);
        if (!copy.bytes) {
            say(tr("The settings were not saved: %1").arg(copy.error));
            return false;
        }
        bytes = *copy.bytes;
    }
    if (bytes == m_realBytes && (m_realExists || bytes.isEmpty()))
        return true; // nothing new to write
    const Look look = lookAt(m_path);
    if (look.kind == Kind::Refused) {
        refuse(look.refusal + QStringLiteral(": ") + notSavedFromNowOn());
        return false;
    }
    // Written into a new file renamed over the name: a link planted there after the look above is
    // replaced at worst, its target never written.
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    const FileWrite written = writeFileAtomically(m_path, bytes, {.followSymlinks = false, .inputs = {}});
    if (!written) {
        say(tr("The settings were not saved: %1").arg(written.error));
        return false;
    }
    m_realBytes = bytes;
    m_realExists = true;
    if (!m_notice.isEmpty()) { // a failed save before: it works again
        m_notice.clear();
        m_said.clear();
        emit noticeChanged(m_notice);
    }
    return true;
}

void SettingsFile::copyToPrivate(const QByteArray &bytes)
{
    const QDateTime before = QFileInfo(m_privatePath).lastModified();
    QDir().mkpath(QFileInfo(m_privatePath).absolutePath());
    const FileWrite written =
        writeFileAtomically(m_privatePath, bytes, {.followSymlinks = false, .inputs = {}});
    if (!written) {
        refuse(
            tr("The settings could not be copied for this window (%1), so %2").arg(written.error, notUsed()));
        return;
    }
    // QSettings reads a file again only when its size or time changed, and two writes within one
    // clock tick of the file system have the same time: the copy's time moves on, for certain.
    const QDateTime after = QFileInfo(m_privatePath).lastModified();
    if (before.isValid() && after <= before) {
        QFile copy(m_privatePath);
        if (copy.open(QIODevice::ReadWrite))
            copy.setFileTime(before.addSecs(1), QFileDevice::FileModificationTime);
    }
}

void SettingsFile::refuse(const QString &sentence)
{
    m_saving = false;
    say(sentence);
}

void SettingsFile::say(const QString &sentence)
{
    if (!m_said.contains(sentence)) {
        m_said.insert(sentence);
        qWarning("gemmscope: %s", qPrintable(sentence));
    }
    if (sentence != m_notice) {
        m_notice = sentence;
        emit noticeChanged(m_notice);
    }
}

SettingsChange::SettingsChange()
{
    if (SettingsFile *file = SettingsFile::installed())
        file->refresh();
}

SettingsChange::~SettingsChange()
{
    if (SettingsFile *file = SettingsFile::installed())
        file->save();
}

} // namespace gemmscope
