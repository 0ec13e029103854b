#include "main_window.h"

#include "access_check_view.h"
#include "app_resources.h"
#include "bank_conflict_view.h"
#include "chart_interaction.h"
#include "coalescing_view.h"
#include "compile_actions.h"
#include "export_actions.h"
#include "help_dialog.h"
#include "machine_code_view.h"
#include "model_summary_view.h"
#include "notice_bar.h"
#include "parameter_panel.h"
#include "plain_text.h"
#include "plot_export.h"
#include "results_model.h"
#include "results_table_proxy.h"
#include "results_tables.h"
#include "roofline_chart.h"
#include "run_choice.h"
#include "run_controller.h"
#include "run_selection.h"
#include "run_status_bar.h"
#include "runner_client.h"
#include "runtime_chart.h"
#include "session.h"
#include "session_actions.h"
#include "size_sweep_view.h"
#include "stage_presenter.h"
#include "stage_source_view.h"
#include "sweep_view.h"
#include "tile_map_view.h"
#include "view_registry.h"
#include "window_action.h"
#include "window_menus.h"
#include "workspace_views.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace gemmscope {

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent), m_options(options), m_session(new Session(this)),
      m_model(new ResultsModel(m_session, this)), m_proxy(new ResultsTableProxy(this)),
      m_selection(new RunSelection(this)), m_runs(new RunController(m_session, this)),
      m_registry(new ViewRegistry(m_session, m_selection, this))
{
    initResources();
    if (!options.autosavePath.isEmpty()) {
        m_session->setAutosavePath(options.autosavePath);
    } else if (options.autosave) {
        // Each instance its own autosave, locked: two windows never overwrite each other's runs.
        m_autosaveSlot = std::make_unique<AutosaveSlot>();
        if (m_autosaveSlot->isValid())
            m_session->setAutosavePath(m_autosaveSlot->path());
    }
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultsModel::SortRole);
    setWindowIcon(QIcon::fromTheme(QStringLiteral("utilities-system-monitor")));
    setMinimumSize(900, 600);

    buildViews();
    buildActions();
    buildWindowMenus(this);
    m_status = new RunStatusBar(m_runs, statusBar());
    connectSession();
    // The autosave's trouble is said where the user looks, and closing then asks (session_actions).
    connect(m_session, &Session::autosaveFailed, this, &MainWindow::showAutosaveProblem);
    connect(m_session, &Session::autosaveRestored, this, [this] { showAutosaveProblem(QString()); });
    if (m_autosaveSlot && !m_autosaveSlot->isValid())
        m_session->setAutosaveUnavailable(m_autosaveSlot->error()); // said through autosaveFailed
    // Off until the runner says it is ready; the one sentence is built by the status bar.
    showRunnerStatus(false, options.startRunner ? tr("the runner is starting.")
                                                : tr("this window was started without a runner."));
    if (options.startRunner)
        m_runs->startRunner();
    if (options.restoreSettings)
        restoreSettings();
    onWorkspaceChanged(m_workspaces->current());
    updateTitle();
    m_registry->refreshNow();
}

MainWindow::~MainWindow()
{
    delete m_runs; // stops the runner thread before the session it reports into goes away
    m_runs = nullptr;
}

RunnerClient *MainWindow::runnerClient() const
{
    return m_runs->client();
}

