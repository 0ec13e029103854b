// Compile (Ctrl+B) and the SASS tab's disassembly: the configured stage compiled by NVRTC for the
// architecture chosen in Run > Compile For, through the runner's compile-only mode — no GPU needed.
// One disassembly at a time; a configuration change meanwhile is taken up when it ends, so a
// slider drag never piles jobs up. On the Editor workspace Compile is the editor's (follow()).
#pragma once

#include "run_request.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace gemmscope {

class CompileJob;
class CompilePanel;
class MachineCodeView;

class CompileActions : public QObject {
    Q_OBJECT
public:
    // `config`: the configuration to compile (the panel's) and whether it is valid, with the
    // reason when it is not. `machineCode`: the SASS tab, filled by disassemble(); `report`: the
    // Compile tab, which shows each compile's report (the status bar only a short line).
    struct Configured {
        RunConfig config;
        bool valid = true;
        QString whyInvalid;
    };
    CompileActions(std::function<Configured()> configured, MachineCodeView *machineCode, CompilePanel *report,
                   QWidget *window);

    QString arch() const { return m_arch; }
    QString lastCompile() const { return m_lastCompile; }
    bool isCompiling() const;

    void compile();     // Ctrl+B
    void disassemble(); // the SASS tab, for the configuration now
    // Enables Compile or says why it is off (tooltip and status tip).
    void updateState();
    // While the Editor workspace is shown, Compile (the window's tool bar button and Run menu item)
    // is the editor's Compile Kernel, `editorCompile`: on, off and its tooltip as that one is, and
    // pressed, it compiles the editor's kernel. With the configured stage's Compile there, the
    // button was on over an editor with nothing open, and compiled a stage the page did not show.
    // nullptr: the configured stage's again.
    void follow(QAction *editorCompile);

signals:
    void message(const QString &text, int timeoutMs); // for the status bar
    void compileFinished(const QString &summary);     // or the reason it failed
    // The compiler's log of a compile that ended (its errors, or ptxas's report), and its stage.
    void compileLog(gemmscope::StageId stage, const QString &log);

private:
    std::function<Configured()> m_configured;
    MachineCodeView *m_machineCode;
    CompilePanel *m_report;
    QString m_compiling; // "Coalesced cooperative loads for sm_90": what the running compile builds
    CompileJob *m_compileJob;
    CompileJob *m_disassembleJob;
    bool m_disassemblePending = false;
    QAction *m_compile;
    QPointer<QAction> m_following; // the editor's Compile Kernel while the Editor is shown
    QMetaObject::Connection m_followingChanged;
    QMenu *m_archMenu;
    QString m_arch = QStringLiteral("sm_90");
    QString m_lastCompile;
};

} // namespace gemmscope
