// The main window with a started runner, for the tests that run on a GPU: waited for until the
// window itself has taken in the runner's status (the client lives in a worker thread and reports
// through a queued signal). The caller skips with runnerStatus() when it did not come up.
#pragma once

#include "main_window.h"

#include <QDir>
#include <QtTest>
#include <memory>

namespace gemmscope::test {

inline std::unique_ptr<MainWindow> startGpuWindow(const QString &autosavePath)
{
    auto window = std::make_unique<MainWindow>(
        MainWindow::Options{.startRunner = true, .restoreSettings = false, .autosavePath = autosavePath});
    window->resize(1600, 1000);
    window->show();
    const QString starting = window->runnerStatus();
    const auto settled = [&] { return window->runnerAvailable() || window->runnerStatus() != starting; };
    (void)QTest::qWaitFor(settled, 60000);
    return window;
}

// Saves the window as `name` in $GEMMSCOPE_SCREENSHOT_DIR when that is set; true otherwise too.
inline bool saveWindowShot(MainWindow &window, const QString &name)
{
    const QString shots = qEnvironmentVariable("GEMMSCOPE_SCREENSHOT_DIR");
    if (shots.isEmpty())
        return true;
    QDir().mkpath(shots);
    QTest::qWait(300);
    return window.grab().save(QDir(shots).filePath(name));
}

} // namespace gemmscope::test