void MainWindow::buildViews()
{
    m_panel = new ParameterPanel;
    m_panel->setObjectName(QStringLiteral("parameterPanel"));
    m_runtimeChart = new RuntimeChart;
    m_runtimeChart->setObjectName(QStringLiteral("runtimeChart"));
    m_runtimeChart->setMinimumSize(280, 220);
    m_rooflineChart = new RooflineChart;
    m_rooflineChart->setObjectName(QStringLiteral("rooflineView"));
    m_rooflineChart->setMinimumSize(280, 220);
    m_tables = new ResultsTables(m_proxy, m_selection, this);
    m_table = m_tables->full();
    const CountersPane counters = CountersPane::build();
    m_accessCheck = counters.counters;
    const SweepTabs sweeps = SweepTabs::build(m_session);
    m_sweepModes = sweeps.tabs;
    m_sweepView = sweeps.grid;
    m_sizeSweepView = sweeps.sizes;
    buildKernelTabs();

    m_workspaces = new Workspaces({.panel = inVerticalScrollArea(m_panel, "parameterScroll"),
                                   .runtimeChart = m_runtimeChart,
                                   .roofline = m_rooflineChart,
                                   .resultsTable = m_table,
                                   .kernelTabs = m_kernelTabs,
                                   .runList = m_tables->runList(),
                                   .counters = counters.pane,
                                   .sweeps = m_sweepModes});
    m_workspaces->setObjectName(QStringLiteral("workspaces"));
    m_sessionNotice = new NoticeBar(NoticeBar::Kind::Information);
    m_sessionNotice->setObjectName(QStringLiteral("sessionNotice"));
    m_autosaveNotice = new NoticeBar(NoticeBar::Kind::Warning);
    m_autosaveNotice->setObjectName(QStringLiteral("autosaveNotice"));
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_autosaveNotice);
    layout->addWidget(m_sessionNotice);
    layout->addWidget(m_workspaces, 1);
    setCentralWidget(central);
    connect(m_workspaces, &Workspaces::currentChanged, this, &MainWindow::onWorkspaceChanged);
    connect(m_sweepModes, &QTabWidget::currentChanged, this, [this] {
        if (m_workspaces->current() == Workspace::Sweep) // not a tab that changed out of sight
            m_registry->setFocused(m_sweepModes->currentWidget());
    });

    for (RunView *view : QList<RunView *>{m_runtimeChart, m_rooflineChart, m_coalescing, m_bankConflicts,
                                          m_accessCheck, m_stageSource, m_machineCode})
        m_registry->add(view);
    m_registry->add(m_sweepView); // Ctrl+E on the Sweep workspace writes the heatmap's print layout
    m_registry->add(m_sizeSweepView);
    m_registry->add(m_tileMap, m_mappingStack); // the pane shows the map or, where none, its summary
    m_registry->add(m_mappingText, m_mappingStack);
    m_registry->addExportOnly(m_table, tr("the results table"));
    m_registry->setFocused(m_runtimeChart);

    m_presenter = new StagePresenter({.roofline = m_rooflineChart,
                                      .mappingStack = m_mappingStack,
                                      .tileMap = m_tileMap,
                                      .mappingText = m_mappingText,
                                      .coalescing = m_coalescing,
                                      .bankConflicts = m_bankConflicts,
                                      .source = m_stageSource,
                                      .kernelTabs = m_kernelTabs},
                                     this);
    // The Source tab follows the Coalescing view's instruction: its line is highlighted.
    connect(m_coalescing, &CoalescingView::frameChanged, this, [this] {
        if (m_presenter->presenting())
            return; // a new configuration opens the Source tab on the stage's own file
        if (const GlobalAccess *a = m_coalescing->currentAccess())
            m_stageSource->highlightAccess(a->operand, a->kind);
    });
    connect(m_runtimeChart, &RuntimeChart::runClicked, m_selection, &RunSelection::select);
    connect(m_rooflineChart, &RooflineChart::runClicked, m_selection, &RunSelection::select);
    connect(m_panel, &ParameterPanel::configurationChanged, this, &MainWindow::showConfig);
    // A sweep's fixed parameters are the panel's; a clicked cell becomes the panel's configuration.
    connect(m_panel, &ParameterPanel::configurationChanged, m_sweepView, &SweepView::setBaseConfig);
    m_sweepView->setBaseConfig(m_panel->config());
    connect(m_sweepView, &SweepView::configurationChosen, m_panel, &ParameterPanel::setConfig);
    connect(m_panel, &ParameterPanel::validityChanged, this, &MainWindow::updateRunActions);
    connect(m_panel, &ParameterPanel::runRequested, this, &MainWindow::runCurrent);
    m_presenter->present(m_panel->config()); // the panel's first configuration, before any change
}

void MainWindow::buildKernelTabs()
{
    const KernelTabs k = KernelTabs::build();
    m_kernelTabs = k.tabs;
    m_mappingStack = k.mappingStack;
    m_tileMap = k.tileMap;
    m_mappingText = k.mappingText;
    m_coalescing = k.coalescing;
    m_bankConflicts = k.bankConflicts;
    m_stageSource = k.source;
    m_machineCode = k.machineCode;
    // Choosing a tab is choosing its view (what Ctrl+E writes); the SASS tab compiles when shown.
    connect(m_kernelTabs, &QTabWidget::currentChanged, this, [this] {
        if (m_workspaces->current() != Workspace::Kernel)
            return; // a tab that changed out of sight (a stage without a model) is chosen by no one
        m_registry->setFocused(m_registry->viewContaining(currentMappingView()));
        if (m_kernelTabs->currentWidget() == m_machineCode)
            disassembleCurrent();
    });
}

