#include "session_render.h"

#include "bank_conflict_view.h"
#include "main_window.h"
#include "parameter_panel.h"
#include "run_choice.h"
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
    // The counters page compares a run that has counters and a model; the Kernel diagrams show
    // that run's configuration, the bank page its instruction with the largest conflict.
    const QString explained = runToExplain(*window.session());
    window.selection()->select(explained);
    if (const RunRecord *run = window.session()->find(explained))
        if (const StageInfo *stage = findStage(run->stage.key())) {
            RunConfig config = window.parameterPanel()->config();
            config.stage = stage->id;
            config.params = paramValuesOf(*run);
            config.size = {run->m, run->n, run->k};
            config.presetKey = run->presetKey;
            window.parameterPanel()->setConfig(config);
        }
    if (auto *bank = window.findChild<BankConflictView *>()) {
        int worst = -1, worstDegree = 0;
        for (int i = 0; i < bank->count(); ++i) {
            bank->setCurrentIndex(i);
            if (bank->currentAccess() && bank->currentAccess()->conflictDegree > worstDegree)
                worst = i, worstDegree = bank->currentAccess()->conflictDegree;
        }
        if (worst >= 0)
            bank->setCurrentIndex(worst);
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
