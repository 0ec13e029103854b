#include "compile_actions.h"

#include "compile_job.h"
#include "compile_panel.h"
#include "machine_code_view.h"
#include "stage_catalog.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QWidget>

namespace gemmscope {

namespace {

QString stageTitle(StageId stage)
{
    return QString::fromStdString(stageInfo(stage).title);
}

} // namespace

CompileActions::CompileActions(std::function<Configured()> configured, MachineCodeView *machineCode,
                               CompilePanel *report, QWidget *window)
    : QObject(window), m_configured(std::move(configured)), m_machineCode(machineCode), m_report(report),
      m_compileJob(new CompileJob(CompileJob::Kind::Compile, this)),
      m_disassembleJob(new CompileJob(CompileJob::Kind::Disassemble, this)),
      m_compile(new QAction(tr("&Compile"), window)), m_archMenu(new QMenu(tr("Compile &For"), window))
{
    m_compile->setObjectName(QStringLiteral("actionCompile"));
    m_compile->setShortcut(QKeySequence(tr("Ctrl+B")));
    m_compile->setShortcutContext(Qt::WindowShortcut);
    window->addAction(m_compile);
    connect(m_compile, &QAction::triggered, this, [this] {
        if (m_following)
            m_following->trigger(); // the editor's kernel, as the page shows it
        else
            compile();
    });

    m_archMenu->setObjectName(QStringLiteral("compileArchMenu"));
    auto *archGroup = new QActionGroup(this);
    for (const auto &[arch, label] :
         {std::pair{"sm_75", "T4 (sm_75)"}, std::pair{"sm_80", "A100 (sm_80)"},
          std::pair{"sm_90", "H100 / H200 (sm_90)"}, std::pair{"sm_100", "B200 (sm_100)"}}) {
        QAction *a = m_archMenu->addAction(QString::fromLatin1(label));
        a->setCheckable(true);
        a->setData(QString::fromLatin1(arch));
        a->setChecked(m_arch == QLatin1String(arch));
        archGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, a] {
            m_arch = a->data().toString();
            updateState();
        });
    }

    // The report stays in the Compile tab; the status bar says only that the compile ended (the
    // whole sentence was cut at the window's edge and gone after 20 s).
    connect(m_compileJob, &CompileJob::finished, this, [this](const QString &kernel, const QString &summary) {
        m_lastCompile = tr("Compiled %1 — %2").arg(kernel, summary);
        m_report->showCompiled(m_compiling, m_compileJob->compiled());
        emit message(tr("Compiled: %n register(s) per thread (the Compile tab has the report)", nullptr,
                        m_compileJob->compiled().registers),
                     10000);
        updateState();
        emit compileLog(m_compileJob->lastStage(), m_compileJob->lastLog());
        emit compileFinished(m_lastCompile);
    });
    connect(m_compileJob, &CompileJob::failed, this, [this](const QString &text) {
        m_lastCompile = text;
        // The compiler's own words under the sentence: a user's kernel is fixed from them.
        m_report->showMessage(text, m_compileJob->lastLog());
        emit message(tr("The compile failed: the Compile tab says why."), 10000);
        updateState();
        emit compileLog(m_compileJob->lastStage(), m_compileJob->lastLog());
        emit compileFinished(text);
    });
    connect(m_disassembleJob, &CompileJob::finished, this, [this](const QString &, const QString &title) {
        const protocol::DisassemblyEvent &code = m_disassembleJob->disassembly();
        m_machineCode->setMachineCode(title, code.ptx, code.sass.value_or(QString()), code.sassUnavailable);
        if (m_disassemblePending)
            disassemble();
    });
    connect(m_disassembleJob, &CompileJob::failed, this, [this](const QString &text) {
        m_machineCode->setMessage(text);
        if (m_disassemblePending)
            disassemble();
    });
    connect(m_machineCode, &MachineCodeView::refreshRequested, this, &CompileActions::disassemble);
}

bool CompileActions::isCompiling() const
{
    return m_compileJob->isRunning();
}

void CompileActions::compile()
{
    const Configured c = m_configured();
    QString whyNot;
    if (!c.valid) {
        whyNot = c.whyInvalid;
    } else if (m_compileJob->start(c.config.stage, c.config.params, c.config.size, m_arch, &whyNot)) {
        if (!m_compileJob->isRunning())
            return; // it failed while starting and said so (failed())
        m_compiling =
            tr("%1 for %2")
                .arg(stageTitle(c.config.stage), CompileJob::builtArchitecture(c.config.stage, m_arch));
        m_report->showCompiling(m_compiling);
        emit message(tr("Compiling %1…").arg(m_compiling), 0);
        updateState();
        return;
    }
    m_report->showMessage(tr("Cannot compile: %1").arg(whyNot));
    emit message(tr("Cannot compile: %1").arg(whyNot), 10000);
    emit compileFinished(tr("Cannot compile: %1").arg(whyNot));
}

void CompileActions::disassemble()
{
    if (m_disassembleJob->isRunning()) {
        m_disassemblePending = true;
        return;
    }
    m_disassemblePending = false;
    const Configured c = m_configured();
    if (!c.valid) {
        m_machineCode->setMessage(tr("Nothing to disassemble: %1").arg(c.whyInvalid));
        return;
    }
    QString whyNot;
    if (m_disassembleJob->start(c.config.stage, c.config.params, c.config.size, m_arch, &whyNot)) {
        if (m_disassembleJob->isRunning()) // else it failed while starting and said so (failed())
            m_machineCode->setLoading(
                tr("%1 for %2")
                    .arg(stageTitle(c.config.stage), CompileJob::builtArchitecture(c.config.stage, m_arch)));
    } else {
        m_machineCode->setMessage(whyNot);
    }
}

void CompileActions::follow(QAction *editorCompile)
{
    if (editorCompile == m_following)
        return;
    disconnect(m_followingChanged);
    m_following = editorCompile;
    if (editorCompile)
        m_followingChanged = connect(editorCompile, &QAction::changed, this, &CompileActions::updateState);
    updateState();
}

void CompileActions::updateState()
{
    if (m_following) {
        m_compile->setEnabled(m_following->isEnabled());
        m_compile->setToolTip(m_following->toolTip());
        m_compile->setStatusTip(m_following->statusTip());
        return;
    }
    const Configured c = m_configured();
    const bool library = stageInfo(c.config.stage).isLibrary;
    const bool compiling = isCompiling();
    const bool enabled = !library && c.valid && !compiling;
    const QString text =
        enabled
            ? tr("Compile the configured stage for %1 with NVRTC, no GPU needed: registers, spills, shared "
                 "memory, occupancy (Ctrl+B)")
                  .arg(m_arch)
            : tr("Compile is off: %1")
                  .arg(library ? tr("%1 is a library call, there is no kernel of GemmScope's to compile.")
                                     .arg(stageTitle(c.config.stage))
                       : compiling ? tr("a compile is running.")
                                   : c.whyInvalid);
    m_compile->setEnabled(enabled);
    m_compile->setToolTip(text);
    m_compile->setStatusTip(text);
}

} // namespace gemmscope
