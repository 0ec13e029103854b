// The Editor workspace: the user's kernels, a tab each, with the project headers they include
// opened read-only beside them; a find bar and, under them, the problems list. The Kernel menu and
// the workspace's tool bar (once a kernel is open; before, the empty pane offers the three ways to
// start) hold New from stage…, New blank kernel, Open kernel…, Export kernel…, Compile (Ctrl+B)
// and Run (Ctrl+R); Compile is off, saying why, until the current kernel has source. The source
// checks and the parameter block are checked as the user types (after a pause); nothing compiles
// or runs until the user asks, and then only through KernelActions (the window's runner). The
// buffers autosave a second after the last edit and when the window closes, and come back at the
// next start (app/core/kernel_buffers.h).
#pragma once

#include "compile_log_problems.h"
#include "custom_source_check.h"
#include "kernel_buffers.h"

#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <functional>

class QAction;
class QStackedWidget;
class QTabWidget;

namespace gemmscope {

class EmptyState;
class FindBar;
class KernelActions;
class KernelEditor;
class KernelProblemsView;
class NoticeBar;

class EditorWorkspace : public QWidget {
    Q_OBJECT
public:
    struct Options {
        QString autosavePath; // empty: the buffers are not autosaved
        SourceCheck check = customSourceCheck();
        int checkDelayMs = 400; // the pause in typing after which the source is checked
    };
    explicit EditorWorkspace(const Options &options, QWidget *parent = nullptr);
    ~EditorWorkspace() override;

    // The actions, named for the menus: actionKernelNewFromStage, actionKernelNewBlank,
    // actionKernelOpen, actionKernelExport, actionKernelCompile (Ctrl+B), actionKernelRun (Ctrl+R).
    QAction *action(const char *name) const;
    // Ctrl+B and Ctrl+R belong to one action each at a time (two with one key are ambiguous and
    // neither fires): this workspace's Compile and Run while it is shown (`shown`), the window's
    // `compile` and `run` (the configured stage's) otherwise.
    void shareKeys(bool shown, QAction *compile, QAction *run);
    void setKernelActions(KernelActions *actions) { m_kernelActions = actions; }

    KernelEditor *newBlankKernel();
    KernelEditor *newFromStage(const QString &stageKey); // nullptr (and a notice) for no source
    bool openKernelFile(const QString &path);            // false: notice() says why
    bool exportKernel(const QString &path);              // the current kernel's text, atomically
    void compileCurrent();
    void runCurrent();

    // The last compile's log (NVRTC's), as problems at their files' lines.
    void showCompileLog(const QString &log);
    // A read-only tab with the current kernel's diff from the stage it was copied from (made
    // again if there is one); nullptr, with a sentence, for a kernel copied from no stage.
    KernelEditor *showDiffFromStage();
    // An opened session's own kernels (the newest text of each file name), each in a tab unless one
    // holds that text already; said in a sentence: nothing of them is compiled or run.
    void showSessionKernels(const std::vector<CustomKernelSource> &sessionKernels);
    // A sentence over the editor (what Compile or Run did, or why not).
    void say(const QString &sentence);

    KernelEditor *currentKernel() const; // the kernel of the current tab (a header's: the last kernel shown)
    CustomKernelSource currentSource() const;
    QList<KernelEditor *> kernels() const;
    QList<KernelEditor *> headers() const;
    QString fileNameOf(const KernelEditor *editor) const;
    QTabWidget *tabs() const { return m_tabs; }
    FindBar *findBar() const { return m_findBar; }
    KernelProblemsView *problemsView() const { return m_problems; }

    QList<KernelBuffer> buffers() const;
    bool saveBuffersNow();  // the window closes
    QString notice() const; // the sentence shown over the editor now, or empty

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Tab {
        QString fileName;
        QString derivedFrom;
        bool header = false;
    };
    void createActions();
    QWidget *buildToolBar();
    KernelEditor *addKernel(const QString &text, const QString &fileName, const QString &derivedFrom);
    KernelEditor *addHeader(const QString &name);
    void openIncludedHeaders(const QString &text, int depth = 0);
    QString uniqueName(const QString &wanted) const;
    void closeTab(int index);
    void checkNow();
    void refreshProblems();
    void showTabsOrEmpty();
    void updateKernelActions();
    void restoreBuffers(); // from the autosave, when the workspace is made
    void askForStage();
    void askForFile();
    void askForExport();

    Options m_options;
    QTabWidget *m_tabs;
    class QSplitter *m_split = nullptr; // the editor over the problems list
    bool m_sized = false;               // the split's first shares given (at the first show)
    QStackedWidget *m_tabsOrEmpty;      // the tabs, or what to do while none is open
    QWidget *m_toolBar = nullptr;       // shown while a kernel is open
    EmptyState *m_empty;
    FindBar *m_findBar;
    KernelProblemsView *m_problems;
    NoticeBar *m_notice;
    QHash<KernelEditor *, Tab> m_tabInfo;
    QHash<KernelEditor *, QList<KernelProblem>> m_checked; // each kernel's problems as typed
    QList<KernelProblem> m_compiled;                       // the last compile's
    QString m_compiledFile;                                // the kernel it compiled
    bool m_compiledOnce = false;
    QPointer<KernelEditor> m_lastKernel;
    QPointer<KernelEditor> m_edited; // the kernel to check when the pause ends
    QTimer m_checkTimer;
    KernelAutosave *m_autosave = nullptr;
    KernelActions *m_kernelActions = nullptr;
    QString m_compileTip; // Compile's tooltip while there is source to compile
};

} // namespace gemmscope
