#include "workspace_views.h"

#include "access_check_view.h"
#include "bank_conflict_view.h"
#include "baseline_compare_view.h"
#include "coalescing_view.h"
#include "compile_panel.h"
#include "machine_code_view.h"
#include "memory_instruction_view.h"
#include "model_summary_view.h"
#include "page_scroll_area.h"
#include "presized_tab_widget.h"
#include "run_against_cublas_view.h"
#include "size_sweep_view.h"
#include "stage_source_view.h"
#include "sweep_controller.h"
#include "sweep_run_bar.h"
#include "sweep_view.h"
#include "tile_map_view.h"

#include <QCoreApplication>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

QString tabTr(const char *text)
{
    return QCoreApplication::translate("KernelTabs", text);
}

template <typename View> View *named(View *view, const char *name)
{
    view->setObjectName(QLatin1String(name));
    return view;
}

QScrollArea *scrolled(QWidget *view)
{
    return new PageScrollArea(view);
}

} // namespace

KernelTabs KernelTabs::build()
{
    KernelTabs k{};
    k.tileMap = named(new TileMapView, "tileMapView");
    k.mappingText = new ModelSummaryView(ModelSummaryView::Kind::Mapping);
    k.mappingStack = named(new QStackedWidget, "mappingView");
    k.mappingStack->addWidget(k.tileMap);
    k.mappingStack->addWidget(k.mappingText);
    k.coalescing = named(new CoalescingView, "coalescingView");
    k.bankConflicts = named(new BankConflictView, "bankConflictView");
    k.source = named(new StageSourceView, "stageSourceView");
    k.machineCode = named(new MachineCodeView, "machineCodeView");
    k.compile = new CompilePanel; // named "compilePanel" by itself
    k.tabs = named(new PresizedTabWidget, "mappingTabs");
    k.tabs->setDocumentMode(true);
    k.tabs->addTab(k.mappingStack, tabTr("Tile map"));
    k.tabs->addTab(scrolled(k.coalescing), tabTr("Coalescing"));
    k.tabs->addTab(scrolled(k.bankConflicts), tabTr("Bank conflicts"));
    k.tabs->addTab(k.source, tabTr("Source"));
    k.tabs->addTab(k.machineCode, tabTr("SASS"));
    k.tabs->addTab(k.compile, tabTr("Compile"));
    // "PTX" while the PTX stands in for SASS (no nvdisasm): the tab names what it shows.
    QObject::connect(k.machineCode, &MachineCodeView::levelNameChanged, k.tabs,
                     [tabs = k.tabs, view = k.machineCode](const QString &name) {
                         tabs->setTabText(tabs->indexOf(view), name);
                     });
    k.tabs->setTabToolTip(0, tabTr("Which thread of which warp owns, loads and stores what"));
    k.tabs->setTabToolTip(1,
                          tabTr("Each warp instruction's 32 addresses and the 32-byte sectors they touch"));
    k.tabs->setTabToolTip(2, tabTr("Shared-memory banks each warp instruction touches, and its conflicts"));
    k.tabs->setTabToolTip(3,
                          tabTr("The stage's CUDA source, and its diff from the stage it was written from"));
    k.tabs->setTabToolTip(
        4, tabTr("PTX and SASS of the configured kernel, the hot loop and its instruction mix"));
    k.tabs->setTabToolTip(5,
                          tabTr("The last compile (Ctrl+B): registers, spills, shared memory, occupancy and "
                                "its limiter, the ptxas log"));
    return k;
}

SweepTabs SweepTabs::build(Session *session)
{
    SweepTabs s{};
    s.tabs = named(new PresizedTabWidget, "sweepModes");
    // Children of the tabs, made after them: deleted after the views, which let go of them first.
    s.gridSweeps = new SweepController(session, SweepKind::Grid, s.tabs);
    s.sizeSweeps = new SweepController(session, SweepKind::Sizes, s.tabs);
    s.grid = named(new SweepView(s.gridSweeps, SweepViewBase::RunControls::Shared), "sweepView");
    s.sizes = named(new SizeSweepView(s.sizeSweeps, SweepViewBase::RunControls::Shared), "sizeSweepView");
    s.tabs->setDocumentMode(true);
    s.tabs->addTab(s.grid, tabTr("Parameter grid"));
    s.tabs->addTab(s.sizes, tabTr("Problem sizes"));
    s.tabs->setTabToolTip(
        0, tabTr("Two of a stage's parameters swept: every parameter set a cell of a heatmap"));
    s.tabs->setTabToolTip(1, tabTr("TFLOP/s against problem size for chosen presets and cuBLAS"));
    // One runner command, one Start: the bar under the tabs acts on the tab shown.
    s.runBar = new SweepRunBar(s.tabs, {s.grid, s.sizes});
    s.page = named(new QWidget, "sweepWorkspace");
    auto *column = new QVBoxLayout(s.page);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(s.tabs, 1);
    column->addWidget(s.runBar);
    return s;
}

CountersPane CountersPane::build()
{
    CountersPane c{};
    c.counters = named(new AccessCheckView, "accessCheckView");
    c.againstCublas = new RunAgainstCublasView; // named "runAgainstCublasView" by itself
    c.againstCublas->setTitle(tabTr("Time and traffic against cuBLAS"));
    // The access table is short (4 to 9 rows; alone, it left half the pane blank at 1920x1080):
    // under it, the same run's time, traffic and occupancy beside cuBLAS's and the traffic model's.
    c.countersPage = named(new QWidget, "countersPage");
    auto *column = new QVBoxLayout(c.countersPage);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(c.counters);
    auto *facts = new QVBoxLayout; // inset as the access table's text is
    const QMargins inset = c.counters->layout()->contentsMargins();
    facts->setContentsMargins(inset.left(), 0, inset.right(), inset.bottom());
    facts->addWidget(c.againstCublas);
    column->addLayout(facts);
    column->addStretch(1);
    c.memory = named(new MemoryInstructionView, "memoryInstructionView");
    c.whyNotCublas = named(new BaselineCompareView, "baselineCompareView");
    c.pane = named(new PresizedTabWidget, "countersTabs");
    c.pane->setDocumentMode(true);
    // Named by what it shows, not "Counters" again inside the Counters workspace (issue 38).
    c.pane->addTab(scrolled(c.countersPage), tabTr("Measured vs model"));
    c.pane->addTab(c.memory, tabTr("Memory per instruction"));
    c.pane->addTab(scrolled(c.whyNotCublas), tabTr("Why not cuBLAS?"));
    c.pane->setTabToolTip(
        0, tabTr("The selected run's hardware counters against the access model, and its time and traffic "
                 "against cuBLAS"));
    c.pane->setTabToolTip(1,
                          tabTr("From a profile: each global and shared load and store against its ideal"));
    c.pane->setTabToolTip(2, tabTr("From two profiles: where this preset and cuBLAS differ"));
    return c;
}

QScrollArea *inVerticalScrollArea(QWidget *view, const char *name)
{
    auto *scroll = named(new QScrollArea, name);
    scroll->setWidget(view);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(view->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth());
    return scroll;
}

} // namespace gemmscope
