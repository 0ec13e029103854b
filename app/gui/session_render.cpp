#include "session_render.h"

#include "main_window.h"
#include "run_selection.h"
#include "session.h"

#include <QApplication>

namespace gemmscope {

QStringList renderSession(const QString &sessionFile, const QString &outDir, QString *error)
{
    MainWindow window(MainWindow::Options{
        .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
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
    // Wide enough that each of the three side-by-side views gets print-size room.
    window.resize(2700, 1400);
    window.show(); // lays the views out at a real size; never on screen
    QApplication::processEvents();
    QStringList written = window.exportViews(outDir, error, QSize(1200, 800));
    window.hide();
    return written;
}

} // namespace gemmscope
