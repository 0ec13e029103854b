// The GemmScope main window: it composes. The views are arranged in workspaces (Ladder, Kernel,
// Counters, Sweep: workspaces.h), fed and exported through one registry (view_registry.h); the
// File menu's session work is SessionActions, Compile and the SASS tab are CompileActions, and
// what the configured stage shows before anything runs is StagePresenter. The window owns the
// session, its table model, the shared selection and the run controller (the runner in its thread).
#pragma once

#include "run_record.h"
#include "run_request.h"
#include "workspaces.h"

#include <QMainWindow>
#include <QSize>
#include <memory>

class QAction;
class QMenu;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace gemmscope {

class AccessCheckView;
class AutosaveSlot;
class BankConflictView;
class CoalescingView;
class CompileActions;
class MachineCodeView;
class ModelSummaryView;
class NoticeBar;
class ParameterPanel;
class ResultsModel;
class RooflineChart;
class RunController;
class RunSelection;
class RunView;
class RuntimeChart;
class Session;
class SessionActions;
class SizeSweepView;
class StagePresenter;
class StageSourceView;
class SweepView;
class TileMapView;
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
    ParameterPanel *parameterPanel() const { return m_panel; }
    RunSelection *selection() const { return m_selection; }
    QTableView *resultsView() const { return m_table; }
    Workspaces *workspaces() const { return m_workspaces; }
    QAction *action(const QString &objectName) const; // "actionRun", "actionWorkspaceKernel", ...
    bool runnerAvailable() const { return m_runnerAvailable; }
    QString runnerStatus() const { return m_runnerReason; }
    class RunnerClient *runnerClient() const;

    // Loads the embedded published/recorded data when nothing else is open (first start, no GPU).
    void loadDefaultSession();
    // Offers the unsaved runs of every autosave whose instance has ended (read off the UI thread).
    void offerAutosaveRecovery();
    bool openSession(const QString &path, QString *error);
    bool exportTo(const QString &path, QString *error); // results (.csv/.json) or the focused view
    QWidget *exportTarget() const;                      // the view Ctrl+E writes (the one last clicked)
    QString exportDialogTitle() const;                  // "Export the coalescing frame"
    QString viewName(QWidget *view) const;              // "the roofline", "the bank-conflict view"
    // Registers a view: from now on it gets the session's runs and the selected run, and Export
    // writes it through RunView::exportTo when it is the view last clicked.
    void addView(RunView *view);
    const QList<RunView *> &views() const;
    QWidget *currentMappingView() const; // the view on the Kernel workspace's current tab
    // Shows the workspace or Kernel tab of that title ("Counters", "Bank conflicts"); false if none.
    bool showView(const QString &title);
    // Shows only `pane` (a chart, the results table, a workspace); nullptr restores.
    void setMaximisedView(QWidget *pane);
    QWidget *maximisedView() const;
    // Every chart and diagram as png+svg+pdf, from their print layouts.
    QStringList exportViews(const QString &directory, QString *error, const QSize &printSize = {});

    QString lastCompile() const;
    QString compileArch() const;
    QString noticeText() const;          // the session notice shown now (its description), or empty
    QString autosaveWarningText() const; // the autosave problem shown now, or empty

public slots:
    void runCurrent();
    void compileCurrent();     // Ctrl+B: NVRTC for compileArch(), no GPU needed
    void disassembleCurrent(); // the SASS tab: PTX and SASS of the configuration, no GPU needed
    QStringList runLadder(const ProblemSize &size);
    void cancelRuns();
    // What the runner said about itself (RunController::runnerStatusChanged).
    void showRunnerStatus(bool available, const QString &reason);
    // The autosave could not be written (empty: it works again): said where the user sees it.
    void showAutosaveProblem(const QString &sentence);

signals:
    void ladderFinished();
    void compileFinished(const QString &summary); // or the reason it failed

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildViews();
    void buildKernelTabs();
    void buildActions();
    void addViewMenuEntries(QMenu &menu, QWidget *surface); // a chart's context menu: export, maximise
    void connectSession();
    void updateRunActions();
    void updateTitle();
    void applyFirstStartLayout();
    void onWorkspaceChanged(Workspace workspace);
    void onRunFinished(const RunRecord &record);
    void selectRun(const QString &runId);
    void applyMeasuredCeilings();
    void showConfig(const RunConfig &config);
    void exportDialog();
    void saveSettings() const;
    void restoreSettings();
    void rescanSweepJournals();

    Options m_options;
    std::unique_ptr<AutosaveSlot> m_autosaveSlot; // this instance's own autosave, locked while it runs
    Session *m_session;
    ResultsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    RunSelection *m_selection;
    RunController *m_runs = nullptr; // run orchestration (runner, queued records, ceilings)
    ViewRegistry *m_registry;
    bool m_runnerAvailable = false;
    QString m_runnerReason; // "Runner ready on …" / "Running is off: …", as the status bar says it
    QString m_runnerWhy;    // the runner's own sentence, without that prefix

    ParameterPanel *m_panel = nullptr;
    RuntimeChart *m_runtimeChart = nullptr;
    RooflineChart *m_rooflineChart = nullptr;
    TileMapView *m_tileMap = nullptr;
    ModelSummaryView *m_mappingText = nullptr; // stands in where no mapping can be drawn (cuBLAS, invalid)
    QStackedWidget *m_mappingStack = nullptr;
    QTabWidget *m_kernelTabs = nullptr; // Tile map, Coalescing, Bank conflicts, Source, SASS
    CoalescingView *m_coalescing = nullptr;
    BankConflictView *m_bankConflicts = nullptr;
    AccessCheckView *m_accessCheck = nullptr;
    StageSourceView *m_stageSource = nullptr;
    MachineCodeView *m_machineCode = nullptr;
    QTabWidget *m_sweepModes = nullptr;
    SweepView *m_sweepView = nullptr;
    SizeSweepView *m_sizeSweepView = nullptr;
    class ResultsTables *m_tables = nullptr;
    QTableView *m_table = nullptr; // the Ladder's, every column
    Workspaces *m_workspaces = nullptr;
    NoticeBar *m_sessionNotice = nullptr;
    NoticeBar *m_autosaveNotice = nullptr;
    SessionActions *m_sessionActions = nullptr;
    CompileActions *m_compileActions = nullptr;
    StagePresenter *m_presenter = nullptr;
    class RunStatusBar *m_status = nullptr;
};

} // namespace gemmscope
