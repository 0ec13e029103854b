// The GemmScope main window: it composes. WindowLayout (window_layout.h) builds the views and
// places them in the workspaces (Ladder, Kernel, Counters, Sweep: workspaces.h); one registry feeds
// and exports them (view_registry.h). Each job is its own unit: the File menu's session work
// (SessionActions), Run, Run Ladder, Cancel and the runner's state (RunActions), Export
// (ExportActions), Compile and the SASS tab (CompileActions), what the configured stage shows
// before anything runs (StagePresenter), the menus (window_menus.h), the views' context menu
// (view_context_menu.h), the saved arrangement (window_settings.h). The window owns the session,
// its table model, the shared selection and the run controller (the runner in its thread), and
// wires the units to them and to each other.
#pragma once

#include "run_record.h"
#include "run_request.h"
#include "window_layout.h"

#include <QMainWindow>
#include <QSize>
#include <functional>
#include <memory>

class QAction;
class QSortFilterProxyModel;

namespace gemmscope {

class AutosaveSlot;
class CompileActions;
class ExportActions;
class ResultsModel;
class RunActions;
class RunController;
class RunSelection;
class RunView;
class Session;
class SessionActions;
class StagePresenter;
class ViewRegistry;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool startRunner = true; // false: model-only (rendering, tests without a runner)
        bool restoreSettings = true;
        QString autosavePath; // empty: this instance's own locked file (AutosaveSlot)
        bool autosave = true; // false with an empty autosavePath: no autosave (headless rendering)
    };
    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    MainWindow() : MainWindow(Options{}) {}
    ~MainWindow() override;

    Session *session() const { return m_session; }
    ResultsModel *resultsModel() const { return m_model; }
    ParameterPanel *parameterPanel() const { return m_views.panel; }
    RunSelection *selection() const { return m_selection; }
    QTableView *resultsView() const { return m_views.resultsTable(); }
    ResultsTables *resultsTables() const { return m_views.tables; }
    Workspaces *workspaces() const { return m_views.workspaces; }
    QAction *action(const QString &objectName) const; // "actionRun", "actionWorkspaceKernel", ...
    bool runnerAvailable() const;
    QString runnerStatus() const; // "Runner ready on …" / "Running is off: …", as the status bar says it
    class RunnerClient *runnerClient() const;

    // Loads the embedded published/recorded data when nothing else is open (first start, no GPU).
    void loadDefaultSession();
    // The same, asked for by the user (an empty pane's button): unsaved changes are asked about first.
    void openDefaultSession();
    void addRecordedSweeps(); // the default session's sweeps, into this one (the Sweep empty state)
    // Offers the unsaved runs of every autosave whose instance has ended (read off the UI thread).
    void offerAutosaveRecovery();
    bool openSession(const QString &path, QString *error); // blocks: for scripts and tests
    // As File > Open: read in a worker thread, then shown (SessionActions::openInBackground).
    void openSessionInBackground(const QString &path,
                                 std::function<void(bool opened, const QString &error)> done = {});
    // What `gemmscope FILE...` does: any files GemmScope writes, each opened where it belongs
    // (FileOpener, open_actions.h), one after the other; why one could not be opened is said in the
    // window's notice (and through `failed`, for stderr). When none opened, the published numbers
    // are shown, the sentences still in the notice.
    void openCommandLine(const QStringList &paths,
                         std::function<void(const QStringList &failures)> failed = {});
    bool exportTo(const QString &path, QString *error); // results (.csv/.json) or the focused view
    QWidget *exportTarget() const;                      // the view Ctrl+E writes (the one last clicked)
    QString exportDialogTitle() const;                  // "Export the coalescing frame"
    QString viewName(QWidget *view) const;              // "the roofline", "the bank-conflict view"
    // Registers a view: from now on it gets the session's runs and the selected run, and Export
    // writes it through RunView::exportTo when it is the view last clicked.
    void addView(RunView *view);
    const QList<RunView *> &views() const;
    // The view on the Kernel workspace's current tab.
    QWidget *currentMappingView() const { return m_views.currentKernelView(); }
    // Shows the workspace or Kernel tab of that title ("Counters", "Bank conflicts"); false if none.
    bool showView(const QString &title) { return m_views.showView(title); }
    // Shows only `pane` (a chart, the results table, a workspace); nullptr restores.
    void setMaximisedView(QWidget *pane) { m_views.workspaces->setMaximised(pane); }
    QWidget *maximisedView() const { return m_views.workspaces->maximised(); }
    // Every chart and diagram as png+svg+pdf, from their print layouts, but the pages `leftOut`
    // names ("counters", "mapping").
    QStringList exportViews(const QString &directory, QString *error, const QStringList &leftOut = {});

    QString lastCompile() const;
    QString noticeText() const;          // the session notice shown now (its description), or empty
    QString autosaveWarningText() const; // the autosave problem shown now, or empty
    QString settingsWarningText() const; // the settings file's problem shown now, or empty

public slots:
    void runCurrent();
    void disassembleCurrent(); // the SASS tab: PTX and SASS of the configuration, no GPU needed
    QStringList runLadder(const ProblemSize &size);
    // What the runner said about itself (RunController::runnerStatusChanged).
    void showRunnerStatus(bool available, const QString &reason);
    // The autosave could not be written (empty: it works again): said where the user sees it.
    void showAutosaveProblem(const QString &sentence);

signals:
    void ladderFinished();
    // The runner's status, in the window's thread and never before the event loop runs: a
    // listener connected any time before app.exec() hears the first one.
    void runnerStatusChanged(bool available, const QString &reason);
    void compileFinished(const QString &summary); // or the reason it failed

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void connectViews();
    void buildActions();
    void connectSession();
    void followSessionSize(); // the panel's problem size to the opened session's
    void updateTitle();
    void onWorkspaceChanged(Workspace workspace);
    void selectARunIfTheWorkspaceNeedsOne();
    void onRunFinished(const RunRecord &record);
    void selectRun(const QString &runId);
    void applyMeasuredCeilings();
    void showConfig(const RunConfig &config);

    Options m_options;
    std::unique_ptr<AutosaveSlot> m_autosaveSlot; // this instance's own autosave, locked while it runs
    Session *m_session;
    ResultsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    RunSelection *m_selection;
    RunController *m_runs = nullptr; // run orchestration (runner, queued records, ceilings)
    ViewRegistry *m_registry;
    WindowLayout m_views;
    SessionActions *m_sessionActions = nullptr;
    ExportActions *m_exports = nullptr;
    RunActions *m_runActions = nullptr;
    CompileActions *m_compileActions = nullptr;
    StagePresenter *m_presenter = nullptr;
    class ProfilePresenter *m_profilePresenter = nullptr; // the profile views' data
};

} // namespace gemmscope
