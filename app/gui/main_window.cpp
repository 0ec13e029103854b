#include "main_window.h"

#include "access_check_view.h"
#include "access_model.h"
#include "app_resources.h"
#include "bank_conflict_view.h"
#include "chart_interaction.h"
#include "coalescing_view.h"
#include "compile_job.h"
#include "machine_code_view.h"
#include "mapping_model.h"
#include "model_summary_view.h"
#include "parameter_panel.h"
#include "plot_export.h"
#include "recent_files.h"
#include "results_model.h"
#include "results_table_proxy.h"
#include "roofline_chart.h"
#include "run_controller.h"
#include "run_selection.h"
#include "run_view.h"
#include "runner_client.h"
#include "runtime_chart.h"
#include "session.h"
#include "size_sweep_view.h"
#include "stage_source_view.h"
#include "sweep_view.h"
#include "tile_map_view.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gemmscope {

namespace {

constexpr int kMappingMinWidth = 520; // 32 lanes of the coalescing and bank diagrams, no scrolling

// Clicking anywhere in a view makes it the one Export writes.
class FocusTracker : public QObject {
public:
    FocusTracker(QWidget *view, QPointer<QWidget> *target) : QObject(view), m_view(view), m_target(target)
    {
        view->installEventFilter(this);
        for (QWidget *child : view->findChildren<QWidget *>())
            child->installEventFilter(this);
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::MouseButtonPress)
            *m_target = m_view;
        return false;
    }

private:
    QWidget *m_view;
    QPointer<QWidget> *m_target;
};

