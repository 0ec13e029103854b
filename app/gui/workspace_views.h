// The views each workspace holds, built and named in one place (the window only wires them):
// the Kernel workspace's diagrams of the configured stage, one tab each — the tile map (or, where
// none can be drawn, the model's summary), coalescing, bank conflicts, the CUDA source and the
// machine code; the Sweep workspace's parameter grid and problem sizes, each with the controller
// that runs its sweeps (app/core/sweep_controller.h; the tab widget owns it), over the one run bar
// they share (widgets/sweep_run_bar.h); the Counters view. The
// access diagrams and the counters scroll in a narrow pane instead of being cut.
#pragma once

class QScrollArea;
class QStackedWidget;
class QTabWidget;
class QWidget;

namespace gemmscope {

class AccessCheckView;
class BankConflictView;
class BaselineCompareView;
class CoalescingView;
class CompilePanel;
class MachineCodeView;
class MemoryInstructionView;
class ModelSummaryView;
class RunAgainstCublasView;
class Session;
class SizeSweepView;
class SweepController;
class SweepRunBar;
class SweepView;
class StageSourceView;
class TileMapView;

struct KernelTabs {
    QTabWidget *tabs;
    QStackedWidget *mappingStack; // the tile map, or the summary standing in for it
    TileMapView *tileMap;
    ModelSummaryView *mappingText;
    CoalescingView *coalescing;
    BankConflictView *bankConflicts;
    StageSourceView *source;
    MachineCodeView *machineCode;
    CompilePanel *compile; // the last compile's report (Ctrl+B)

    static KernelTabs build();
};

struct SweepTabs {
    QWidget *page; // the workspace: the tabs over the run bar they share
    QTabWidget *tabs;
    SweepRunBar *runBar; // runners, Start, Cancel, Resume, Export… of the tab shown
    SweepView *grid;
    SizeSweepView *sizes;
    SweepController *gridSweeps; // what grid shows and commands
    SweepController *sizeSweeps; // what sizes shows and commands

    static SweepTabs build(Session *session);
};

// The Counters workspace's right side: the selected run's counters against the model (and under
// them its time and traffic against cuBLAS), the profile's memory instructions one by one, and
// "Why not cuBLAS?", one tab each.
struct CountersPane {
    QTabWidget *pane;
    QWidget *countersPage; // the Counters tab: the access table over the run against cuBLAS
    AccessCheckView *counters;
    RunAgainstCublasView *againstCublas;
    MemoryInstructionView *memory;
    BaselineCompareView *whyNotCublas;

    static CountersPane build();
};

// `view` in a scroll area that never scrolls sideways and is never narrower than the view's own
// minimum (the parameter panel: it would be cut at its right edge).
QScrollArea *inVerticalScrollArea(QWidget *view, const char *name);

} // namespace gemmscope
