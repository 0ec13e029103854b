#include "recent_files.h"

#include "settings_file.h"

#include <QFileInfo>
#include <QSettings>

namespace gemmscope {

namespace {
const QString kKey = QStringLiteral("session/recentFiles");
}

QStringList RecentFiles::list()
{
    if (SettingsFile *settings = SettingsFile::installed())
        settings->refresh(); // the files another window opened since
    QStringList files;
    for (const QString &path : QSettings().value(kKey).toStringList())
        if (QFileInfo::exists(path))
            files << path;
    return files;
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const SettingsChange change;
    QStringList files = QSettings().value(kKey).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxEntries)
        files.removeLast();
    QSettings().setValue(kKey, files);
}

void RecentFiles::clear()
{
    const SettingsChange change;
    QSettings().remove(kKey);
}

} // namespace gemmscope
