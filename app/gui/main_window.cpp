#include "main_window.h"

#include "app_resources.h"
#include "compile_actions.h"
#include "editor_workspace.h"
#include "export_actions.h"
#include "help_dialog.h"
#include "kernel_bridge.h"
#include "kernel_buffers.h"
#include "notice_bar.h"
#include "open_actions.h"
#include "open_progress.h"
#include "parameter_panel.h"
#include "profile_presenter.h"
#include "results_model.h"
#include "results_table_proxy.h"
#include "results_tables.h"
#include "roofline_chart.h"
#include "run_actions.h"
#include "run_choice.h"
#include "run_controller.h"
#include "run_selection.h"
#include "runtime_chart.h"
#include "session.h"
#include "session_actions.h"
#include "settings_file.h"
#include "size_sweep_view.h"
#include "stage_presenter.h"
#include "sweep_view.h"
#include "view_context_menu.h"
#include "view_registry.h"
#include "window_action.h"
#include "window_menus.h"
#include "window_settings.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

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

    // The editor's kernels autosave beside the session's autosave (a test's folder), else in the
    // application's data folder; a window without an autosave keeps them nowhere.
    const QString kernelAutosave =
        !options.autosavePath.isEmpty()
            ? QFileInfo(options.autosavePath).dir().filePath(QStringLiteral("kernel-buffers.json"))
        : options.autosave ? KernelBufferFile::defaultPath()
                           : QString();
    m_views = WindowLayout::build(this, m_session, m_proxy, m_selection, kernelAutosave);
    m_views.registerViews(m_registry);
    m_presenter = new StagePresenter(m_views.roofline, m_views.kernel, this);
    m_profilePresenter =
        new ProfilePresenter(m_session, m_selection, m_views.panel, m_runs->profiles(), m_views, this);
    connectViews();
    buildActions();
    buildWindowMenus(this);
    connectSession();
    // The autosave's trouble is said where the user looks, and closing then asks (session_actions).
    connect(m_session, &Session::autosaveFailed, this, &MainWindow::showAutosaveProblem);
    connect(m_session, &Session::autosaveRestored, this, [this] { showAutosaveProblem(QString()); });
    if (m_autosaveSlot && !m_autosaveSlot->isValid())
        m_session->setAutosaveUnavailable(m_autosaveSlot->error()); // said through autosaveFailed
    // A settings file GemmScope leaves alone (a link, a pipe, too large) or cannot save: said once.
    if (const SettingsFile *settings = SettingsFile::installed()) {
        m_views.settingsNotice->show(settings->notice());
        connect(settings, &SettingsFile::noticeChanged, m_views.settingsNotice, &NoticeBar::show);
    }
    // Off until the runner says it is ready; the one sentence is built by the status bar.
    showRunnerStatus(false, options.startRunner ? tr("the runner is starting.")
                                                : tr("this window was started without a runner."));
    if (options.startRunner)
        m_runs->startRunner();
    if (options.restoreSettings)
        restoreWindowSettings(this, m_views);
    onWorkspaceChanged(m_views.workspaces->current());
    updateTitle();
    m_registry->refreshNow();
}

MainWindow::~MainWindow()
{
    delete m_profilePresenter; // it reads m_runs' profile controller
    m_profilePresenter = nullptr;
    delete m_runs; // stops the runner thread before the session it reports into goes away
    m_runs = nullptr;
}

// The views among themselves and with the panel, the selection and the focus (what Ctrl+E writes).
void MainWindow::connectViews()
{
    // The Counters page's run is chosen before the page shows: chosen after, each of its views'
    // new texts laid the shown page out again (a 10,000-run session's first switch took 200 ms).
    connect(m_views.workspaces, &Workspaces::aboutToShow, this,
            &MainWindow::selectARunIfTheWorkspaceNeedsOne);
    connect(m_views.workspaces, &Workspaces::currentChanged, this, &MainWindow::onWorkspaceChanged);
    connect(m_views.sweeps.tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_views.workspaces->current() == Workspace::Sweep) // not a tab that changed out of sight
            m_registry->setFocused(m_views.sweeps.tabs->currentWidget());
    });
    // Choosing a tab is choosing its view (what Ctrl+E writes); the SASS tab compiles when shown.
    connect(m_views.kernel.tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_views.workspaces->current() != Workspace::Kernel)
            return; // a tab that changed out of sight (a stage without a model) is chosen by no one
        m_registry->setFocused(m_registry->viewContaining(currentMappingView()));
        if (m_views.sassShown())
            disassembleCurrent();
    });
    connect(m_views.runtimeChart, &RuntimeChart::runClicked, m_selection, &RunSelection::select);
    connect(m_views.roofline, &RooflineChart::runClicked, m_selection, &RunSelection::select);
    ParameterPanel *panel = m_views.panel;
    connect(panel, &ParameterPanel::configurationChanged, this, &MainWindow::showConfig);
    // A sweep's fixed parameters are the panel's; a clicked cell becomes the panel's configuration.
    SweepView *sweep = m_views.sweeps.grid;
    connect(panel, &ParameterPanel::configurationChanged, sweep, &SweepView::setBaseConfig);
    sweep->setBaseConfig(panel->config());
    connect(sweep, &SweepView::configurationChosen, panel, &ParameterPanel::setConfig);
    m_presenter->present(panel->config()); // the panel's first configuration, before any change
    m_profilePresenter->show();
}

