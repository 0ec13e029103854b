// The recent-files list, kept in QSettings so it survives restarts (saved through SettingsFile).
#pragma once

#include <QStringList>

namespace gemmscope {

class RecentFiles {
public:
    static constexpr int kMaxEntries = 8;
    static QStringList list(); // existing files only, most recent first
    static void add(const QString &path);
    static void clear();
};

} // namespace gemmscope
