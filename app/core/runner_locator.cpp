#include "runner_locator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace gemmscope {

namespace {
bool isRunnable(const QString &path)
{
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable();
}
} // namespace

RunnerLocation locateRunner()
{
    const QString fromEnv = qEnvironmentVariable("GEMMSCOPE_RUNNER");
    if (!fromEnv.isEmpty()) {
        // An explicit choice is never silently replaced by another binary.
        if (isRunnable(fromEnv))
            return {fromEnv, {}};
        return {{},
                QStringLiteral("GEMMSCOPE_RUNNER names %1, which is not an executable file").arg(fromEnv)};
    }
    if (QCoreApplication::instance()) {
        const QString besideApp = QDir(QCoreApplication::applicationDirPath()).filePath("gemmscope-runner");
        if (isRunnable(besideApp))
            return {besideApp, {}};
    }
    const QString buildPath = QStringLiteral(GEMMSCOPE_RUNNER_BUILD_PATH);
    if (!buildPath.isEmpty() && isRunnable(buildPath))
        return {buildPath, {}};
    if (!GEMMSCOPE_HAVE_CUDA)
        return {{}, QStringLiteral("runner not built (this build has no CUDA Toolkit)")};
    return {{},
            QStringLiteral("runner not built (no gemmscope-runner next to the application or at %1)")
                .arg(buildPath)};
}

} // namespace gemmscope
