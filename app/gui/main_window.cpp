#include "main_window.h"

#include "access_check_view.h"
#include "access_model.h"
#include "app_resources.h"
#include "bank_conflict_view.h"
#include "coalescing_view.h"
#include "mapping_model.h"
#include "model_summary_view.h"
#include "parameter_panel.h"
#include "plot_export.h"
#include "recent_files.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "run_selection.h"
#include "runner_client.h"
#include "runtime_chart.h"
#include "session.h"
#include "stage_source_view.h"
#include "tile_map_view.h"

#include <QAction>
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
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gemmscope {

namespace {

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
      m_model(new ResultsModel(m_session, this)), m_proxy(new QSortFilterProxyModel(this)),
      m_selection(new RunSelection(this))
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

    if (options.startRunner) {
        m_runnerReason = tr("Starting the runner…");
        m_runner = new RunnerHost({}, this);
        RunnerClient *client = m_runner->client();
        connect(client, &RunnerClient::runnerStatusChanged, this, &MainWindow::showRunnerStatus);
        connect(client, &RunnerClient::resultAvailable, this, &MainWindow::onResult);
        connect(client, &RunnerClient::ceilingsAvailable, this, [this](const QJsonObject &event) {
            const QString gpu =
                event.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("name")).toString();
            m_session->setCeilings(gpu, ceilingsEntry(event, QStringLiteral("measured")));
        });
        connect(client, &RunnerClient::runFailed, this, &MainWindow::onFailed);
        connect(client, &RunnerClient::jobsReplaced, this, &MainWindow::onJobsReplaced);
        connect(client, &RunnerClient::progress, this, &MainWindow::onProgress);
        connect(client, &RunnerClient::runStarted, this, [this](const QString &id) {
            if (const RunRecord *r = m_session->find(id)) {
                RunRecord running = *r;
                running.status = RunStatus::Running;
                m_session->addOrUpdate(running);
            }
            m_jobLabel->setText(tr("Running %1").arg(id));
        });
        connect(client, &RunnerClient::idle, this, [this] {
            m_jobLabel->clear();
            m_progress->setVisible(false);
        });
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
    delete m_runner; // stops the runner thread before the session it reports into goes away
    m_runner = nullptr;
}

RunnerClient *MainWindow::runnerClient() const
{
    return m_runner ? m_runner->client() : nullptr;
}

void MainWindow::buildViews()
{
    m_panel = new ParameterPanel;
    auto *panelScroll = new QScrollArea;
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setMinimumWidth(300);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

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

    // The charts carry their own titles; the mapping pane is named by its tabs.
    m_chartSplitter = new QSplitter(Qt::Horizontal);
    m_chartSplitter->setObjectName(QStringLiteral("chartSplitter"));
    m_chartSplitter->addWidget(m_runtimeChart);
    m_chartSplitter->addWidget(m_rooflineChart);
    m_chartSplitter->addWidget(m_mappingTabs);
    m_chartSplitter->setChildrenCollapsible(false);
    for (int i = 0; i < 3; ++i) {
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

    m_rightSplitter = new QSplitter(Qt::Vertical);
    m_rightSplitter->setObjectName(QStringLiteral("rightSplitter"));
    m_rightSplitter->addWidget(m_chartSplitter);
    m_rightSplitter->addWidget(m_table);
    m_rightSplitter->setStretchFactor(0, 3);
    m_rightSplitter->setStretchFactor(1, 2);
    m_rightSplitter->setChildrenCollapsible(false);

    m_mainSplitter = new QSplitter(Qt::Horizontal);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_mainSplitter->addWidget(panelScroll);
    m_mainSplitter->addWidget(m_rightSplitter);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setChildrenCollapsible(false);
    setCentralWidget(m_mainSplitter);

    m_focusedView = m_runtimeChart;
    new FocusTracker(m_runtimeChart, &m_focusedView);
    new FocusTracker(m_rooflineChart, &m_focusedView);
    new FocusTracker(m_mappingStack, &m_focusedView);
    new FocusTracker(m_accessCheck, &m_focusedView);

    connect(m_runtimeChart, &RuntimeChart::runClicked, m_selection, &RunSelection::select);
    connect(m_rooflineChart, &RooflineChart::runClicked, m_selection, &RunSelection::select);
    connect(m_panel, &ParameterPanel::configurationChanged, this, &MainWindow::showConfig);
    connect(m_panel, &ParameterPanel::validityChanged, this, &MainWindow::updateRunActions);
    connect(m_panel, &ParameterPanel::runRequested, this, &MainWindow::runCurrent);
    showConfig(m_panel->config());
}

void MainWindow::showConfig(const RunConfig &config)
{
    // The model-driven views follow the panel at once, before anything runs.
    if (violations(config.stage, config.params, config.size).empty())
        m_rooflineChart->setPredicted(config.stage, config.params, config.size);
    else
        m_rooflineChart->clearPredicted();
    m_mappingText->setConfig(config);
    m_stageSource->setStage(config.stage); // every stage has something to say, cuBLAS included
    const KernelShapeResult shape = kernelShape(config.stage, config.params);
    if (shape.shape) {
        m_tileMap->setShape(*shape.shape);
        m_mappingStack->setCurrentWidget(m_tileMap);
        // The access views draw one interior block, the same at any size the tiles divide.
        AccessContext context;
        context.size = roundedUpToTiles(*shape.shape, config.size);
        m_coalescing->setShape(*shape.shape, context);
        m_bankConflicts->setStage(*shape.shape, context, 0);
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
    QAction *quit =
        make(QStringLiteral("actionQuit"), tr("&Quit"), QKeySequence(tr("Ctrl+Q")), [this] { close(); });
    QAction *run =
        make(QStringLiteral("actionRun"), tr("&Run"), QKeySequence(tr("Ctrl+R")), [this] { runCurrent(); });
    QAction *ladder = make(QStringLiteral("actionRunLadder"), tr("Run &Ladder"),
                           QKeySequence(tr("Ctrl+Shift+R")), [this] { runLadder(m_panel->config().size); });
    QAction *cancel = make(QStringLiteral("actionCancel"), tr("&Cancel Runs"), QKeySequence(Qt::Key_Escape),
                           [this] { cancelRuns(); });
    run->setToolTip(tr("Run the configured stage (Ctrl+R)"));
    ladder->setToolTip(tr("Run every preset of the ladder at the configured size (Ctrl+Shift+R)"));

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
    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(run);
    runMenu->addAction(ladder);
    runMenu->addAction(cancel);
    QToolBar *toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName(QStringLiteral("runToolBar"));
    toolbar->addAction(run);
    toolbar->addAction(ladder);
    toolbar->addAction(cancel);
    updateRecentMenu();
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
    const bool canRun = m_runnerAvailable && m_panel->isValid();
    action(QStringLiteral("actionRun"))->setEnabled(canRun);
    action(QStringLiteral("actionRunLadder"))->setEnabled(m_runnerAvailable);
    action(QStringLiteral("actionCancel"))->setEnabled(m_runnerAvailable);
    m_panel->setRunEnabledByRunner(m_runnerAvailable, m_runnerReason);
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
    m_runnerLabel->setText(m_runnerReason);
    m_runnerLabel->setToolTip(m_runnerReason);
    updateRunActions();
}

void MainWindow::addPendingRun(const QString &jobId, const RunRequest &request)
{
    RunRecord pending;
    pending.runId = jobId;
    pending.stage = QString::fromStdString(stageInfo(request.config.stage).key);
    pending.presetKey = request.config.presetKey;
    for (const auto &[name, value] : request.config.params)
        pending.params.insert(QString::fromStdString(name), value);
    pending.m = request.config.size.m;
    pending.n = request.config.size.n;
    pending.k = request.config.size.k;
    pending.flushL2 = request.config.timing.flushL2;
    if (!stageInfo(request.config.stage).isLibrary) { // what the request will ask (run_request.cpp)
        pending.scalarSharedReads = request.config.timing.scalarSharedReads;
        pending.maxBlocksPerSm = request.config.timing.maxBlocksPerSm;
        pending.smemCarveout = request.config.timing.smemCarveout;
    }
    pending.status = RunStatus::Queued;
    pending.origin = QStringLiteral("measured");
    pending.timestamp = QDateTime::currentDateTimeUtc();
    m_session->addOrUpdate(pending);
}

void MainWindow::runCurrent()
{
    if (!m_runner || !m_runnerAvailable || !m_panel->isValid())
        return;
    RunRequest request;
    request.tag = kInteractiveTag;
    request.config = m_panel->config();
    const QString id = m_runner->client()->submit(request);
    addPendingRun(id, request);
    m_selection->select(id);
}

QStringList MainWindow::runLadder(const ProblemSize &size)
{
    QStringList ids;
    if (!m_runner)
        return ids;
    for (const RunRequest &request : ladderRequests(size, m_panel->config().timing)) {
        const QString id = m_runner->client()->submit(request);
        addPendingRun(id, request);
        ids << id;
    }
    m_pendingLadder += ids;
    return ids;
}

void MainWindow::cancelRuns()
{
    if (m_runner)
        m_runner->client()->cancelAll();
}

void MainWindow::onResult(const RunRecord &record)
{
    m_session->addOrUpdate(record);
    if (m_selection->runId() == record.runId)
        selectRun(record.runId);
    if (m_pendingLadder.removeAll(record.runId) && m_pendingLadder.isEmpty())
        emit ladderFinished();
}

void MainWindow::onFailed(const RunRecord &record)
{
    // A run cancelled before it started never ran: it leaves no row behind.
    if (record.errorKind == QLatin1String("cancelled") && record.registers < 0 &&
        m_session->find(record.runId) && m_session->find(record.runId)->status == RunStatus::Queued)
        m_session->removeRun(record.runId);
    else
        m_session->addOrUpdate(record);
    statusBar()->showMessage(tr("Run %1 failed: %2").arg(record.runId, record.errorMessage), 8000);
    if (m_pendingLadder.removeAll(record.runId) && m_pendingLadder.isEmpty())
        emit ladderFinished();
}

void MainWindow::onJobsReplaced(const QStringList &ids)
{
    for (const QString &id : ids)
        m_session->removeRun(id);
}

void MainWindow::onProgress(const QString &id, const QString &phase, int done, int total)
{
    m_jobLabel->setText(tr("%1: %2").arg(id, phase));
    m_progress->setVisible(true);
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
}

void MainWindow::selectRun(const QString &runId)
{
    m_runtimeChart->setSelectedRun(runId);
    m_rooflineChart->setSelectedRun(runId);
    const RunRecord *run = m_session->find(runId);
    m_mappingText->setSelectedRun(run ? std::optional<RunRecord>(*run) : std::nullopt);
    m_accessCheck->setRun(run ? std::optional<RunRecord>(*run) : std::nullopt);
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
    const QJsonObject &ceilings = m_session->data().ceilings;
    const QList<RunRecord> &runs = m_session->runs();
    for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
        const QJsonObject entry = ceilings.value(it->gpuName).toObject();
        if (entry.isEmpty())
            continue;
        const QString when = entry.value(QStringLiteral("measured_at")).toString().left(10);
        const bool recorded = entry.value(QStringLiteral("origin")).toString() == QStringLiteral("recorded");
        m_rooflineChart->setMeasuredCeilings(
            entry.value(QStringLiteral("fma_tflops")).toDouble(),
            entry.value(QStringLiteral("dram_gbs")).toDouble(),
            tr("%1, %2%3").arg(it->gpuName, when, recorded ? tr(" (recorded)") : QString()));
        return;
    }
    m_rooflineChart->clearMeasuredCeilings();
}

void MainWindow::refreshViews()
{
    m_runtimeChart->setRuns(m_session->runs());
    m_rooflineChart->setRuns(m_session->runs());
    if (!m_selection->runId().isEmpty()) {
        m_runtimeChart->setSelectedRun(m_selection->runId());
        m_rooflineChart->setSelectedRun(m_selection->runId());
        // The selected run may just have finished (queued -> ok): its counters arrive now.
        const RunRecord *run = m_session->find(m_selection->runId());
        m_accessCheck->setRun(run ? std::optional<RunRecord>(*run) : std::nullopt);
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
    const int panelWidth = std::clamp(m_mainSplitter->widget(0)->sizeHint().width(), 340, 480);
    const int chartsWidth = std::max(900, width() - panelWidth);
    m_mainSplitter->setSizes({panelWidth, chartsWidth});
    m_chartSplitter->setSizes({chartsWidth / 3, chartsWidth / 3, chartsWidth / 3});
    m_rightSplitter->setSizes({height() * 3 / 5, height() * 2 / 5});
}

void MainWindow::loadDefaultSession()
{
    QString error;
    if (!m_session->loadDefault(&error))
        statusBar()->showMessage(tr("The embedded reference data could not be loaded: %1").arg(error));
}

void MainWindow::offerAutosaveRecovery()
{
    const QString own = m_session->autosaveFile();
    if (own.isEmpty())
        return;
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
    // Each chart exports itself (vector output where it can); anything else is rendered.
    if (view == m_runtimeChart)
        return m_runtimeChart->exportTo(path);
    if (view == m_rooflineChart)
        return m_rooflineChart->exportTo(path);
    if (view == m_mappingStack && m_mappingStack->currentWidget() == m_tileMap)
        return m_tileMap->exportTo(path);
    return exportWidget(view == m_mappingStack ? m_mappingStack->currentWidget() : view, path);
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
        exportView(m_focusedView ? m_focusedView.data() : m_runtimeChart, path);
    if (failure) {
        *error = *failure;
        return false;
    }
    return true;
}

QStringList MainWindow::exportViews(const QString &directory, QString *error, const QSize &printSize)
{
    QDir().mkpath(directory);
    QStringList written;
    if (printSize.isValid()) {
        // A visible widget gets its resize event (and its layout) at once; the splitter puts the
        // views back at the next layout pass, after the export.
        for (QWidget *view : {static_cast<QWidget *>(m_runtimeChart), static_cast<QWidget *>(m_rooflineChart),
                              static_cast<QWidget *>(m_mappingStack)})
            view->resize(printSize);
    }
    const QList<QPair<QString, QWidget *>> views{{QStringLiteral("runtime"), m_runtimeChart},
                                                 {QStringLiteral("roofline"), m_rooflineChart},
                                                 {QStringLiteral("mapping"), m_mappingStack}};
    for (const auto &[name, view] : views) {
        for (const char *suffix : {"png", "svg", "pdf"}) {
            const QString path =
                QDir(directory).filePath(QStringLiteral("%1.%2").arg(name, QLatin1String(suffix)));
            const std::optional<QString> failure = exportView(view, path);
            if (failure) {
                *error = *failure;
                return written;
            }
            written << path;
        }
    }
    // The runtime chart's second mode: measured speedups against the worklog's published ones.
    m_runtimeChart->setMode(RuntimeChart::Mode::Speedup);
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString path =
            QDir(directory).filePath(QStringLiteral("speedup.%1").arg(QLatin1String(suffix)));
        if (const auto failure = m_runtimeChart->exportTo(path)) {
            *error = *failure;
            break;
        }
        written << path;
    }
    m_runtimeChart->setMode(RuntimeChart::Mode::Runtime);
    return written;
}

void MainWindow::exportDialog()
{
    const QString filters = exportFileFilter() + tr(";;Results as CSV (*.csv);;Results as JSON (*.json)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QString(), filters);
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
    settings.setValue(QStringLiteral("window/rightSplitter"), m_rightSplitter->saveState());
    settings.setValue(QStringLiteral("window/chartSplitter"), m_chartSplitter->saveState());
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
    m_rightSplitter->restoreState(settings.value(QStringLiteral("window/rightSplitter")).toByteArray());
    m_chartSplitter->restoreState(settings.value(QStringLiteral("window/chartSplitter")).toByteArray());
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
