// The Editor's Compile (Ctrl+B) and Run (Ctrl+R), done as a built-in stage's are: the kernel is
// parsed and registered as a catalog stage (custom_stage.h), the parameter panel is set to it
// (keeping the values of the parameters it shares with the panel's stage where they are legal, the
// block's defaults otherwise), and the window's own Compile or Run takes it from there, so that the
// runner, the verification against cuBLAS, the charts and the session treat it as any stage. The
// compiler's log comes back to the editor as marks at its lines.
#pragma once

#include "kernel_actions.h"

#include <QObject>

namespace gemmscope {

class CompileActions;
class EditorWorkspace;
class ParameterPanel;
class RunActions;
class Session;

class KernelBridge : public QObject, public KernelActions {
    Q_OBJECT
public:
    KernelBridge(ParameterPanel *panel, CompileActions *compile, RunActions *run, Session *session,
                 EditorWorkspace *editor, QObject *parent = nullptr);

    void compile(const CustomKernelSource &source) override;
    void run(const CustomKernelSource &source) override;

    // Registers the kernel and configures the panel with it; nullptr (and the editor says why) when
    // its text is refused.
    const StageInfo *configure(const CustomKernelSource &source);

private:
    ParameterPanel *m_panel;
    CompileActions *m_compile;
    RunActions *m_run;
    Session *m_session;
    EditorWorkspace *m_editor;
};

} // namespace gemmscope