// File names and messages that quote a file's content are shown as written, never as markup.
void warnPlainText(QWidget *parent, const QString &title, const QString &text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent), m_options(options), m_session(new Session(this)),
      m_model(new ResultsModel(m_session, this)), m_proxy(new ResultsTableProxy(this)),
      m_selection(new RunSelection(this)), m_runs(new RunController(m_session, this))
{
    initResources();
    if (!options.autosavePath.isEmpty()) {
        m_session->setAutosavePath(options.autosavePath);
    } else if (options.autosave) {
        // Each instance its own autosave, locked: two windows never overwrite each other's runs.
        m_autosaveSlot = std::make_unique<AutosaveSlot>();
        if (m_autosaveSlot->isValid())
            m_session->setAutosavePath(m_autosaveSlot->path());
        else
            qWarning("GemmScope: no autosave: %s", qPrintable(m_autosaveSlot->error()));
    }
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultsModel::SortRole);
    setWindowIcon(QIcon::fromTheme(QStringLiteral("utilities-system-monitor")));
    setMinimumSize(900, 600);

    buildViews();
    buildActions();

    m_runnerLabel = new QLabel;
    m_runnerLabel->setObjectName(QStringLiteral("runnerStatusLabel"));
    m_runnerLabel->setTextFormat(Qt::PlainText); // the runner's own words, never markup
    m_runnerLabel->setMinimumWidth(1);           // never widens the window; the tooltip has the whole text
    m_runnerLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_jobLabel = new QLabel;
    m_jobLabel->setTextFormat(Qt::PlainText);
    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    statusBar()->addWidget(m_runnerLabel, 1);
    statusBar()->addPermanentWidget(m_jobLabel);
    statusBar()->addPermanentWidget(m_progress);

    connect(m_session, &Session::reset, this, &MainWindow::refreshViews);
    connect(m_session, &Session::runAdded, this, &MainWindow::refreshViews);
    connect(m_session, &Session::runChanged, this, &MainWindow::refreshViews);
    connect(m_session, &Session::runRemoved, this, &MainWindow::refreshViews);
    connect(m_session, &Session::ceilingsChanged, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runAdded, this, &MainWindow::applyMeasuredCeilings);
    connect(m_session, &Session::runChanged, this, &MainWindow::applyMeasuredCeilings); // a run finished
    connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_selection, &RunSelection::selectionChanged, this, &MainWindow::selectRun);

    connect(m_runs, &RunController::runnerStatusChanged, this, &MainWindow::showRunnerStatus);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::ladderFinished, this, &MainWindow::ladderFinished);
    connect(m_runs, &RunController::progress, this, &MainWindow::onProgress);
    connect(m_runs, &RunController::preliminaryMedian, this, &MainWindow::onPreliminaryMedian);
    connect(m_runs, &RunController::runStarted, this,
            [this](const QString &id) { m_jobLabel->setText(tr("Running %1").arg(id)); });
    connect(m_runs, &RunController::idle, this, [this] {
        m_jobLabel->clear();
        m_progress->setVisible(false);
    });
    if (options.startRunner) {
        m_runnerReason = tr("Starting the runner…");
        m_runs->startRunner();
    } else {
        m_runnerReason = tr("Running is off: this window was started without a runner.");
    }
    m_runnerLabel->setText(m_runnerReason);
    updateRunActions();
    if (options.restoreSettings)
        restoreSettings();
    updateTitle();
    refreshViews();
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
    auto *panelScroll = new QScrollArea;
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Never narrower than the panel's own minimum (it does not scroll sideways, so it would be cut).
    panelScroll->setMinimumWidth(m_panel->minimumSizeHint().width() +
                                 panelScroll->verticalScrollBar()->sizeHint().width() +
                                 2 * panelScroll->frameWidth());

    m_runtimeChart = new RuntimeChart;
    m_runtimeChart->setObjectName(QStringLiteral("runtimeChart"));
    m_runtimeChart->setMinimumSize(280, 220);
    m_rooflineChart = new RooflineChart;
    m_rooflineChart->setObjectName(QStringLiteral("rooflineView"));
    m_rooflineChart->setMinimumSize(280, 220);
    m_tileMap = new TileMapView;
    m_tileMap->setObjectName(QStringLiteral("tileMapView"));
    m_mappingText = new ModelSummaryView(ModelSummaryView::Kind::Mapping);
    m_mappingStack = new QStackedWidget;
    m_mappingStack->setObjectName(QStringLiteral("mappingView"));
    m_mappingStack->addWidget(m_tileMap);
    m_mappingStack->addWidget(m_mappingText);
    m_mappingStack->setMinimumSize(240, 200);
    m_coalescing = new CoalescingView;
    m_coalescing->setObjectName(QStringLiteral("coalescingView"));
    m_bankConflicts = new BankConflictView;
    m_bankConflicts->setObjectName(QStringLiteral("bankConflictView"));
    m_mappingTabs = new QTabWidget;
    m_mappingTabs->setObjectName(QStringLiteral("mappingTabs"));
    m_mappingTabs->setDocumentMode(true);
    m_mappingTabs->addTab(m_mappingStack, tr("Tile map"));
    // The access views need ~480 px; in a narrow pane they scroll instead of being cut off.
    const auto scrolled = [](QWidget *view) {
        auto *scroll = new QScrollArea;
        scroll->setWidget(view);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        return scroll;
    };
    m_mappingTabs->addTab(scrolled(m_coalescing), tr("Coalescing"));
    m_mappingTabs->addTab(scrolled(m_bankConflicts), tr("Bank conflicts"));
    m_accessCheck = new AccessCheckView;
    m_accessCheck->setObjectName(QStringLiteral("accessCheckView"));
    m_mappingTabs->addTab(scrolled(m_accessCheck), tr("Counters"));
    m_stageSource = new StageSourceView;
    m_stageSource->setObjectName(QStringLiteral("stageSourceView"));
    m_mappingTabs->addTab(m_stageSource, tr("Source"));
    m_machineCode = new MachineCodeView;
    m_machineCode->setObjectName(QStringLiteral("machineCodeView"));
    m_mappingTabs->addTab(m_machineCode, tr("SASS"));
    m_mappingTabs->setTabToolTip(
        m_mappingTabs->count() - 1,
        tr("PTX and SASS of the configured kernel, the hot loop and its instruction mix"));
    // Sweeps (issue 14): every configuration of two parameters on a heatmap; maximise the pane
    // (the corner button) for a larger one.
    // Two modes in one tab: the parameter grid (heatmap) and problem sizes (TFLOP/s against size,
    // wave quantization marked); both on the same runner pool and journal.
    m_sweepView = new SweepView(m_session);
    m_sweepView->setObjectName(QStringLiteral("sweepView"));
    m_sizeSweepView = new SizeSweepView(m_session);
    m_sizeSweepView->setObjectName(QStringLiteral("sizeSweepView"));
    auto *sweepModes = new QTabWidget;
    sweepModes->setObjectName(QStringLiteral("sweepModes"));
    sweepModes->setDocumentMode(true);
    sweepModes->addTab(m_sweepView, tr("Parameter grid"));
    sweepModes->addTab(m_sizeSweepView, tr("Problem sizes"));
    sweepModes->setTabToolTip(1, tr("TFLOP/s against problem size for chosen presets and cuBLAS"));
    m_mappingTabs->addTab(sweepModes, tr("Sweep"));
    m_mappingTabs->setTabToolTip(m_mappingTabs->count() - 1,
                                 tr("Every configuration of two parameters, or every size, timed on one or "
                                    "more runners"));
    // Every tab label visible: no scroll arrows; the pane's minimum width holds the whole bar and a
    // full warp of 32 lanes (the coalescing and bank diagrams' minimum).
    m_mappingTabs->setUsesScrollButtons(false);
    m_mappingTabs->setElideMode(Qt::ElideNone);
    auto *maximiseButton = new QToolButton;
    maximiseButton->setObjectName(QStringLiteral("mappingMaximiseButton"));
    maximiseButton->setAutoRaise(true);
    m_mappingTabs->setCornerWidget(maximiseButton, Qt::TopRightCorner);
    m_mappingTabs->setMinimumWidth(
        std::max(kMappingMinWidth, m_mappingTabs->tabBar()->sizeHint().width() + 30));

    // Layout (issue 10): the two charts side by side on top, each at least ~480 px at 1280x800;
    // below them the mapping diagrams (wide enough for a warp) beside the results table.
    m_chartSplitter = new QSplitter(Qt::Horizontal);
    m_chartSplitter->setObjectName(QStringLiteral("chartSplitter"));
    m_chartSplitter->addWidget(m_runtimeChart);
    m_chartSplitter->addWidget(m_rooflineChart);
    m_chartSplitter->setChildrenCollapsible(false);
    for (int i = 0; i < 2; ++i) {
        // Equal shares: the size hints (legend, combo widths) must not decide the split. The
        // policy first: setStretchFactor() writes into it.
        m_chartSplitter->widget(i)->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
        m_chartSplitter->setStretchFactor(i, 1);
    }

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    m_table->setTextElideMode(Qt::ElideMiddle); // "BK=16 BM=…TN=12" keeps both ends readable
    m_table->verticalHeader()->setVisible(false);
    m_table->setMinimumHeight(140);
    m_table->setWordWrap(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    m_selection->select(current.data(ResultsModel::RunIdRole).toString());
            });

    m_bottomSplitter = new QSplitter(Qt::Horizontal);
    m_bottomSplitter->setObjectName(QStringLiteral("bottomSplitter"));
    m_bottomSplitter->addWidget(m_mappingTabs);
    m_bottomSplitter->addWidget(m_table);
    m_bottomSplitter->setChildrenCollapsible(false);
    m_bottomSplitter->setStretchFactor(0, 3);
    m_bottomSplitter->setStretchFactor(1, 2);
    m_table->setMinimumWidth(260);

    m_rightSplitter = new QSplitter(Qt::Vertical);
    m_rightSplitter->setObjectName(QStringLiteral("rightSplitter"));
    m_rightSplitter->addWidget(m_chartSplitter);
    m_rightSplitter->addWidget(m_bottomSplitter);
    m_rightSplitter->setStretchFactor(0, 1);
    m_rightSplitter->setStretchFactor(1, 1);
    m_rightSplitter->setChildrenCollapsible(false);

    m_mainSplitter = new QSplitter(Qt::Horizontal);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_mainSplitter->addWidget(panelScroll);
    m_mainSplitter->addWidget(m_rightSplitter);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setChildrenCollapsible(false);
    setCentralWidget(m_mainSplitter);

    for (RunView *view :
         QList<RunView *>{m_runtimeChart, m_rooflineChart, m_tileMap, m_mappingText, m_coalescing,
                          m_bankConflicts, m_accessCheck, m_stageSource, m_machineCode})
        addView(view);
    m_viewsBuilt = true;

    m_focusedView = m_runtimeChart;
    for (QWidget *view : exportableViews())
        new FocusTracker(view, &m_focusedView);
    new FocusTracker(m_table, &m_focusedView);
    // Choosing a tab is choosing its view.
    connect(m_mappingTabs, &QTabWidget::currentChanged, this,
            [this] { m_focusedView = currentMappingView(); });
    connect(m_mappingTabs->tabBar(), &QTabBar::tabBarClicked, this, [this](int index) {
        if (index >= 0)
            m_focusedView = viewOfTab(index);
    });
    maximiseButton->setDefaultAction(action(QStringLiteral("actionMaximiseView")));

    // The Source tab follows the Coalescing view's instruction: its line is highlighted.
    connect(m_coalescing, &CoalescingView::frameChanged, this, [this] {
        if (m_showingConfig)
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
    connect(m_panel, &ParameterPanel::configurationChanged, this, &MainWindow::updateRunActions);
    connect(m_panel, &ParameterPanel::runRequested, this, &MainWindow::runCurrent);
    showConfig(m_panel->config());
}

bool MainWindow::showMappingTab(const QString &title)
{
    for (int tab = 0; tab < m_mappingTabs->count(); ++tab)
        if (m_mappingTabs->tabText(tab).remove(QLatin1Char('&')) == title &&
            m_mappingTabs->isTabEnabled(tab)) {
            m_mappingTabs->setCurrentIndex(tab);
            return true;
        }
    return false;
}

void MainWindow::showConfig(const RunConfig &config)
{
    m_showingConfig = true;
    const auto done = qScopeGuard([this] { m_showingConfig = false; });
    // The model-driven views follow the panel at once, before anything runs.
    if (violations(config.stage, config.params, config.size).empty())
        m_rooflineChart->setPredicted(config.stage, config.params, config.size);
    else
        m_rooflineChart->clearPredicted();
    m_mappingText->setConfig(config);
    m_stageSource->setStage(config.stage); // every stage has something to say, cuBLAS included
    const KernelShapeResult shape = kernelShape(config.stage, config.params);
    // What the diagrams are of, for their print titles.
    const QString caption =
        QStringLiteral("%1, %2").arg(QString::fromStdString(stageInfo(config.stage).title),
                                     QString::fromStdString(formatParams(config.params)));
    m_tileMap->setCaption(caption);
    m_coalescing->setCaption(caption);
    m_bankConflicts->setCaption(caption);
    m_coalescing->setNote(
        config.stage == StageId::Naive
            ? tr("Why the worklog still calls this slow: each instruction here is well used (the lanes of a "
                 "row "
                 "share one A element, a broadcast, and read neighbouring B elements), but nothing is reused "
                 "— "
                 "every thread reads its whole row of A and column of B from global memory, 0.25 FLOP/B. "
                 "Tiling (step 1) fixes the reuse; step 3 then fixes a load that really wastes sectors.")
        : shape.shape && shape.shape->loads == TileLoadScheme::TmaSwizzled128
            ? tr("Only the C stores are lane accesses here: no lane loads A or B. Per k tile one producer "
                 "thread has the TMA unit copy a box of A and one of BT into shared memory (the Bank "
                 "conflicts tab shows the boxes and their 128-byte swizzle).")
            : QString());
    if (shape.shape) {
        m_tileMap->setShape(*shape.shape);
        m_mappingStack->setCurrentWidget(m_tileMap);
        // The access views draw one interior block, the same at any size the tiles divide.
        AccessContext context;
        context.size = roundedUpToTiles(*shape.shape, config.size);
        m_coalescing->setShape(*shape.shape, context);
        m_bankConflicts->setStage(*shape.shape, context, 0);
        m_bankConflicts->setNote(QString());
        if (config.stage == StageId::SmemTiled) {
            // The guide's point, next to this kernel's own accesses: its reads are conflict-free
            // padded or not, so show the column read the guide's +1 padding is for.
            const int tile = config.params.count("TILE") ? config.params.at("TILE") : 32;
            std::vector<SharedAccess> accesses = sharedAccesses(*shape.shape, context, 0);
            for (int pad : {0, 1}) {
                SharedAccess demo = columnAccess(tile, pad);
                demo.label = pad == 0
                                 ? tr("the guide's column read tile[tx][0], unpadded (not in this kernel)")
                                       .toStdString()
                                 : tr("the same column read with the guide's +1 padding").toStdString();
                accesses.push_back(demo);
            }
            m_bankConflicts->setAccesses(accesses);
            // Either of the guide's two reads shows both, one above the other.
            m_bankConflicts->setComparePair(int(accesses.size()) - 2, int(accesses.size()) - 1);
            m_bankConflicts->setNote(
                tr("This kernel reads tileA[ty][k] (one word for the whole row of lanes: a broadcast) and "
                   "tileB[k][tx] (along a row): conflict-free with or without padding. The +1 padding of the "
                   "guide's variant is for a column read, tile[tx][k]: unpadded, lanes %1 words apart all "
                   "hit one bank (%2-way); padded, every lane has its own bank. The last two entries of the "
                   "list show both, one above the other.")
                    .arg(tile)
                    .arg(std::min(tile, 32)));
        }
    } else {
        m_mappingStack->setCurrentWidget(m_mappingText);
    }
    // cuBLAS and invalid settings have no modelled accesses: only the tile map tab explains why.
    // The Source tab stays where it is: it shows the stage's file even for invalid parameters.
    for (int tab = 0; tab < m_mappingTabs->count(); ++tab) {
        const auto *scroll = qobject_cast<QScrollArea *>(m_mappingTabs->widget(tab));
        if (!scroll || (scroll->widget() != m_coalescing && scroll->widget() != m_bankConflicts))
            continue;
        m_mappingTabs->setTabEnabled(tab, shape.shape.has_value());
        m_mappingTabs->setTabToolTip(
            tab, shape.shape
                     ? QString()
                     : tr("Off: %1 has no access model to draw (%2).")
                           .arg(QString::fromStdString(stageInfo(config.stage).title),
                                stageInfo(config.stage).isLibrary ? tr("a closed-source library")
                                                                  : tr("its parameters are refused")));
        if (!shape.shape && m_mappingTabs->currentIndex() == tab)
            m_mappingTabs->setCurrentWidget(m_mappingStack);
    }
}

void MainWindow::buildActions()
{
    const auto make = [this](const QString &name, const QString &text, const QKeySequence &shortcut,
                             auto slot) {
        auto *action = new QAction(text, this);
        action->setObjectName(name);
        if (!shortcut.isEmpty())
            action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    QAction *open =
        make(QStringLiteral("actionOpen"), tr("&Open…"), QKeySequence::Open, [this] { openDialog(); });
    QAction *save =
        make(QStringLiteral("actionSave"), tr("&Save"), QKeySequence::Save, [this] { saveSession(); });
    QAction *saveAs = make(QStringLiteral("actionSaveAs"), tr("Save &As…"), QKeySequence(tr("Ctrl+Shift+S")),
                           [this] { saveSessionAs(); });
    QAction *importBench = make(QStringLiteral("actionImportBench"), tr("&Import Bench JSON…"), {},
                                [this] { importBenchDialog(); });
    QAction *exportAction = make(QStringLiteral("actionExport"), tr("&Export…"), QKeySequence(tr("Ctrl+E")),
                                 [this] { exportDialog(); });
    QAction *maximise =
        make(QStringLiteral("actionMaximiseView"), tr("&Maximise View"), QKeySequence(tr("Ctrl+M")),
             [this] { setMaximisedView(m_maximisedPane ? nullptr : paneOf(m_focusedView)); });
    maximise->setCheckable(true);
    maximise->setToolTip(
        tr("Show only the view you last clicked, over the whole window; again to restore the "
           "arrangement (Ctrl+M)"));
    maximise->setIcon(style()->standardIcon(QStyle::SP_TitleBarMaxButton));
    QAction *restoreLayout = make(QStringLiteral("actionResetLayout"), tr("&Reset Layout"), {}, [this] {
        setMaximisedView(nullptr);
        applyFirstStartLayout();
    });
    restoreLayout->setToolTip(tr("Put every view back where GemmScope first placed it"));
    QAction *quit =
        make(QStringLiteral("actionQuit"), tr("&Quit"), QKeySequence(tr("Ctrl+Q")), [this] { close(); });
    QAction *run =
        make(QStringLiteral("actionRun"), tr("&Run"), QKeySequence(tr("Ctrl+R")), [this] { runCurrent(); });
    QAction *ladder = make(QStringLiteral("actionRunLadder"), tr("Run &Ladder"),
                           QKeySequence(tr("Ctrl+Shift+R")), [this] { runLadder(m_panel->config().size); });
    QAction *cancel = make(QStringLiteral("actionCancel"), tr("&Cancel Runs"), QKeySequence(Qt::Key_Escape),
                           [this] { cancelRuns(); });
    QAction *compile = make(QStringLiteral("actionCompile"), tr("&Compile"), QKeySequence(tr("Ctrl+B")),
                            [this] { compileCurrent(); });
    run->setToolTip(tr("Run the configured stage (Ctrl+R)"));
    ladder->setToolTip(tr("Run every preset of the ladder at the configured size (Ctrl+Shift+R)"));
    // Compile needs no GPU: NVRTC in the runner's compile-only mode, for the architecture chosen here.
    m_compileJob = new CompileJob(CompileJob::Kind::Compile, this);
    // The SASS tab: the same compile-only runner, asked for the machine code (-lineinfo). It follows
    // the configuration while the tab is shown; the Disassemble button asks again.
    m_disassembleJob = new CompileJob(CompileJob::Kind::Disassemble, this);
    connect(m_disassembleJob, &CompileJob::finished, this, [this](const QString &, const QString &title) {
        const protocol::DisassemblyEvent &code = m_disassembleJob->disassembly();
        m_machineCode->setMachineCode(title, code.ptx, code.sass.value_or(QString()), code.sassUnavailable);
        if (m_disassemblePending)
            disassembleCurrent();
    });
    connect(m_disassembleJob, &CompileJob::failed, this, [this](const QString &message) {
        m_machineCode->setMessage(message);
        if (m_disassemblePending)
            disassembleCurrent();
    });
    connect(m_machineCode, &MachineCodeView::refreshRequested, this, &MainWindow::disassembleCurrent);
    connect(m_mappingTabs, &QTabWidget::currentChanged, this, [this] {
        if (m_mappingTabs->currentWidget() == m_machineCode)
            disassembleCurrent();
    });
    connect(m_panel, &ParameterPanel::configurationChanged, this, [this] {
        if (m_mappingTabs->currentWidget() == m_machineCode)
            disassembleCurrent();
    });
    connect(m_compileJob, &CompileJob::finished, this, [this](const QString &kernel, const QString &summary) {
        const QString text = tr("Compiled %1 — %2").arg(kernel, summary);
        statusBar()->showMessage(text, 20000);
        m_lastCompile = text;
        updateRunActions();
        emit compileFinished(text);
    });
    connect(m_compileJob, &CompileJob::failed, this, [this](const QString &message) {
        statusBar()->showMessage(message, 20000);
        m_lastCompile = message;
        updateRunActions();
        emit compileFinished(message);
    });
    auto *archGroup = new QActionGroup(this);
    QMenu *archMenu = new QMenu(tr("Compile &For"), this);
    archMenu->setObjectName(QStringLiteral("compileArchMenu"));
    for (const auto &[arch, label] :
         {std::pair{"sm_75", "T4 (sm_75)"}, std::pair{"sm_80", "A100 (sm_80)"},
          std::pair{"sm_90", "H100 / H200 (sm_90)"}, std::pair{"sm_100", "B200 (sm_100)"}}) {
        QAction *a = archMenu->addAction(QString::fromLatin1(label));
        a->setCheckable(true);
        a->setData(QString::fromLatin1(arch));
        a->setChecked(m_compileArch == QLatin1String(arch));
        archGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, a] {
            m_compileArch = a->data().toString();
            updateRunActions();
        });
    }

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addAction(save);
    file->addAction(saveAs);
    file->addSeparator();
    file->addAction(importBench);
    file->addAction(exportAction);
    file->addSeparator();
    file->addAction(quit);
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(maximise);
    viewMenu->addAction(restoreLayout);
    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(run);
    runMenu->addAction(ladder);
    runMenu->addAction(cancel);
    runMenu->addSeparator();
    runMenu->addAction(compile);
    runMenu->addMenu(archMenu);
    QToolBar *toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName(QStringLiteral("runToolBar"));
    toolbar->addAction(run);
    toolbar->addAction(ladder);
    toolbar->addAction(cancel);
    toolbar->addAction(compile);
    updateRecentMenu();
    if (auto *button = findChild<QToolButton *>(QStringLiteral("mappingMaximiseButton")))
        button->setDefaultAction(maximise);
    // Every chart's and diagram's context menu offers the same two window actions.
    ChartInteraction::addCommonMenuEntries([this](QMenu &menu, QWidget *surface) {
        QWidget *view = viewContaining(surface);
        if (!view || !isAncestorOf(view))
            return;
        menu.addAction(tr("Export %1…").arg(viewName(view)), this, [this, view] {
            m_focusedView = view;
            exportDialog();
        });
        QAction *max = menu.addAction(
            m_maximisedPane ? tr("Restore the arrangement") : tr("Maximise this view"), this, [this, view] {
                m_focusedView = view;
                setMaximisedView(m_maximisedPane ? nullptr : paneOf(view));
            });
        max->setShortcut(QKeySequence(tr("Ctrl+M")));
    });
}