void MainWindow::buildActions()
{
    const auto make = [this](const char *name, const QString &text, const QKeySequence &shortcut, auto slot) {
        QAction *action = addWindowAction(this, name, text, shortcut);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_sessionActions = new SessionActions(m_session, this);
    make("actionExport", tr("&Export…"), QKeySequence(tr("Ctrl+E")), [this] { exportDialog(); });
    make("actionQuit", tr("&Quit"), QKeySequence(tr("Ctrl+Q")), [this] { close(); });
    make("actionRun", tr("&Run"), QKeySequence(tr("Ctrl+R")), [this] { runCurrent(); });
    make("actionRunLadder", tr("Run &Ladder"), QKeySequence(tr("Ctrl+Shift+R")),
         [this] { runLadder(m_panel->config().size); });
    make("actionCancel", tr("&Cancel Runs"), QKeySequence(Qt::Key_Escape), [this] { cancelRuns(); });
    m_compileActions = new CompileActions(
        [this] {
            return CompileActions::Configured{m_panel->config(), m_panel->isValid(),
                                              m_panel->violationText()};
        },
        m_machineCode, this);
    connect(m_compileActions, &CompileActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_compileActions, &CompileActions::compileFinished, this, &MainWindow::compileFinished);
    connect(m_panel, &ParameterPanel::configurationChanged, this, [this] {
        if (m_workspaces->current() == Workspace::Kernel && m_kernelTabs->currentWidget() == m_machineCode)
            disassembleCurrent();
    });

    // Ctrl+M maximises the view clicked last; Reset Layout starts from the first-start shares.
    m_workspaces->addActionsTo(this, [this] { return exportTarget(); });
    connect(m_workspaces, &Workspaces::layoutResetRequested, this, &MainWindow::applyFirstStartLayout);
    connect(m_workspaces, &Workspaces::maximisedChanged, this, [this](QWidget *pane) {
        if (pane)
            statusBar()->showMessage(
                tr("Showing only %1; Ctrl+M brings the other views back.").arg(viewName(exportTarget())),
                6000);
    });
    addHelpActions(this);
    // Every chart's and diagram's context menu offers the same two window actions.
    // The list of menu entries is global (every chart's): a window that is gone answers nothing.
    ChartInteraction::addCommonMenuEntries(
        [window = QPointer<MainWindow>(this)](QMenu &menu, QWidget *surface) {
            if (!window)
                return;
            window->addViewMenuEntries(menu, surface);
        });
}

void MainWindow::addViewMenuEntries(QMenu &menu, QWidget *surface)
{
    QWidget *view = m_registry->viewContaining(surface);
    if (!view || !isAncestorOf(view))
        return;
    menu.addAction(tr("Export %1…").arg(viewName(view)), this, [this, view] {
        m_registry->setFocused(view);
        exportDialog();
    });
    QAction *max = menu.addAction(
        maximisedView() ? tr("Restore the arrangement") : tr("Maximise this view"), this, [this, view] {
            m_registry->setFocused(view);
            setMaximisedView(maximisedView() ? nullptr : m_workspaces->paneOf(view));
        });
    max->setShortcut(QKeySequence(tr("Ctrl+M")));
}

void MainWindow::connectSession()
{
    // A new session is shown at once, whole; each run's changes reach the views as that change
    // (the registry listens to the session itself: view_registry.h).
    connect(m_session, &Session::reset, this, [this] {
        m_registry->refreshNow();
        m_tables->fitColumns();
        m_sessionNotice->show(m_session->data().description);
    });
    // New rows and finished runs may need wider columns; a preliminary median (progress) does not.
    connect(m_session, &Session::runAdded, m_tables, &ResultsTables::scheduleFit);
    connect(m_runs, &RunController::runFinished, m_tables, &ResultsTables::scheduleFit);
    connect(m_session, &Session::ceilingsChanged, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runAdded, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runChanged, this, &MainWindow::applyMeasuredCeilings); // a run finished
    connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_selection, &RunSelection::selectionChanged, this, &MainWindow::selectRun);

    connect(m_runs, &RunController::runnerStatusChanged, this, &MainWindow::showRunnerStatus);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::ladderFinished, this, &MainWindow::ladderFinished);
}