// The actions are made in the order the Help page's shortcut table lists them.
void MainWindow::buildActions()
{
    m_sessionActions = new SessionActions(m_session, this, m_views.autosaveNotice);
    // While a file is read (a worker thread does it), the status bar says how far, with a Stop.
    new OpenProgress(m_sessionActions->opener(), statusBar());
    // What an imported bench left out is said where an opened session's is.
    connect(m_sessionActions, &SessionActions::notices, this, [this](const QStringList &sentences) {
        m_views.sessionNotice->show(sentences.join(QLatin1Char(' ')));
    });
    // A sweep opened from a file is shown where it belongs (the grid's or the size curves' tab).
    connect(m_sessionActions->opener(), &FileOpener::sweepOpened, this, [this](const SweepData &sweep) {
        SweepViewBase *view = sweep.spec.kind == SweepKind::Sizes
                                  ? static_cast<SweepViewBase *>(m_views.sweeps.sizes)
                                  : static_cast<SweepViewBase *>(m_views.sweeps.grid);
        m_views.workspaces->setCurrent(Workspace::Sweep);
        m_views.sweeps.tabs->setCurrentWidget(view);
        view->showSweep(sweep);
    });
    // What the empty panes' buttons open, in the File menu too.
    QAction *openDefault = addWindowAction(this, "actionOpenDefaultSession", tr("Open &Default Session"));
    openDefault->setToolTip(tr("The session GemmScope ships: the worklog's published T4 runtimes and the "
                               "embedded H200 example, the ladder timed on an H200 with its sweeps and "
                               "profiles"));
    connect(openDefault, &QAction::triggered, this, &MainWindow::openDefaultSession);
    m_exports = new ExportActions(m_views, m_session, m_model, m_registry, this);
    connect(addWindowAction(this, "actionQuit", tr("&Quit"), QKeySequence(tr("Ctrl+Q"))), &QAction::triggered,
            this, &QWidget::close);
    m_runActions = new RunActions(m_runs, m_views.panel, m_selection, this);
    m_compileActions = new CompileActions(
        [panel = m_views.panel] {
            return CompileActions::Configured{panel->config(), panel->isValid(), panel->violationText()};
        },
        m_views.kernel.machineCode, m_views.kernel.compile, this);
    connect(m_compileActions, &CompileActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_compileActions, &CompileActions::compileFinished, this, &MainWindow::compileFinished);
    new KernelBridge(m_views.panel, m_compileActions, m_runActions, m_session, m_views.editor, this);
    connect(m_views.panel, &ParameterPanel::configurationChanged, this, [this] {
        if (m_views.sassShown())
            disassembleCurrent();
    });
    // Compile and this machine's sweeps follow the runner (ssh/srun sweep templates stay on).
    connect(m_runActions, &RunActions::stateChanged, this, [this](const QString &whyOff) {
        m_compileActions->updateState();
        m_views.sweeps.grid->setRunningOff(whyOff);
        m_views.sweeps.sizes->setRunningOff(whyOff);
        m_profilePresenter->setProfilingOff(whyOff);
    });
    // The empty profile panes' Profile button is Run > Profile.
    connect(m_profilePresenter, &ProfilePresenter::profileRequested, action(QStringLiteral("actionProfile")),
            &QAction::trigger);
    // The empty Sweep pages' "add the recorded sweeps" and "open a sweep file" buttons (the profile panes
    // show the embedded example beside the session themselves: ProfilePresenter).
    for (SweepViewBase *sweepView : {static_cast<SweepViewBase *>(m_views.sweeps.grid),
                                     static_cast<SweepViewBase *>(m_views.sweeps.sizes)}) {
        connect(sweepView, &SweepViewBase::recordedSweepsRequested, this, &MainWindow::addRecordedSweeps);
        connect(sweepView, &SweepViewBase::openFileRequested,
                findChild<QAction *>(QStringLiteral("actionOpen")), &QAction::trigger);
    }

    // Ctrl+M maximises the view clicked last; Reset Layout starts from the first-start shares.
    m_views.workspaces->addActionsTo(this, [this] { return exportTarget(); });
    connect(m_views.workspaces, &Workspaces::layoutResetRequested, this,
            [this] { applyFirstStartLayout(this, m_views.workspaces); });
    connect(m_views.workspaces, &Workspaces::maximisedChanged, this, [this](QWidget *pane) {
        if (pane)
            statusBar()->showMessage(
                tr("Showing only %1; Ctrl+M brings the other views back.").arg(viewName(exportTarget())),
                6000);
    });
    addHelpActions(this);
    addViewContextMenu(this, m_registry, m_views.workspaces, [this] { m_exports->showDialog(); });
}