void MainWindow::addView(RunView *view)
{
    if (!view || m_views.contains(view))
        return;
    m_views.append(view);
    if (m_viewsBuilt) // the window's own views get theirs, per pane, at the end of buildViews()
        new FocusTracker(view->viewWidget(), &m_focusedView);
}

RunView *MainWindow::runViewOf(QWidget *widget) const
{
    for (RunView *view : m_views)
        if (view->viewWidget() == widget)
            return view;
    return nullptr;
}

// The registered views as the window exports and names them: the tile map and the mapping summary
// share one pane (m_mappingStack), which stands for whichever of them is shown.
QList<QWidget *> MainWindow::exportableViews() const
{
    QList<QWidget *> out;
    for (RunView *view : m_views) {
        QWidget *widget = view->viewWidget();
        if (m_mappingStack->indexOf(widget) >= 0)
            widget = m_mappingStack;
        if (!out.contains(widget))
            out.append(widget);
    }
    return out;
}

QWidget *MainWindow::viewOfTab(int index) const
{
    QWidget *page = m_mappingTabs->widget(index);
    if (auto *scroll = qobject_cast<QScrollArea *>(page))
        return scroll->widget();
    return page;
}

QWidget *MainWindow::currentMappingView() const
{
    return viewOfTab(m_mappingTabs->currentIndex());
}