void MainWindow::onWorkspaceChanged(Workspace workspace)
{
    // Ctrl+E writes what the workspace is about until another view is clicked.
    QWidget *main = workspace == Workspace::Ladder     ? static_cast<QWidget *>(m_runtimeChart)
                    : workspace == Workspace::Kernel   ? m_registry->viewContaining(currentMappingView())
                    : workspace == Workspace::Counters ? static_cast<QWidget *>(m_accessCheck)
                                                       : m_sweepModes->currentWidget();
    if (!exportTarget() || m_workspaces->workspaceOf(exportTarget()) != workspace)
        m_registry->setFocused(main);
    if (workspace == Workspace::Kernel && m_kernelTabs->currentWidget() == m_machineCode)
        disassembleCurrent();
    // The Counters page never opens on "select a run" when the session has one to compare.
    if (workspace == Workspace::Counters && !m_session->find(m_selection->runId()))
        m_selection->select(runToExplain(*m_session));
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

void MainWindow::addView(RunView *view)
{
    m_registry->add(view);
}

const QList<RunView *> &MainWindow::views() const
{
    return m_registry->views();
}

QWidget *MainWindow::currentMappingView() const
{
    QWidget *page = m_kernelTabs->currentWidget();
    if (auto *scroll = qobject_cast<QScrollArea *>(page))
        return scroll->widget();
    return page;
}

bool MainWindow::showView(const QString &title)
{
    for (Workspace w : kWorkspaces)
        if (Workspaces::title(w).compare(title, Qt::CaseInsensitive) == 0) {
            m_workspaces->setCurrent(w);
            return true;
        }
    for (int tab = 0; tab < m_kernelTabs->count(); ++tab)
        if (m_kernelTabs->tabText(tab).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) == 0 &&
            m_kernelTabs->isTabEnabled(tab)) {
            m_workspaces->setCurrent(Workspace::Kernel);
            m_kernelTabs->setCurrentIndex(tab);
            return true;
        }
    return false;
}

void MainWindow::setMaximisedView(QWidget *pane)
{
    m_workspaces->setMaximised(pane);
}

QWidget *MainWindow::maximisedView() const
{
    return m_workspaces->maximised();
}

QString MainWindow::lastCompile() const
{
    return m_compileActions->lastCompile();
}

QString MainWindow::compileArch() const
{
    return m_compileActions->arch();
}

QString MainWindow::noticeText() const
{
    return m_sessionNotice->text();
}

QString MainWindow::autosaveWarningText() const
{
    return m_autosaveNotice->text();
}

void MainWindow::showAutosaveProblem(const QString &sentence)
{
    m_sessionActions->setAutosaveProblem(sentence);
    if (sentence.isEmpty())
        m_autosaveNotice->clear();
    else
        m_autosaveNotice->show(
            tr("%1 Runs measured from now on are kept only in this window until the autosave "
               "works again or you save the session (File > Save As, Ctrl+Shift+S).")
                .arg(sentence));
}

void MainWindow::updateRunActions()
{
    // Every action says what it does, or why it is off: in its tooltip and in the status bar
    // (statusTip) when the pointer is on it. m_runnerReason already says "Running is off: …".
    const auto state = [](QAction *a, bool enabled, const QString &does, const QString &whyNot) {
        a->setEnabled(enabled);
        a->setStatusTip(enabled ? does : whyNot);
        a->setToolTip(plainTextAsHtml(a->statusTip())); // the runner's words, never markup
    };
    const QString invalid =
        m_panel->isValid()
            ? QString()
            : tr("Run is off: %1").arg(m_panel->violationText().replace(QLatin1Char('\n'), QLatin1Char(' ')));
    state(action(QStringLiteral("actionRun")), m_runnerAvailable && m_panel->isValid(),
          tr("Run the configured stage (Ctrl+R)"), !m_runnerAvailable ? m_runnerReason : invalid);
    state(action(QStringLiteral("actionRunLadder")), m_runnerAvailable,
          tr("Run every preset of the ladder at the configured size (Ctrl+Shift+R)"), m_runnerReason);
    state(action(QStringLiteral("actionCancel")), m_runnerAvailable,
          tr("Cancel the queued and running runs (Esc)"), m_runnerReason);
    m_compileActions->updateState();
    m_panel->setRunEnabledByRunner(m_runnerAvailable, m_runnerReason);
    // Sweeps on this machine's runner are off with the same reason (ssh/srun templates stay on).
    m_sweepView->setRunningOff(m_runnerAvailable ? QString() : m_runnerWhy);
    m_sizeSweepView->setRunningOff(m_runnerAvailable ? QString() : m_runnerWhy);
}