void MainWindow::connectSession()
{
    // A new session is shown at once, whole; it and each run's changes reach the views through the
    // registry, which listens to the session itself (view_registry.h).
    connect(m_session, &Session::reset, this, [this] {
        m_views.tables->fitColumns();
        // What the file left out (a damaged profile) first, then what the session is about.
        m_views.sessionNotice->show((m_session->notices() + QStringList{m_session->data().description})
                                        .join(QLatin1Char(' '))
                                        .trimmed());
        followSessionSize();
        selectARunIfTheWorkspaceNeedsOne();
        m_views.editor->showSessionKernels(m_session->customKernels());
    });
    // New rows and finished runs may need wider columns; a preliminary median (progress) does not.
    connect(m_session, &Session::runAdded, m_views.tables, &ResultsTables::scheduleFit);
    connect(m_runs, &RunController::runFinished, m_views.tables, &ResultsTables::scheduleFit);
    connect(m_session, &Session::ceilingsChanged, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runAdded, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runChanged, this, &MainWindow::applyMeasuredCeilings); // a run finished
    connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_selection, &RunSelection::selectionChanged, this, &MainWindow::selectRun);

    connect(m_runs, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::ladderFinished, this, &MainWindow::ladderFinished);
    connect(m_runs, &RunController::runnerStatusChanged, this, &MainWindow::runnerStatusChanged);
}

void MainWindow::followSessionSize()
{
    // A session measured at one size: the next run is measured at it too, so that the ladder's
    // charts and tables compare it with them (not the panel at the worklog's size
    // beside a session of 4096^3 runs). Said in the status bar: the panel never changes silently.
    const std::optional<ProblemSize> size = m_session->commonMeasuredSize();
    const ProblemSize current = m_views.panel->config().size;
    if (!size || (size->m == current.m && size->n == current.n && size->k == current.k))
        return;
    m_views.panel->setProblemSize(*size);
    // Beside the runner's state, not over it (a status bar message hid "Running is off: ..." for
    // its 10 s, and the greyed Run buttons had no reason on screen). In a
    // later turn: the session that the window opens with is opened before RunActions exists.
    const QString message = tr("Problem size of the next run set to %1, the size this "
                               "session's runs were measured at.")
                                .arg(squareOrFullSizeText(*size));
    QTimer::singleShot(0, this, [this, message] {
        if (m_runActions)
            m_runActions->showNote(message);
    });
}

void MainWindow::onWorkspaceChanged(Workspace workspace)
{
    // Ctrl+E writes what the workspace is about until another view is clicked.
    if (!exportTarget() || m_views.workspaces->workspaceOf(exportTarget()) != workspace)
        m_registry->setFocused(m_views.mainView(workspace, *m_registry));
    if (m_views.sassShown())
        disassembleCurrent();
    m_views.editor->shareKeys(workspace == Workspace::Editor, action(QStringLiteral("actionCompile")),
                              action(QStringLiteral("actionRun")));
    if (m_compileActions) // the tool bar's Compile is the editor's there (none yet while the window is built)
        m_compileActions->follow(
            workspace == Workspace::Editor ? m_views.editor->action("actionKernelCompile") : nullptr);
}

// The Counters page never shows "select a run" while the session has one to compare: on switching
// to it (Workspaces::aboutToShow, which comes before every currentChanged), and when a session
// opens (off the UI thread, so after a --workspace counters start).
void MainWindow::selectARunIfTheWorkspaceNeedsOne()
{
    if (m_views.workspaces->current() == Workspace::Counters && !m_session->find(m_selection->runId()))
        m_selection->select(runToExplain(*m_session));
}

void MainWindow::showConfig(const RunConfig &config)
{
    m_presenter->present(config);
    m_profilePresenter->show(); // after present(): a new stage clears the Source view's profile
    m_runActions->updateState();
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
        m_views.tables->showRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
}

