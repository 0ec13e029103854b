#include "cache_dir.h"

#include <QDir>
#include <QStandardPaths>

namespace gemmscope::runner {

QString resolveCacheDir(const QString &commandLineDir)
{
    QString dir = commandLineDir;
    if (dir.isEmpty())
        dir = qEnvironmentVariable("GEMMSCOPE_CACHE_DIR");
    if (dir.isEmpty()) {
        // The runner has no QCoreApplication name when used as a library; fall back to ~/.cache.
        QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
        if (base.isEmpty())
            base = QDir::tempPath();
        dir = base + QStringLiteral("/gemmscope");
    }
    QDir().mkpath(dir);
    return QDir(dir).absolutePath();
}

} // namespace gemmscope::runner