void MainWindow::compileCurrent()
{
    m_compileActions->compile();
}

void MainWindow::disassembleCurrent()
{
    m_compileActions->disassemble();
}

void MainWindow::updateTitle()
{
    QString name = m_session->filePath().isEmpty() ? m_session->data().title
                                                   : QFileInfo(m_session->filePath()).fileName();
    if (name.isEmpty())
        name = tr("Untitled session");
    setWindowTitle(tr("%1[*] — GemmScope").arg(name));
    setWindowModified(m_session->isModified());
}

void MainWindow::showRunnerStatus(bool available, const QString &reason)
{
    m_runnerAvailable = available;
    m_runnerWhy = reason;
    m_status->showRunner(available, reason);
    m_runnerReason = m_status->runnerText();
    updateRunActions();
}

void MainWindow::runCurrent()
{
    if (!m_runs->hasRunner() || !m_runnerAvailable || !m_panel->isValid())
        return;
    m_selection->select(m_runs->runCurrent(m_panel->config()));
}

QStringList MainWindow::runLadder(const ProblemSize &size)
{
    return m_runs->runLadder(size, m_panel->config().timing);
}

void MainWindow::cancelRuns()
{
    m_runs->cancelAll();
}

void MainWindow::onRunFinished(const RunRecord &record)
{
    if (!record.isOk())
        statusBar()->showMessage(tr("Run %1 failed: %2").arg(record.runId, record.errorMessage), 8000);
    if (m_selection->runId() == record.runId)
        selectRun(record.runId);
}

void MainWindow::selectRun(const QString &runId)
{
    m_registry->refreshSelection();
    if (const int row = m_model->rowOf(runId); row >= 0)
        m_tables->showRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
}

// The roofline's measured roof: the ceilings the runner measured (now, or recorded in the session)
// on the GPU of the most recent run that has them.
void MainWindow::applyMeasuredCeilings()
{
    const std::optional<MeasuredCeilings> c = m_runs->measuredCeilings();
    if (!c) {
        m_rooflineChart->clearMeasuredCeilings();
        return;
    }
    m_rooflineChart->setMeasuredCeilings(
        c->fmaTflops, c->dramGbs,
        tr("%1, %2%3").arg(c->gpuName, c->measuredAt.left(10), c->recorded ? tr(" (recorded)") : QString()),
        c->tf32Tflops, c->tf32Kernel);
}

void MainWindow::showConfig(const RunConfig &config)
{
    m_presenter->present(config);
    updateRunActions();
}

void MainWindow::applyFirstStartLayout()
{
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QRect available = screen->availableGeometry();
        resize((available.size() * 0.9).expandedTo(minimumSize()));
        move(available.center() - rect().center());
    } else {
        resize(1500, 900);
    }
    m_workspaces->applyFirstStartSizes(
        size()); // before the first show the workspaces have no size of their own
}

void MainWindow::loadDefaultSession()
{
    QString error;
    if (!m_session->loadDefault(&error))
        statusBar()->showMessage(tr("The embedded reference data could not be loaded: %1").arg(error));
}

void MainWindow::rescanSweepJournals()
{
    // The default session or a recovered autosave replaced the session after the Sweep views first
    // looked: offer the unfinished journaled sweeps again (the session may lack them now).
    m_sweepView->setJournalDirectory(m_sweepView->journalDirectory());
    m_sizeSweepView->setJournalDirectory(m_sizeSweepView->journalDirectory());
}

void MainWindow::offerAutosaveRecovery()
{
    m_sessionActions->offerAutosaveRecovery([this] { rescanSweepJournals(); });
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    return m_sessionActions->open(path, error);
}