QWidget *MainWindow::viewContaining(QWidget *widget) const
{
    for (QWidget *view : exportableViews())
        if (view == widget || view->isAncestorOf(widget))
            return view;
    return nullptr;
}

QString MainWindow::viewName(QWidget *view) const
{
    if (view == m_table)
        return tr("the results table");
    if (view == m_mappingStack)
        view = m_mappingStack->currentWidget();
    if (const RunView *runView = runViewOf(view))
        return runView->viewName();
    return tr("the view");
}

QWidget *MainWindow::paneOf(QWidget *view) const
{
    if (!view)
        return m_runtimeChart;
    if (view == m_runtimeChart || view == m_rooflineChart || view == m_table)
        return view;
    return m_mappingTabs;
}

QWidget *MainWindow::exportTarget() const
{
    return m_focusedView ? m_focusedView.data() : m_runtimeChart;
}

void MainWindow::setMaximisedView(QWidget *pane)
{
    m_maximisedPane = pane;
    const QList<QWidget *> panes{m_runtimeChart, m_rooflineChart, m_mappingTabs, m_table};
    for (QWidget *p : panes)
        p->setVisible(!pane || p == pane);
    m_chartSplitter->setVisible(!pane || pane == m_runtimeChart || pane == m_rooflineChart);
    m_bottomSplitter->setVisible(!pane || pane == m_mappingTabs || pane == m_table);
    m_mainSplitter->widget(0)->setVisible(!pane);
    if (QAction *a = action(QStringLiteral("actionMaximiseView"))) {
        const QSignalBlocker block(a);
        a->setChecked(pane != nullptr);
        a->setText(pane ? tr("Restore &Arrangement") : tr("&Maximise View"));
    }
    if (pane)
        statusBar()->showMessage(
            tr("Showing only %1; Ctrl+M (View > Restore Arrangement) brings the other views back.")
                .arg(viewName(pane == m_mappingTabs ? currentMappingView() : pane)),
            6000);
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = RecentFiles::list();
    for (const QString &path : files) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!confirmDiscard())
                return;
            QString error;
            if (!openSession(path, &error))
                warnPlainText(this, tr("Open session"), error);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateRunActions()
{
    // Every action says what it does, or why it is off: in its tooltip and in the status bar
    // (statusTip) when the pointer is on it.
    const auto state = [](QAction *a, bool enabled, const QString &does, const QString &whyNot) {
        a->setEnabled(enabled);
        const QString text =
            enabled ? does : tr("%1 is off: %2").arg(a->text().remove(QLatin1Char('&')), whyNot);
        a->setToolTip(text);
        a->setStatusTip(text);
    };
    const QString runnerOff = m_runnerReason;
    QString invalid;
    if (!m_panel->isValid())
        invalid = m_panel->violationText().replace(QLatin1Char('\n'), QLatin1Char(' '));
    state(action(QStringLiteral("actionRun")), m_runnerAvailable && m_panel->isValid(),
          tr("Run the configured stage (Ctrl+R)"), !m_runnerAvailable ? runnerOff : invalid);
    state(action(QStringLiteral("actionRunLadder")), m_runnerAvailable,
          tr("Run every preset of the ladder at the configured size (Ctrl+Shift+R)"), runnerOff);
    state(action(QStringLiteral("actionCancel")), m_runnerAvailable,
          tr("Cancel the queued and running runs (Esc)"), runnerOff);
    const RunConfig config = m_panel->config();
    const bool library = stageInfo(config.stage).isLibrary;
    const bool compiling = m_compileJob && m_compileJob->isRunning();
    state(
        action(QStringLiteral("actionCompile")), !library && m_panel->isValid() && !compiling,
        tr("Compile the configured stage for %1 with NVRTC, no GPU needed: registers, spills, shared memory, "
           "occupancy (Ctrl+B)")
            .arg(m_compileArch),
        library ? tr("%1 is a library call, there is no kernel of GemmScope's to compile.")
                      .arg(QString::fromStdString(stageInfo(config.stage).title))
        : compiling ? tr("a compile is running.")
                    : invalid);
    m_panel->setRunEnabledByRunner(m_runnerAvailable, m_runnerReason);
}

