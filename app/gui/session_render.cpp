#include "session_render.h"

#include "main_window.h"
#include "run_selection.h"
#include "session.h"

#include <QApplication>

namespace gemmscope {

QStringList renderSession(const QString &sessionFile, const QString &outDir, QString *error)
{
    MainWindow window(
        MainWindow::Options{.startRunner = false, .restoreSettings = false, .autosavePath = {}});
    if (!window.openSession(sessionFile, error))
        return {};
    // Diagrams follow the selected run: pick the last finished one so they show real data.
    const auto &runs = window.session()->runs();
    for (auto it = runs.crbegin(); it != runs.crend(); ++it)
        if (it->isOk()) {
            window.selection()->select(it->runId);
            break;
        }
    window.setAttribute(Qt::WA_DontShowOnScreen);
    // Each view renders its own print layout (a fixed size), so the window's size does not matter.
    window.resize(1440, 900);
    window.show(); // lays the views out; never on screen
    QApplication::processEvents();
    QStringList written = window.exportViews(outDir, error);
    window.hide();
    return written;
}

} // namespace gemmscope