// The roofline's measured roof: the ceilings the runner measured (now, or recorded in the session)
// on the GPU of the most recent run that has them.
void MainWindow::applyMeasuredCeilings()
{
    const std::optional<MeasuredCeilings> c = m_runs->measuredCeilings();
    if (!c) {
        m_views.roofline->clearMeasuredCeilings();
        return;
    }
    m_views.roofline->setMeasuredCeilings(
        c->fmaTflops, c->dramGbs,
        tr("%1, %2%3").arg(c->gpuName, c->measuredAt.left(10), c->recorded ? tr(" (recorded)") : QString()),
        c->tf32Tflops, c->tf32Kernel, c->l2Gbs, c->sharedGbs);
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

void MainWindow::showAutosaveProblem(const QString &sentence)
{
    m_sessionActions->setAutosaveProblem(sentence);
}

void MainWindow::loadDefaultSession()
{
    QString error;
    if (!m_session->loadDefault(&error))
        statusBar()->showMessage(tr("The default session (the worklog's T4 runtimes and the embedded H200 "
                                    "example) could not be loaded: %1")
                                     .arg(error));
}

void MainWindow::addRecordedSweeps()
{
    QString error;
    const std::optional<QStringList> added = m_session->addRecordedSweeps(&error);
    if (!added)
        statusBar()->showMessage(tr("The embedded example's sweeps could not be read: %1").arg(error));
    else if (added->isEmpty())
        statusBar()->showMessage(tr("This session holds the embedded example's sweeps already."), 6000);
    else
        statusBar()->showMessage(
            tr("Added %n of the embedded example's sweeps to this session: %1. File > Save keeps them.",
               nullptr, int(added->size()))
                .arg(added->join(QStringLiteral("; "))),
            10000);
}

void MainWindow::openDefaultSession()
{
    if (m_sessionActions->confirmDiscard()) // unsaved runs are asked about first, as File > Open does
        loadDefaultSession();
}

void MainWindow::offerAutosaveRecovery()
{
    // The default session or a recovered autosave replaced the session after the Sweep views first
    // looked: offer the unfinished journaled sweeps again (the session may lack them now).
    m_sessionActions->offerAutosaveRecovery([this] {
        m_views.sweeps.grid->setJournalDirectory(m_views.sweeps.grid->journalDirectory());
        m_views.sweeps.sizes->setJournalDirectory(m_views.sweeps.sizes->journalDirectory());
    });
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_sessionActions->confirmClose()) {
        event->ignore();
        return;
    }
    if (m_options.restoreSettings)
        saveWindowSettings(*this, m_views);
    m_views.editor->saveBuffersNow();
    event->accept();
}

// What the window offers its callers (main.cpp, the headless render, the tests), handed on to the
// unit that does it.

RunnerClient *MainWindow::runnerClient() const
{
    return m_runs->client();
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

bool MainWindow::runnerAvailable() const
{
    return m_runActions->runnerAvailable();
}

QString MainWindow::runnerStatus() const
{
    return m_runActions->runnerStatus();
}

void MainWindow::addView(RunView *view)
{
    m_registry->add(view);
}

const QList<RunView *> &MainWindow::views() const
{
    return m_registry->views();
}

QString MainWindow::lastCompile() const
{
    return m_compileActions->lastCompile();
}

QString MainWindow::noticeText() const
{
    return m_views.sessionNotice->text();
}

QString MainWindow::autosaveWarningText() const
{
    return m_views.autosaveNotice->text();
}

QString MainWindow::settingsWarningText() const
{
    return m_views.settingsNotice->text();
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    return m_sessionActions->open(path, error);
}

void MainWindow::openSessionInBackground(const QString &path,
                                         std::function<void(bool opened, const QString &error)> done)
{
    m_sessionActions->openInBackground(path, std::move(done));
}

void MainWindow::openCommandLine(const QStringList &paths,
                                 std::function<void(const QStringList &failures)> failed)
{
    m_sessionActions->opener()->openAll(paths, FileOpener::Asked::CommandLine,
                                        [this, failed](const QStringList &failures) {
                                            if (failed && !failures.isEmpty())
                                                failed(failures);
                                            if (m_session->runs().isEmpty() && m_session->sweeps().isEmpty())
                                                loadDefaultSession();
                                        });
}

QWidget *MainWindow::exportTarget() const
{
    return m_exports->target();
}

QString MainWindow::viewName(QWidget *view) const
{
    return m_registry->viewName(view);
}

QString MainWindow::exportDialogTitle() const
{
    return m_exports->dialogTitle();
}

bool MainWindow::exportTo(const QString &path, QString *error)
{
    return m_exports->exportTo(path, error);
}

QStringList MainWindow::exportViews(const QString &directory, QString *error, const QStringList &leftOut)
{
    return m_exports->exportEveryView(directory, error, leftOut);
}

void MainWindow::runCurrent()
{
    m_runActions->runCurrent();
}

QStringList MainWindow::runLadder(const ProblemSize &size)
{
    return m_runActions->runLadder(size);
}

void MainWindow::disassembleCurrent()
{
    m_compileActions->disassemble();
}

void MainWindow::showRunnerStatus(bool available, const QString &reason)
{
    m_runActions->showRunnerStatus(available, reason);
}

} // namespace gemmscope
