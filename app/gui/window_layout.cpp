#include "window_layout.h"

#include "access_check_view.h"
#include "bank_conflict_view.h"
#include "baseline_compare_view.h"
#include "coalescing_view.h"
#include "editor_workspace.h"
#include "machine_code_view.h"
#include "memory_instruction_view.h"
#include "model_summary_view.h"
#include "notice_bar.h"
#include "parameter_panel.h"
#include "results_tables.h"
#include "roofline_chart.h"
#include "run_against_cublas_view.h"
#include "runtime_chart.h"
#include "size_sweep_view.h"
#include "stage_source_view.h"
#include "sweep_view.h"
#include "tile_map_view.h"
#include "view_registry.h"

#include <QCoreApplication>
#include <QMainWindow>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace gemmscope {

WindowLayout WindowLayout::build(QMainWindow *window, Session *session, QAbstractItemModel *sortedModel,
                                 RunSelection *selection, const QString &kernelAutosavePath)
{
    WindowLayout v;
    v.panel = new ParameterPanel;
    v.panel->setObjectName(QStringLiteral("parameterPanel"));
    v.runtimeChart = new RuntimeChart;
    v.runtimeChart->setObjectName(QStringLiteral("runtimeChart"));
    v.runtimeChart->setMinimumSize(280, 220);
    v.roofline = new RooflineChart;
    v.roofline->setObjectName(QStringLiteral("rooflineView"));
    v.roofline->setMinimumSize(280, 220);
    v.tables = new ResultsTables(sortedModel, selection, window);
    v.counters = CountersPane::build();
    v.sweeps = SweepTabs::build(session);
    v.kernel = KernelTabs::build();
    v.editor = new EditorWorkspace({.autosavePath = kernelAutosavePath});

    v.workspaces = new Workspaces({.panel = inVerticalScrollArea(v.panel, "parameterScroll"),
                                   .runtimeChart = v.runtimeChart,
                                   .roofline = v.roofline,
                                   .resultsTable = v.tables->full(),
                                   .kernelTabs = v.kernel.tabs,
                                   .runList = v.tables->runList(),
                                   .counters = v.counters.pane,
                                   .sweeps = v.sweeps.page,
                                   .editor = v.editor});
    v.workspaces->setObjectName(QStringLiteral("workspaces"));
    v.sessionNotice = new NoticeBar(NoticeBar::Kind::Information);
    v.sessionNotice->setObjectName(QStringLiteral("sessionNotice"));
    v.autosaveNotice = new NoticeBar(NoticeBar::Kind::Warning);
    v.autosaveNotice->setObjectName(QStringLiteral("autosaveNotice"));
    v.settingsNotice = new NoticeBar(NoticeBar::Kind::Warning);
    v.settingsNotice->setObjectName(QStringLiteral("settingsNotice"));
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(v.autosaveNotice);
    layout->addWidget(v.settingsNotice);
    layout->addWidget(v.sessionNotice);
    layout->addWidget(v.workspaces, 1);
    window->setCentralWidget(central);
    return v;
}

void WindowLayout::registerViews(ViewRegistry *registry) const
{
    for (RunView *view : QList<RunView *>{runtimeChart, roofline, kernel.coalescing, kernel.bankConflicts,
                                          counters.counters, counters.againstCublas, counters.memory,
                                          counters.whyNotCublas, kernel.source, kernel.machineCode})
        registry->add(view);
    registry->add(sweeps.grid); // Ctrl+E on the Sweep workspace writes the heatmap's print layout
    registry->add(sweeps.sizes);
    registry->add(kernel.tileMap, kernel.mappingStack); // the pane shows the map or, where none, its summary
    registry->add(kernel.mappingText, kernel.mappingStack);
    registry->addExportOnly(resultsTable(), QCoreApplication::translate("WindowLayout", "the results table"));
    registry->setFocused(runtimeChart);
}

QTableView *WindowLayout::resultsTable() const
{
    return tables->full();
}

QWidget *WindowLayout::currentKernelView() const
{
    QWidget *page = kernel.tabs->currentWidget();
    if (auto *scroll = qobject_cast<QScrollArea *>(page))
        return scroll->widget();
    return page;
}

bool WindowLayout::sassShown() const
{
    return workspaces->current() == Workspace::Kernel && kernel.tabs->currentWidget() == kernel.machineCode;
}

QWidget *WindowLayout::mainView(Workspace workspace, const ViewRegistry &registry) const
{
    switch (workspace) {
    case Workspace::Ladder:
        return runtimeChart;
    case Workspace::Kernel:
        return registry.viewContaining(currentKernelView());
    case Workspace::Counters:
        return counters.counters;
    case Workspace::Sweep:
        break;
    case Workspace::Editor:
        return nullptr; // its kernels leave through Export Kernel…, not Ctrl+E
    }
    return sweeps.tabs->currentWidget();
}

bool WindowLayout::showView(const QString &title) const
{
    for (Workspace w : kWorkspaces)
        if (Workspaces::title(w).compare(title, Qt::CaseInsensitive) == 0) {
            workspaces->setCurrent(w);
            return true;
        }
    // A tab of the Kernel workspace or of the Counters workspace's right side ("Why not cuBLAS?").
    const std::pair<Workspace, QTabWidget *> tabSets[] = {{Workspace::Kernel, kernel.tabs},
                                                          {Workspace::Counters, counters.pane}};
    for (const auto &[workspace, tabs] : tabSets)
        for (int tab = 0; tab < tabs->count(); ++tab)
            if ((tabs->tabText(tab).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) == 0 ||
                 tabs->widget(tab)
                     ->property("tabAliases")
                     .toStringList()
                     .contains(title, Qt::CaseInsensitive)) &&
                tabs->isTabEnabled(tab)) {
                workspaces->setCurrent(workspace);
                tabs->setCurrentIndex(tab);
                return true;
            }
    return false;
}

} // namespace gemmscope