QWidget *MainWindow::exportTarget() const
{
    return m_registry->focused() ? m_registry->focused() : m_runtimeChart;
}

QString MainWindow::viewName(QWidget *view) const
{
    return m_registry->viewName(view);
}

QString MainWindow::exportDialogTitle() const
{
    return tr("Export %1").arg(viewName(exportTarget()));
}

bool MainWindow::exportTo(const QString &path, QString *error)
{
    m_registry->refreshNow(); // a paced refresh or a stale view must not be what is written
    QWidget *view = exportTarget() == m_table ? m_runtimeChart : exportTarget(); // the table: CSV/JSON
    return exportResultsOrView(*m_session, *m_model, *m_registry, view, path, error);
}

QStringList MainWindow::exportViews(const QString &directory, QString *error, const QSize &)
{
    // Every view from its print layout (fixed size, full title, legend): the same pictures as
    // Ctrl+E writes, whatever the window's size.
    error->clear();
    m_registry->refreshNow();
    QStringList written = exportEach(*m_registry,
                                     {{QStringLiteral("runtime"), m_runtimeChart},
                                      {QStringLiteral("roofline"), m_rooflineChart},
                                      {QStringLiteral("mapping"), m_mappingStack},
                                      {QStringLiteral("coalescing"), m_coalescing},
                                      {QStringLiteral("bank"), m_bankConflicts},
                                      {QStringLiteral("counters"), m_accessCheck}},
                                     directory, error);
    if (!error->isEmpty())
        return written;
    // The sweeps the session holds (an empty view has nothing to print and refuses to).
    QList<QPair<QString, QWidget *>> sweeps;
    if (m_sweepView->shownSweep())
        sweeps.append({QStringLiteral("sweep"), m_sweepView});
    if (m_sizeSweepView->shownSweep())
        sweeps.append({QStringLiteral("sizes"), m_sizeSweepView});
    written += exportEach(*m_registry, sweeps, directory, error);
    if (!error->isEmpty())
        return written;
    // The runtime chart's second mode: measured speedups against the worklog's published ones.
    const RuntimeChart::Mode mode = m_runtimeChart->mode();
    m_runtimeChart->setMode(RuntimeChart::Mode::Speedup);
    exportAs(
        directory, QStringLiteral("speedup"),
        [this](const QString &path) { return m_runtimeChart->exportTo(path); }, &written, error);
    m_runtimeChart->setMode(mode);
    return written;
}

void MainWindow::exportDialog()
{
    // The dialog names what a picture would show; the results go to CSV or JSON from anywhere.
    QWidget *target = exportTarget();
    const bool table = target == m_table;
    const QString filters =
        table ? tr("Results as CSV (*.csv);;Results as JSON (*.json)")
              : exportFileFilter() + tr(";;Results as CSV (*.csv);;Results as JSON (*.json)");
    QString base = target->objectName();
    base.remove(QStringLiteral("View"));
    const QString path = QFileDialog::getSaveFileName(
        this, exportDialogTitle(), base + (table ? QStringLiteral(".csv") : QStringLiteral(".png")), filters);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        SessionActions::warn(this, tr("Export"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("workspaces/state"), m_workspaces->saveState());
    settings.setValue(QStringLiteral("workspaces/kernelTab"), m_kernelTabs->currentIndex());
    settings.setValue(QStringLiteral("workspaces/sweepTab"), m_sweepModes->currentIndex());
    settings.setValue(QStringLiteral("window/resultsHeader"), m_table->horizontalHeader()->saveState());
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        applyFirstStartLayout();
        return;
    }
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    // Arrangements saved before the workspaces (one window of splitters) do not fit them: those
    // start from the first-start layout.
    if (!m_workspaces->restoreState(settings.value(QStringLiteral("workspaces/state")).toByteArray()))
        applyFirstStartLayout();
    m_kernelTabs->setCurrentIndex(settings.value(QStringLiteral("workspaces/kernelTab"), 0).toInt());
    m_sweepModes->setCurrentIndex(settings.value(QStringLiteral("workspaces/sweepTab"), 0).toInt());
    m_table->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/resultsHeader")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_sessionActions->confirmClose()) {
        event->ignore();
        return;
    }
    if (m_options.restoreSettings)
        saveSettings();
    event->accept();
}

} // namespace gemmscope
