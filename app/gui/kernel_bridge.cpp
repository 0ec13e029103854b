#include "kernel_bridge.h"

#include "compile_actions.h"
#include "editor_workspace.h"
#include "parameter_panel.h"
#include "run_actions.h"
#include "session.h"

#include <QAction>

namespace gemmscope {

KernelBridge::KernelBridge(ParameterPanel *panel, CompileActions *compile, RunActions *run, Session *session,
                           EditorWorkspace *editor, QObject *parent)
    : QObject(parent), m_panel(panel), m_compile(compile), m_run(run), m_session(session), m_editor(editor)
{
    editor->setKernelActions(this);
    // Run Kernel is off, with the runner's reason, exactly when the window's Run is (no GPU here).
    const auto follow = [this](bool on, const QString &why) {
        QAction *runKernel = m_editor->action("actionKernelRun");
        runKernel->setEnabled(on);
        const QString tip = on ? tr("Verify the current kernel against cuBLAS, then time it on the GPU")
                               : tr("%1 Compile (Ctrl+B) works without a GPU.").arg(why);
        runKernel->setToolTip(tip);
        runKernel->setStatusTip(tip);
    };
    follow(run->runnerAvailable(), run->runnerStatus());
    connect(run, &RunActions::stateChanged, this,
            [this, follow] { follow(m_run->runnerAvailable(), m_run->runnerStatus()); });
    // Only a user's kernel's log marks the editor: a built-in stage's compile is the Compile tab's.
    connect(compile, &CompileActions::compileLog, this, [this](StageId stage, const QString &log) {
        if (const StageInfo *info = findStage(stage.key()); info && info->isCustom)
            m_editor->showCompileLog(log);
    });
}

const StageInfo *KernelBridge::configure(const CustomKernelSource &source)
{
    const CustomStageParse parsed = registerCustomKernel(source);
    if (!parsed.stage) {
        const SourceProblem &first = parsed.problems.front();
        m_editor->say(
            first.line > 0
                ? tr("Not compiled: line %1: %2").arg(first.line).arg(QString::fromStdString(first.message))
                : tr("Not compiled: %1").arg(QString::fromStdString(first.message)));
        return nullptr;
    }
    const StageInfo &stage = *findStage(parsed.stage->key);
    RunConfig config = m_panel->config();
    // An edit keeps the user's slider values where the new block still allows them.
    ParamValues kept = defaultParams(stage.id);
    for (auto &[name, value] : kept)
        if (const auto it = config.params.find(name); it != config.params.end())
            value = it->second;
    if (!violations(stage.id, kept, config.size).empty())
        kept = defaultParams(stage.id);
    config.stage = stage.id;
    config.params = kept;
    config.presetKey.clear();
    m_panel->setConfig(config);
    return &stage;
}

void KernelBridge::compile(const CustomKernelSource &source)
{
    if (!configure(source))
        return;
    if (!m_panel->isValid())
        return m_editor->say(tr("Not compiled: %1").arg(m_panel->violationText()));
    m_editor->say(tr("Compiling for %1… the Compile tab of the Kernel workspace has the report.")
                      .arg(m_compile->arch()));
    m_compile->compile();
}

void KernelBridge::run(const CustomKernelSource &source)
{
    if (!configure(source))
        return;
    if (!m_panel->isValid())
        return m_editor->say(tr("Not run: %1").arg(m_panel->violationText()));
    if (!m_run->runnerAvailable())
        return m_editor->say(
            tr("Not run: %1 Compile (Ctrl+B) works without a GPU.").arg(m_run->runnerStatus()));
    // The text the run measures is kept with the session, as its runs are.
    m_session->setCustomKernel(source);
    m_run->runCurrent();
    m_editor->say(tr("Running: verified against cuBLAS, then timed. Its row joins the Ladder workspace's "
                     "table and charts."));
}

} // namespace gemmscope
