#include "session_render.h"

#include "access_check_view.h"
#include "bank_conflict_view.h"
#include "export_actions.h"
#include "main_window.h"
#include "mapping_model.h"
#include "parameter_panel.h"
#include "run_choice.h"
#include "run_selection.h"
#include "session.h"

#include <QApplication>

namespace gemmscope {

namespace {

bool hasKernelModel(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    return run.isOk() && stage && !stage->isLibrary && kernelShape(stage->id, paramValuesOf(run)).shape;
}

// The run the Kernel diagrams draw: the one the counters page explains where the model draws it,
// else the session's last finished run the model draws (a session without counters picks its last
// run, often cuBLAS, which has no diagram). Null where no run has one.
const RunRecord *kernelRunOf(const Session &session, const QString &explained)
{
    if (const RunRecord *run = session.find(explained); run && hasKernelModel(*run))
        return run;
    const RunRecord *last = nullptr;
    for (const RunRecord &run : session.runs())
        if (hasKernelModel(run))
            last = &run;
    return last;
}

void configureFor(MainWindow &window, const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    RunConfig config = window.parameterPanel()->config();
    config.stage = stage->id;
    config.params = paramValuesOf(run);
    config.size = {run.m, run.n, run.k};
    config.presetKey = run.presetKey;
    window.parameterPanel()->setConfig(config);
}

// The bank page shows the kernel's instruction with the largest conflict; false where the kernel
// reads no shared memory.
bool showWorstConflict(BankConflictView *bank)
{
    int worst = -1, worstDegree = 0;
    for (int i = 0; i < bank->count(); ++i) {
        bank->setCurrentIndex(i);
        if (bank->currentAccess() && bank->currentAccess()->conflictDegree > worstDegree)
            worst = i, worstDegree = bank->currentAccess()->conflictDegree;
    }
    if (worst >= 0)
        bank->setCurrentIndex(worst);
    return bank->count() > 0;
}

} // namespace

QStringList renderSession(const QString &sessionFile, const QString &outDir, QString *error,
                          QStringList *skipped)
{
    MainWindow window(MainWindow::Options{
        .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
    if (!window.openSession(sessionFile, error))
        return {};
    const Session &session = *window.session();
    // The counters page compares a run that has counters and a model; the Kernel diagrams show
    // a run the model draws, the bank page its instruction with the largest conflict.
    const QString explained = runToExplain(session);
    const RunRecord *kernelRun = kernelRunOf(session, explained);
    const RunRecord *explainedRun = session.find(explained);
    const bool countersShown = explainedRun && explainedRun->counters && !explainedRun->counters->hasError();
    window.selection()->select(countersShown || !kernelRun ? explained : kernelRun->runId);
    QHash<QString, QString> leftOut; // page -> why
    if (kernelRun) {
        configureFor(window, *kernelRun);
        if (auto *bank = window.findChild<BankConflictView *>(); bank && !showWorstConflict(bank))
            leftOut.insert(
                QStringLiteral("bank"),
                QObject::tr("%1 reads no shared memory: there is no bank conflict to draw.")
                    .arg(QString::fromStdString(stageInfo(findStage(kernelRun->stage.key())->id).title)));
    } else {
        const QString why =
            QObject::tr("no finished run of this session is a kernel GemmScope models (a "
                        "library kernel such as cuBLAS has no tile map or accesses to draw).");
        for (const char *page : {"mapping", "coalescing", "bank"})
            leftOut.insert(QLatin1String(page), why);
    }
    window.setAttribute(Qt::WA_DontShowOnScreen);
    // Each view renders its own print layout (a fixed size), so the window's size does not matter.
    window.resize(1440, 900);
    window.show(); // lays the views out; never on screen
    QApplication::processEvents();
    if (auto *counters = window.findChild<AccessCheckView *>(); counters && counters->rows().isEmpty())
        leftOut.insert(QStringLiteral("counters"), counters->headline());
    QStringList written =
        window.exportViews(outDir, error, QStringList(leftOut.keyBegin(), leftOut.keyEnd()));
    window.hide();
    if (skipped)
        for (auto it = leftOut.cbegin(); it != leftOut.cend(); ++it)
            *skipped << QObject::tr("%1 not written: %2").arg(it.key(), it.value());
    return written;
}

} // namespace gemmscope