void MainWindow::compileCurrent()
{
    const RunConfig config = m_panel->config();
    QString whyNot;
    if (!m_panel->isValid())
        whyNot = m_panel->violationText();
    else if (m_compileJob->start(config.stage, config.params, config.size, m_compileArch, &whyNot)) {
        statusBar()->showMessage(
            tr("Compiling %1 for %2…")
                .arg(QString::fromStdString(stageInfo(config.stage).title), m_compileArch));
        updateRunActions();
        return;
    }
    statusBar()->showMessage(tr("Cannot compile: %1").arg(whyNot), 10000);
    emit compileFinished(tr("Cannot compile: %1").arg(whyNot));
}

void MainWindow::disassembleCurrent()
{
    // One disassembly at a time; a change meanwhile is taken up when it ends (slider drags do not pile up).
    if (m_disassembleJob->isRunning()) {
        m_disassemblePending = true;
        return;
    }
    m_disassemblePending = false;
    const RunConfig config = m_panel->config();
    if (!m_panel->isValid()) {
        m_machineCode->setMessage(tr("Nothing to disassemble: %1").arg(m_panel->violationText()));
        return;
    }
    QString whyNot;
    if (m_disassembleJob->start(config.stage, config.params, config.size, m_compileArch, &whyNot))
        m_machineCode->setLoading(
            tr("%1 for %2").arg(QString::fromStdString(stageInfo(config.stage).title), m_compileArch));
    else
        m_machineCode->setMessage(whyNot);
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
    m_runnerReason = available ? tr("Runner ready on %1").arg(reason) : tr("Running is off: %1").arg(reason);
    // The status bar holds one readable sentence (the runner's first); the tooltip has all of it.
    QString shortText = m_runnerReason;
    const int cut = shortText.indexOf(QLatin1String(" ("));
    if (!available && cut > 0)
        shortText = shortText.left(cut) + QLatin1Char('.');
    if (!available)
        shortText += tr(" Compile (Ctrl+B) still works.");
    m_runnerLabel->setText(shortText);
    m_runnerLabel->setToolTip(m_runnerReason);
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

void MainWindow::onProgress(const QString &id, const QString &phase, int done, int total)
{
    m_jobLabel->setText(tr("%1: %2").arg(id, phase));
    m_progress->setVisible(true);
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
}

void MainWindow::onPreliminaryMedian(const QString &id, double medianMs, int timedSoFar)
{
    m_jobLabel->setText(tr("%1: %2 ms preliminary median of %3 repetitions, refining to the budget")
                            .arg(id)
                            .arg(medianMs, 0, 'f', 3)
                            .arg(timedSoFar));
    // RunController puts it into the run's row (marked preliminary).
}

void MainWindow::selectRun(const QString &runId)
{
    const RunRecord *run = m_session->find(runId);
    for (RunView *view : m_views)
        view->setSelectedRun(runId, run);
    const int sourceRow = m_model->rowOf(runId);
    if (sourceRow >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
        if (m_table->currentIndex().row() != index.row()) {
            m_table->setCurrentIndex(index);
            m_table->scrollTo(index);
        }
    }
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

void MainWindow::refreshViews()
{
    const QList<RunRecord> runs = m_session->runs();
    for (RunView *view : m_views)
        view->setRuns(runs);
    if (!m_selection->runId().isEmpty()) {
        // The selected run may just have finished (queued -> ok): its counters arrive now.
        const RunRecord *run = m_session->find(m_selection->runId());
        for (RunView *view : m_views)
            view->setSelectedRun(m_selection->runId(), run);
    }
    fitResultsColumns();
}

void MainWindow::fitResultsColumns()
{
    // To the contents, but no column wider than a third of the table: long parameter lists elide
    // (their tooltip and the charts' tooltips carry the whole text).
    QHeaderView *header = m_table->horizontalHeader();
    const int cap = std::max(160, m_table->viewport()->width() / 3);
    for (int column = 0; column < header->count(); ++column) {
        m_table->resizeColumnToContents(column);
        header->resizeSection(column, std::min(header->sectionSize(column), cap));
    }
}

void MainWindow::applyFirstStartLayout()
{
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QRect available = screen->availableGeometry();
        const QSize size = available.size() * 0.9;
        resize(size.expandedTo(minimumSize()));
        move(available.center() - rect().center());
    } else {
        resize(1500, 900);
    }
    // The parameter panel at the width its contents ask for (it does not scroll sideways).
    const int panelWidth = std::max(m_mainSplitter->widget(0)->minimumWidth(), std::min(width() / 5, 400));
    const int rightWidth = std::max(700, width() - panelWidth);
    m_mainSplitter->setSizes({panelWidth, rightWidth});
    m_chartSplitter->setSizes({rightWidth / 2, rightWidth / 2});
    const int mappingWidth = std::max(m_mappingTabs->minimumWidth(), rightWidth * 3 / 5);
    m_bottomSplitter->setSizes({mappingWidth, rightWidth - mappingWidth});
    m_rightSplitter->setSizes({height() / 2, height() / 2});
}

void MainWindow::loadDefaultSession()
{
    QString error;
    if (!m_session->loadDefault(&error))
        statusBar()->showMessage(tr("The embedded reference data could not be loaded: %1").arg(error));
}

void MainWindow::rescanSweepJournals()
{
    // The default session or a recovered autosave replaced the session after the Sweep tab first
    // looked: offer the unfinished journaled sweeps again (the session may lack them now).
    m_sweepView->setJournalDirectory(m_sweepView->journalDirectory());
    m_sizeSweepView->setJournalDirectory(m_sizeSweepView->journalDirectory());
}

void MainWindow::offerAutosaveRecovery()
{
    const QString own = m_session->autosaveFile();
    if (own.isEmpty()) {
        rescanSweepJournals();
        return;
    }
    const QString directory = QFileInfo(own).absolutePath();
    // Autosaves, and the files they name, are read in a worker thread: a damaged or hostile one
    // (a FIFO, /dev/zero) must never hold up the window.
    auto *watcher = new QFutureWatcher<QList<AutosaveRecovery>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        offerRecovered(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([directory, own] { return AutosaveSlot::orphans(directory, own); }));
}

void MainWindow::offerRecovered(const QList<AutosaveRecovery> &found)
{
    const auto rescan = qScopeGuard([this] { rescanSweepJournals(); }); // whatever the user chose
    QList<SessionData> recovered;
    QStringList problems;
    int unsaved = 0;
    for (const AutosaveRecovery &r : found) {
        if (r.data && r.unsavedRuns > 0) {
            recovered << *r.data;
            unsaved += r.unsavedRuns;
        }
        problems << r.problems;
    }
    if (unsaved == 0 && problems.isEmpty())
        return;
    QMessageBox box(this);
    box.setWindowTitle(tr("Recover runs"));
    box.setIcon(unsaved > 0 ? QMessageBox::Question : QMessageBox::Warning);
    box.setTextFormat(Qt::PlainText); // autosaves are files: their text is never markup
    box.setText(unsaved > 0
                    ? tr("%n run(s) measured in an earlier GemmScope session were not saved to a file. "
                         "Recover them?",
                         nullptr, unsaved)
                    : tr("An earlier GemmScope session left an autosave that could not be recovered."));
    if (!problems.isEmpty()) {
        box.setInformativeText(tr("Not everything could be recovered; see the details. Damaged autosaves are "
                                  "kept beside the others with the suffix .damaged."));
        box.setDetailedText(problems.join(QLatin1Char('\n')));
    }
    QPushButton *recover = unsaved > 0 ? box.addButton(tr("Recover"), QMessageBox::AcceptRole) : nullptr;
    QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    QPushButton *later = box.addButton(tr("Ask again next time"), QMessageBox::RejectRole);
    box.setDefaultButton(recover ? recover : later);
    box.setEscapeButton(later);
    box.exec();
    if (box.clickedButton() != recover && box.clickedButton() != discard)
        return; // kept for the next start
    if (box.clickedButton() == recover)
        m_session->adoptRecovered(recovered); // in this instance's autosave before the old ones go
    for (const AutosaveRecovery &r : found) {
        if (!r.damaged)
            Session::discardAutosave(r.path);
        else
            QFile::rename(r.path, r.path + QStringLiteral(".damaged"));
    }
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    if (!m_session->open(path, error))
        return false;
    RecentFiles::add(path);
    updateRecentMenu();
    return true;
}

bool MainWindow::confirmDiscard()
{
    if (!m_session->isModified())
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved runs"),
                                              tr("The session has unsaved changes. Save them first?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return saveSession();
    return answer == QMessageBox::Discard;
}

void MainWindow::openDialog()
{
    if (!confirmDiscard())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                      tr("GemmScope sessions (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openSession(path, &error))
        warnPlainText(this, tr("Open session"), error);
}

bool MainWindow::saveSession()
{
    if (m_session->filePath().isEmpty())
        return saveSessionAs();
    QString error;
    if (!m_session->save(&error)) {
        warnPlainText(this, tr("Save session"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveSessionAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session as"), QString(),
                                                      tr("GemmScope sessions (*.json)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_session->saveAs(path, &error)) {
        warnPlainText(this, tr("Save session"), error);
        return false;
    }
    RecentFiles::add(path);
    updateRecentMenu();
    return true;
}

void MainWindow::importBenchDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import bench JSON"), QString(),
                                                      tr("gemmscope-bench output (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_session->importBench(path, &error))
        warnPlainText(this, tr("Import bench JSON"), error);
}

std::optional<QString> MainWindow::exportView(QWidget *view, const QString &path)
{
    // Each view exports itself (the charts and diagrams in their print layout, vector output where
    // they can); anything else is rendered.
    QWidget *shown = view == m_mappingStack ? m_mappingStack->currentWidget() : view;
    if (RunView *runView = runViewOf(shown))
        return runView->exportTo(path);
    return exportWidget(shown, path);
}

bool MainWindow::exportTo(const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json")) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            *error = tr("Could not write %1: %2.").arg(path, file.errorString());
            return false;
        }
        if (suffix == QLatin1String("csv")) {
            file.write(m_model->toCsv());
        } else {
            QJsonArray runs;
            for (const RunRecord &r : m_session->runs())
                runs.append(toJson(r));
            file.write(QJsonDocument(runs).toJson(QJsonDocument::Indented));
        }
        if (!file.commit()) {
            *error = tr("Could not write %1: %2.").arg(path, file.errorString());
            return false;
        }
        return true;
    }
    if (!exportFormatForPath(path)) {
        *error = tr("GemmScope exports .png, .pdf, .svg (the chart you last clicked) and .csv, .json (the "
                    "results); "
                    "\"%1\" is none of them.")
                     .arg(QFileInfo(path).fileName());
        return false;
    }
    const std::optional<QString> failure =
        exportView(exportTarget() == m_table ? m_runtimeChart : exportTarget(), path);
    if (failure) {
        *error = *failure;
        return false;
    }
    return true;
}

QStringList MainWindow::exportViews(const QString &directory, QString *error, const QSize &)
{
    // Every view from its print layout (fixed size, full title, legend): the same pictures as
    // Ctrl+E writes, whatever the window's size.
    QDir().mkpath(directory);
    QStringList written;
    const QList<QPair<QString, QWidget *>> views{
        {QStringLiteral("runtime"), m_runtimeChart}, {QStringLiteral("roofline"), m_rooflineChart},
        {QStringLiteral("mapping"), m_mappingStack}, {QStringLiteral("coalescing"), m_coalescing},
        {QStringLiteral("bank"), m_bankConflicts},   {QStringLiteral("counters"), m_accessCheck}};
    const auto writeAll = [&](const QString &name,
                              const std::function<std::optional<QString>(const QString &)> &write) {
        for (const char *suffix : {"png", "svg", "pdf"}) {
            const QString path =
                QDir(directory).filePath(QStringLiteral("%1.%2").arg(name, QLatin1String(suffix)));
            if (const std::optional<QString> failure = write(path)) {
                *error = *failure;
                return false;
            }
            written << path;
        }
        return true;
    };
    for (const auto &[name, view] : views)
        if (!writeAll(name, [this, view = view](const QString &path) { return exportView(view, path); }))
            return written;
    // The runtime chart's second mode: measured speedups against the worklog's published ones.
    const RuntimeChart::Mode mode = m_runtimeChart->mode();
    m_runtimeChart->setMode(RuntimeChart::Mode::Speedup);
    writeAll(QStringLiteral("speedup"),
             [this](const QString &path) { return m_runtimeChart->exportTo(path); });
    m_runtimeChart->setMode(mode);
    return written;
}

QString MainWindow::exportDialogTitle() const
{
    return tr("Export %1").arg(viewName(exportTarget()));
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
        warnPlainText(this, tr("Export"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("layout2/chartSplitter"), m_chartSplitter->saveState());
    settings.setValue(QStringLiteral("layout2/bottomSplitter"), m_bottomSplitter->saveState());
    settings.setValue(QStringLiteral("layout2/rightSplitter"), m_rightSplitter->saveState());
    settings.setValue(QStringLiteral("layout2/maximised"),
                      m_maximisedPane ? m_maximisedPane->objectName() : QString());
    settings.setValue(QStringLiteral("layout2/mappingTab"), m_mappingTabs->currentIndex());
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
    m_mainSplitter->restoreState(settings.value(QStringLiteral("window/mainSplitter")).toByteArray());
    // The arrangement of issue 10 (charts above, diagrams beside the table) has its own keys: the
    // older three-pane splitter states do not fit it.
    if (settings.contains(QStringLiteral("layout2/rightSplitter"))) {
        m_rightSplitter->restoreState(settings.value(QStringLiteral("layout2/rightSplitter")).toByteArray());
        m_chartSplitter->restoreState(settings.value(QStringLiteral("layout2/chartSplitter")).toByteArray());
        m_bottomSplitter->restoreState(
            settings.value(QStringLiteral("layout2/bottomSplitter")).toByteArray());
    } else {
        applyFirstStartLayout();
    }
    m_mappingTabs->setCurrentIndex(settings.value(QStringLiteral("layout2/mappingTab"), 0).toInt());
    const QString maximised = settings.value(QStringLiteral("layout2/maximised")).toString();
    for (QWidget *pane : {static_cast<QWidget *>(m_runtimeChart), static_cast<QWidget *>(m_rooflineChart),
                          static_cast<QWidget *>(m_mappingTabs), static_cast<QWidget *>(m_table)})
        if (!maximised.isEmpty() && pane->objectName() == maximised)
            setMaximisedView(pane);
    m_table->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/resultsHeader")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Measured runs are in the autosave already; only ask when a named file would lose them.
    if (!m_session->filePath().isEmpty() && !confirmDiscard()) {
        event->ignore();
        return;
    }
    if (m_options.restoreSettings)
        saveSettings();
    event->accept();
}

} // namespace gemmscope
