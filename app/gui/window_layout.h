// The window's views, built once and placed: the parameter panel beside the workspaces (the
// Ladder's charts over the full results table, the Kernel tabs, the Counters run list and counters,
// the Sweep tabs), under the autosave, settings and session notice bars. This unit builds, places
// and registers the views and says which view each workspace is about; the window wires them to the
// session, the selection and the actions (main_window.cpp).
#pragma once

#include "workspace_views.h"
#include "workspaces.h"

class QAbstractItemModel;
class QMainWindow;
class QTableView;

namespace gemmscope {

class EditorWorkspace;
class NoticeBar;
class ParameterPanel;
class ResultsTables;
class RooflineChart;
class RunSelection;
class RuntimeChart;
class Session;
class ViewRegistry;

struct WindowLayout {
    ParameterPanel *panel = nullptr;
    RuntimeChart *runtimeChart = nullptr;
    RooflineChart *roofline = nullptr;
    ResultsTables *tables = nullptr; // the Ladder's full table and the Counters run list
    KernelTabs kernel{};
    CountersPane counters{};
    SweepTabs sweeps{};
    EditorWorkspace *editor = nullptr; // the user's kernels
    Workspaces *workspaces = nullptr;
    NoticeBar *sessionNotice = nullptr;  // the session's description when it opens
    NoticeBar *autosaveNotice = nullptr; // why runs are not autosaved now
    NoticeBar *settingsNotice = nullptr; // why the settings file is not read or not saved

    // Builds every view and makes the notices over the workspaces `window`'s central widget. The
    // tables show `sortedModel` and follow `selection`; the editor's buffers autosave to
    // `kernelAutosavePath` (empty: not at all).
    static WindowLayout build(QMainWindow *window, Session *session, QAbstractItemModel *sortedModel,
                              RunSelection *selection, const QString &kernelAutosavePath);

    // Every view into `registry`: the views that get the session's runs (the tile map and its
    // summary exported as their stack), the results table for CSV/JSON; the runtime chart is
    // what Ctrl+E writes first.
    void registerViews(ViewRegistry *registry) const;

    QTableView *resultsTable() const; // the Ladder's, every column
    // The view on the Kernel workspace's current tab (inside its scroll area where it has one).
    QWidget *currentKernelView() const;
    bool sassShown() const; // the Kernel workspace is shown at its SASS tab
    // The view `workspace` is about: what Ctrl+E writes there until another view is clicked.
    QWidget *mainView(Workspace workspace, const ViewRegistry &registry) const;
    // Shows the workspace or Kernel tab of that title ("Counters", "Bank conflicts", any case);
    // false if there is none, or the tab is off for the configured stage.
    bool showView(const QString &title) const;
};

} // namespace gemmscope
