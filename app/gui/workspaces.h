// The window's workspaces: one task each, as Qt Creator's modes or Nsight Compute's
// pages, instead of every view crammed into one arrangement.
//   Ladder   — the runtime chart and the roofline side by side over the full-width results table;
//   Kernel   — tile map, coalescing, bank conflicts, source and SASS of the configured kernel;
//   Counters — the runs beside the selected run's hardware counters against the model;
//   Sweep    — the parameter grid and the problem-size sweep;
//   Editor   — the user's own kernels in a code editor (editor_workspace.h).
// The parameter panel sits at the left of the workspace it serves (Kernel by default; Alt+0 shows
// or hides it in any of them: the Sweep form has its own stage, size and budget, and one stage
// picker and one budget beside each other read as a choice between two) and the selection is the window's, so
// the selected run and the configuration follow from one workspace to the next. Any pane maximises (Ctrl+M).
#pragma once

#include <QByteArray>
#include <QList>
#include <QPointer>
#include <QWidget>
#include <array>
#include <functional>

class QSplitter;
class QStackedWidget;
class QTabWidget;
class QVBoxLayout;

namespace gemmscope {

enum class Workspace { Ladder, Kernel, Counters, Sweep, Editor };
constexpr std::array<Workspace, 5> kWorkspaces{Workspace::Ladder, Workspace::Kernel, Workspace::Counters,
                                               Workspace::Sweep, Workspace::Editor};

// The views the workspaces arrange; the window builds them, the workspaces only place them.
struct WorkspaceViews {
    QWidget *panel = nullptr;        // the parameter panel (in its scroll area)
    QWidget *runtimeChart = nullptr; // Ladder
    QWidget *roofline = nullptr;
    QWidget *resultsTable = nullptr;
    QTabWidget *kernelTabs = nullptr; // Kernel: one tab per diagram
    QWidget *runList = nullptr;       // Counters: the runs to choose from
    QWidget *counters = nullptr;      // Counters: the selected run's counters
    QWidget *sweeps = nullptr;        // Sweep: parameter grid | problem sizes
    QWidget *editor = nullptr;        // Editor: the user's kernels
};

class Workspaces : public QWidget {
    Q_OBJECT
public:
    explicit Workspaces(const WorkspaceViews &views, QWidget *parent = nullptr);

    static QString title(Workspace workspace);       // "Ladder"
    static QString description(Workspace workspace); // a sentence for tooltips and the Help page
    static QString key(Workspace workspace);         // "ladder": settings and --workspace

    Workspace current() const { return m_current; }
    void setCurrent(Workspace workspace);
    QWidget *page(Workspace workspace) const;
    // The workspace that holds `widget`, or the current one when none does.
    Workspace workspaceOf(const QWidget *widget) const;

    bool panelShown() const; // in the current workspace
    void setPanelShown(bool shown);

    // Shows only `pane` (a Ladder chart, the results table, or a whole workspace page) and hides
    // the panel; nullptr brings the arrangement back.
    void setMaximised(QWidget *pane);
    QWidget *maximised() const { return m_maximised; }
    // The pane Ctrl+M maximises for a view: its own Ladder pane, else its workspace's page.
    QWidget *paneOf(const QWidget *view) const;

    // The actions that switch workspaces ("actionWorkspaceLadder", Ctrl+1 … Ctrl+5, checked for
    // the current one), shown as the tabs over the pages (workspace_tab_bar.h), "actionShowPanel" (Alt+0),
    // "actionMaximiseView" (Ctrl+M: the pane of the view `focused` names) and "actionResetLayout", added to
    // `window`.
    void addActionsTo(QWidget *window, std::function<QWidget *()> focused);

    // Splitter shares for a window of `size` that has no saved arrangement.
    void applyFirstStartSizes(const QSize &size);
    // The current workspace, each one's panel choice, the splitters and the maximised pane.
    QByteArray saveState() const;
    bool restoreState(const QByteArray &state); // false (and nothing changed) for an unreadable state

signals:
    // Before the page of a new current workspace shows: what it will show is best chosen while it
    // is hidden, where a label's new text costs no layout (one pass follows when it shows).
    void aboutToShow(gemmscope::Workspace workspace);
    void currentChanged(gemmscope::Workspace workspace);
    void panelShownChanged(bool shown);
    void maximisedChanged(QWidget *pane);
    void layoutResetRequested(); // Reset Layout: the window applies its first-start sizes

private:
    void applyPanelVisibility();
    QList<QWidget *> maximisablePanes() const; // in saveState's order

    WorkspaceViews m_views;
    QVBoxLayout *m_layout = nullptr; // the workspace tabs over the main splitter
    QSplitter *m_mainSplitter;       // panel | pages
    QStackedWidget *m_pages;         // one page per workspace, in kWorkspaces order
    QSplitter *m_ladderSplitter;     // charts over the table
    QSplitter *m_chartSplitter;      // runtime | roofline
    QSplitter *m_countersSplitter;   // runs | counters
    Workspace m_current = Workspace::Ladder;
    std::array<bool, kWorkspaces.size()> m_panelShown{false, true, false, false, false}; // per workspace
    QPointer<QWidget> m_maximised;
};

} // namespace gemmscope
