// The GemmScope main window: parameter panel on the left; on the right the runtime chart, the
// roofline and the mapping diagram (tabs: tile map, coalescing, bank conflicts, the stage's CUDA
// source) side by side above the results table, all visible at once.
// Owns the session, its table model, the shared selected run and the runner (in its thread).
#pragma once

#include "run_record.h"
#include "run_request.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>
#include <QSize>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace gemmscope {

class ModelSummaryView;
class ParameterPanel;
class ResultsModel;
class RunSelection;
class RooflineChart;
class RunController;
class RunView;
class TileMapView;
class CoalescingView;
class BankConflictView;
class AccessCheckView;
class AutosaveSlot;
struct AutosaveRecovery;
class RuntimeChart;
class Session;
class StageSourceView;

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
    QAction *action(const QString &objectName) const; // "actionRun", "actionSave", ...
    bool runnerAvailable() const { return m_runnerAvailable; }
    QString runnerStatus() const { return m_runnerReason; }
    class RunnerClient *runnerClient() const;

    // Loads the embedded published/recorded data when nothing else is open (first start, no GPU).
    void loadDefaultSession();
    // Offers the unsaved runs of every autosave whose instance has ended, and says what could not
    // be recovered (asks with a dialog); called by main(). The files are read off the UI thread.
    void offerAutosaveRecovery();
    bool openSession(const QString &path, QString *error);
    bool exportTo(const QString &path, QString *error); // results (.csv/.json) or the focused view
    QWidget *exportTarget() const;                      // the view Ctrl+E writes (the one last clicked)
    QString exportDialogTitle() const;                  // "Export the coalescing frame"
    QString viewName(QWidget *view) const;              // "the roofline", "the bank-conflict view"
    // Registers a view: from now on it gets the session's runs and the selected run, and Export
    // writes it through RunView::exportTo when it is the view last clicked. Every chart and
    // diagram of the window is registered once, in buildViews().
    void addView(RunView *view);
    const QList<RunView *> &views() const { return m_views; }
    QWidget *currentMappingView() const;       // the view on the mapping pane's current tab
    bool showMappingTab(const QString &title); // "Bank conflicts"; false when there is no such tab
    // Shows only `pane` (a chart, the mapping tabs or the results table); nullptr restores.
    void setMaximisedView(QWidget *pane);
    QWidget *maximisedView() const { return m_maximisedPane; }
    // Every chart and diagram as png+svg+pdf. A valid printSize renders each view at that size
    // (headless reports) instead of its size in the window.
    QStringList exportViews(const QString &directory, QString *error, const QSize &printSize = {});

    QString lastCompile() const { return m_lastCompile; } // the last Compile's summary or reason
    QString compileArch() const { return m_compileArch; }

public slots:
    void runCurrent();
    void compileCurrent();     // Ctrl+B: NVRTC for compileArch(), no GPU needed
    void disassembleCurrent(); // the SASS tab: PTX and SASS of the configuration, no GPU needed
    QStringList runLadder(const ProblemSize &size);
    void cancelRuns();
    // What the runner said about itself (connected to RunnerClient::runnerStatusChanged).
    void showRunnerStatus(bool available, const QString &reason);

signals:
    void ladderFinished();
    void compileFinished(const QString &summary); // or the reason it failed

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildViews();
    void buildActions();
    void updateRecentMenu();
    void updateRunActions();
    void updateTitle();
    void fitResultsColumns();
    void applyFirstStartLayout(); // no saved geometry: 90% of the screen, equal chart panes

    void onRunFinished(const RunRecord &record);
    void onProgress(const QString &id, const QString &phase, int done, int total);
    void onPreliminaryMedian(const QString &id, double medianMs, int timedSoFar);
    void selectRun(const QString &runId);
    void refreshViews();
    void applyMeasuredCeilings();
    void showConfig(const RunConfig &config);
    std::optional<QString> exportView(QWidget *view, const QString &path);
    QList<QWidget *> exportableViews() const;
    QWidget *viewOfTab(int index) const;
    RunView *runViewOf(QWidget *widget) const; // the registered view that is `widget`
    QWidget *viewContaining(QWidget *widget) const;
    QWidget *paneOf(QWidget *view) const;
    void openDialog();
    bool saveSession();
    bool saveSessionAs();
    void exportDialog();
    void importBenchDialog();
    void saveSettings() const;
    void restoreSettings();
    bool confirmDiscard();
    void offerRecovered(const QList<AutosaveRecovery> &found);
    void rescanSweepJournals(); // offer unfinished journaled sweeps (after the session was replaced)

    Options m_options;
    std::unique_ptr<AutosaveSlot> m_autosaveSlot; // this instance's own autosave, locked while it runs
    Session *m_session;
    ResultsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    RunSelection *m_selection;
    RunController *m_runs = nullptr; // run orchestration (runner, queued records, ceilings)
    bool m_runnerAvailable = false;
    QString m_runnerReason;

    ParameterPanel *m_panel = nullptr;
    RuntimeChart *m_runtimeChart = nullptr;
    RooflineChart *m_rooflineChart = nullptr;
    TileMapView *m_tileMap = nullptr;
    ModelSummaryView *m_mappingText = nullptr; // stands in where no mapping can be drawn (cuBLAS, invalid)
    QStackedWidget *m_mappingStack = nullptr;
    // "Tile map" (m_mappingStack), "Coalescing", "Bank conflicts", "Counters" (m_accessCheck),
    // "Source" (m_stageSource)
    QTabWidget *m_mappingTabs = nullptr;
    CoalescingView *m_coalescing = nullptr;
    BankConflictView *m_bankConflicts = nullptr;
    AccessCheckView *m_accessCheck = nullptr; // the selected run's access counters against the model
    StageSourceView *m_stageSource = nullptr; // the stage's CUDA file, or its diff from the previous one
    QList<RunView *> m_views;                 // every view, fed and exported through RunView
    bool m_viewsBuilt = false;                // later views get their own focus tracker
    QPointer<QWidget> m_focusedView;          // what Export writes for .png/.pdf/.svg
    QTableView *m_table = nullptr;
    QSplitter *m_mainSplitter = nullptr, *m_rightSplitter = nullptr, *m_chartSplitter = nullptr,
              *m_bottomSplitter = nullptr;
    QPointer<QWidget> m_maximisedPane;
    QLabel *m_runnerLabel = nullptr;
    QLabel *m_jobLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QMenu *m_recentMenu = nullptr;
    class CompileJob *m_compileJob = nullptr;
    class CompileJob *m_disassembleJob = nullptr;
    bool m_disassemblePending = false;              // the configuration changed while a disassembly ran
    class MachineCodeView *m_machineCode = nullptr; // the "SASS" tab
    class SweepView *m_sweepView = nullptr;         // the "Sweep" tab: parameter grid
    class SizeSweepView *m_sizeSweepView = nullptr; // the "Sweep" tab: problem sizes
    QString m_compileArch = QStringLiteral("sm_90");
    QString m_lastCompile;
    bool m_showingConfig = false;
};

} // namespace gemmscope
