#include "workspaces.h"

#include "window_action.h"
#include "workspace_tab_bar.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDataStream>
#include <QIODevice>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

constexpr quint32 kStateMagic = 0x67735731; // "gsW1": the workspace state's own format
// 2: the maximised pane (1 is read as "none maximised"); 3: the Editor's panel choice (2 and 1
// have four workspaces, the Editor's panel then hidden).
constexpr int kStateVersion = 3;

int indexOf(Workspace workspace)
{
    return int(workspace);
}

QSplitter *splitter(Qt::Orientation orientation, const char *name)
{
    auto *s = new QSplitter(orientation);
    s->setObjectName(QLatin1String(name));
    s->setChildrenCollapsible(false);
    return s;
}

// The widget of `page` that had the keyboard last, else its first that takes it by Tab.
void focusInto(QWidget *page)
{
    if (QWidget *last = page->focusWidget()) {
        last->setFocus();
        return;
    }
    for (QWidget *w = page->nextInFocusChain(); w && w != page; w = w->nextInFocusChain())
        if ((w->focusPolicy() & Qt::TabFocus) && !w->focusProxy() && w->isVisibleTo(w->window()) &&
            w->isEnabled() && page->isAncestorOf(w)) {
            w->setFocus();
            return;
        }
}

} // namespace

Workspaces::Workspaces(const WorkspaceViews &views, QWidget *parent)
    : QWidget(parent), m_views(views), m_mainSplitter(splitter(Qt::Horizontal, "mainSplitter")),
      m_pages(new QStackedWidget), m_ladderSplitter(splitter(Qt::Vertical, "ladderSplitter")),
      m_chartSplitter(splitter(Qt::Horizontal, "chartSplitter")),
      m_countersSplitter(splitter(Qt::Horizontal, "countersSplitter"))
{
    m_pages->setObjectName(QStringLiteral("workspacePages"));

    // Ladder: the two charts side by side in equal shares (their size hints — legend, combo
    // widths — must not decide the split; the policy first, setStretchFactor() writes into it),
    // over the results table at the full width, so that every column is whole.
    for (QWidget *chart : {views.runtimeChart, views.roofline}) {
        chart->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
        m_chartSplitter->addWidget(chart);
    }
    m_chartSplitter->setStretchFactor(0, 1);
    m_chartSplitter->setStretchFactor(1, 1);
    m_ladderSplitter->addWidget(m_chartSplitter);
    m_ladderSplitter->addWidget(views.resultsTable);
    m_ladderSplitter->setStretchFactor(0, 3);
    m_ladderSplitter->setStretchFactor(1, 2);

    // Counters: pick a run on the left, read its counters on the right. A wider window widens the
    // counters, whose sentences wrap to many lines where narrow; the run list (code, stage, time
    // and speed once the columns with one value on every row are hidden) keeps its width.
    m_countersSplitter->addWidget(views.runList);
    m_countersSplitter->addWidget(views.counters);
    m_countersSplitter->setStretchFactor(0, 0);
    m_countersSplitter->setStretchFactor(1, 1);

    for (Workspace w : kWorkspaces) {
        QWidget *page = w == Workspace::Ladder     ? static_cast<QWidget *>(m_ladderSplitter)
                        : w == Workspace::Kernel   ? static_cast<QWidget *>(views.kernelTabs)
                        : w == Workspace::Counters ? static_cast<QWidget *>(m_countersSplitter)
                        : w == Workspace::Editor   ? views.editor
                                                   : views.sweeps;
        page->setProperty("workspace", key(w));
        m_pages->addWidget(page);
    }

    m_mainSplitter->addWidget(views.panel);
    m_mainSplitter->addWidget(m_pages);
    m_mainSplitter->setStretchFactor(1, 1);
    m_layout = new QVBoxLayout(this); // the workspace tabs over it (addActionsTo)
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);
    m_layout->addWidget(m_mainSplitter, 1);
    applyPanelVisibility();
}

QString Workspaces::title(Workspace workspace)
{
    switch (workspace) {
    case Workspace::Ladder:
        return tr("Ladder");
    case Workspace::Kernel:
        return tr("Kernel");
    case Workspace::Counters:
        return tr("Counters");
    case Workspace::Sweep:
        return tr("Sweep");
    case Workspace::Editor:
        return tr("Editor");
    }
    return {};
}

QString Workspaces::description(Workspace workspace)
{
    switch (workspace) {
    case Workspace::Ladder:
        return tr("Every run: runtimes against cuBLAS and the worklog, the roofline, the results table");
    case Workspace::Kernel:
        return tr("The configured kernel: which thread owns and loads what, coalescing, bank conflicts, "
                  "source, SASS");
    case Workspace::Counters:
        return tr("The selected run's hardware counters against the access model");
    case Workspace::Sweep:
        return tr("A stage's parameter space as a heatmap, and TFLOP/s against problem size");
    case Workspace::Editor:
        return tr("Your own kernel: a copy of a stage or a blank one, edited, checked as you type, compiled "
                  "and run when you ask");
    }
    return {};
}

void Workspaces::addActionsTo(QWidget *window, std::function<QWidget *()> focused)
{
    auto *group = new QActionGroup(this);
    QList<QAction *> switches;
    int number = 1;
    for (Workspace w : kWorkspaces) {
        const QByteArray name = (QStringLiteral("actionWorkspace") + title(w)).toLatin1();
        QAction *a =
            addWindowAction(window, name.constData(), title(w), QKeySequence(tr("Ctrl+%1").arg(number++)));
        a->setCheckable(true);
        a->setChecked(w == m_current);
        a->setToolTip(tr("%1 (%2)").arg(description(w), a->shortcut().toString(QKeySequence::NativeText)));
        a->setStatusTip(a->toolTip());
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, w] { setCurrent(w); });
        connect(this, &Workspaces::currentChanged, a, [a, w](Workspace now) { a->setChecked(now == w); });
        switches << a;
    }
    // The switches as tabs on a row of their own over the pages, not beside the tool bar's commands.
    m_layout->insertWidget(0, new WorkspaceTabBar(switches, this));
    QAction *panel =
        addWindowAction(window, "actionShowPanel", tr("&Parameter Panel"), QKeySequence(tr("Alt+0")));
    // A toggle named after what it toggles: pressed (checked) means the panel is shown. "Show …"
    // pressed while the panel showed read as a command not yet done.
    panel->setCheckable(true);
    panel->setChecked(panelShown());
    panel->setToolTip(tr("The stage and parameter panel beside this workspace: pressed while it is shown; "
                         "click (Alt+0) to show or hide it"));
    connect(panel, &QAction::triggered, this, &Workspaces::setPanelShown);
    connect(this, &Workspaces::panelShownChanged, panel, &QAction::setChecked);

    QAction *maximise =
        addWindowAction(window, "actionMaximiseView", tr("&Maximise View"), QKeySequence(tr("Ctrl+M")));
    maximise->setCheckable(true);
    maximise->setToolTip(tr("Show only the view you last clicked; again to bring the others back (Ctrl+M)"));
    connect(maximise, &QAction::triggered, this, [this, focused] {
        // The view clicked last, when it is in this workspace; else this workspace's page (never a
        // jump to another workspace).
        QWidget *view = focused();
        setMaximised(m_maximised ? nullptr
                     : view && workspaceOf(view) == m_current && page(m_current)->isAncestorOf(view)
                         ? paneOf(view)
                         : page(m_current));
    });
    connect(this, &Workspaces::maximisedChanged, maximise, [maximise](QWidget *pane) {
        maximise->setChecked(pane != nullptr);
        maximise->setText(pane ? tr("Restore &Arrangement") : tr("&Maximise View"));
    });
    QAction *reset = addWindowAction(window, "actionResetLayout", tr("&Reset Layout"));
    reset->setToolTip(tr("Put every view back where GemmScope first placed it"));
    connect(reset, &QAction::triggered, this, [this] {
        setMaximised(nullptr);
        emit layoutResetRequested();
    });
}

QString Workspaces::key(Workspace workspace)
{
    return title(workspace).toLower();
}

void Workspaces::setCurrent(Workspace workspace)
{
    if (m_maximised && workspaceOf(m_maximised) != workspace)
        setMaximised(nullptr);
    const bool changed = workspace != m_current;
    m_current = workspace;
    if (changed)
        emit aboutToShow(workspace);
    // Neither page is laid out at a width it will not keep: the old one is hidden before the
    // panel comes or goes (else it was laid out again, narrower or wider, just before it hid), and
    // the new one shown after the pages took their new width (else it was laid out twice: the
    // Counters tables at 1,221 px, then at 1,600).
    QWidget *previous = m_pages->currentWidget();
    QWidget *next = page(workspace);
    const QWidget *focus = QApplication::focusWidget();
    const bool focusWasOnPrevious = previous && focus && previous->isAncestorOf(focus);
    if (previous && previous != next)
        previous->hide();
    applyPanelVisibility();
    m_mainSplitter->refresh(); // the pages' new width now, not at the next turn's layout
    m_pages->setCurrentIndex(indexOf(workspace));
    // As the stacked widget does when it hides the page itself: the keyboard stays on the pages.
    if (focusWasOnPrevious && previous != next)
        focusInto(next);
    if (changed)
        emit currentChanged(workspace);
}

QWidget *Workspaces::page(Workspace workspace) const
{
    return m_pages->widget(indexOf(workspace));
}

Workspace Workspaces::workspaceOf(const QWidget *widget) const
{
    for (Workspace w : kWorkspaces) {
        const QWidget *p = page(w);
        if (widget && (p == widget || p->isAncestorOf(widget)))
            return w;
    }
    return m_current;
}

bool Workspaces::panelShown() const
{
    return m_panelShown[std::size_t(indexOf(m_current))];
}

void Workspaces::setPanelShown(bool shown)
{
    if (m_maximised)
        setMaximised(nullptr);
    m_panelShown[std::size_t(indexOf(m_current))] = shown;
    applyPanelVisibility();
}

void Workspaces::applyPanelVisibility()
{
    m_views.panel->setVisible(panelShown() && !m_maximised);
    emit panelShownChanged(panelShown());
}

void Workspaces::setMaximised(QWidget *pane)
{
    if (pane == m_maximised)
        return;
    m_maximised = pane;
    if (pane && workspaceOf(pane) != m_current) {
        m_current = workspaceOf(pane);
        emit aboutToShow(m_current);
        m_pages->setCurrentIndex(indexOf(m_current));
        emit currentChanged(m_current);
    }
    // Within the Ladder a chart or the table alone; elsewhere the page is the pane.
    const QList<QWidget *> ladderPanes{m_views.runtimeChart, m_views.roofline, m_views.resultsTable};
    const bool ladderPane = ladderPanes.contains(pane);
    for (QWidget *p : ladderPanes)
        p->setVisible(!ladderPane || p == pane);
    m_chartSplitter->setVisible(!ladderPane || pane != m_views.resultsTable);
    applyPanelVisibility();
    emit maximisedChanged(pane);
}

QWidget *Workspaces::paneOf(const QWidget *view) const
{
    for (QWidget *p : {m_views.runtimeChart, m_views.roofline, m_views.resultsTable})
        if (view && (p == view || p->isAncestorOf(view)))
            return p;
    return page(view ? workspaceOf(view) : m_current);
}

void Workspaces::applyFirstStartSizes(const QSize &size)
{
    // The panel at the width its contents ask for (it does not scroll sideways).
    const int panelWidth = std::max(m_views.panel->minimumWidth(), std::min(size.width() / 5, 400));
    m_mainSplitter->setSizes({panelWidth, std::max(600, size.width() - panelWidth)});
    const int width = m_pages->width() > 0 ? m_pages->width() : size.width();
    m_chartSplitter->setSizes({width / 2, width / 2});
    // Charts get three fifths of the height; the table shows ~10 rows in the rest.
    m_ladderSplitter->setSizes({size.height() * 3 / 5, size.height() * 2 / 5});
    // The run list half the window where it is small (its stage cells hold the name and the
    // parameters whole), at most what its code, stage, time and speed need where it is wide. The
    // window's width, not the pages': before the first show they have no size of their own, and
    // the shares of a made-up width came out as halves.
    const int runList = std::min(size.width() / 2, 720);
    m_countersSplitter->setSizes({runList, size.width() - runList});
}

QByteArray Workspaces::saveState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << kStateMagic << qint32(kStateVersion) << qint32(indexOf(m_current));
    for (bool shown : m_panelShown)
        out << shown;
    for (const QSplitter *s : {m_mainSplitter, m_ladderSplitter, m_chartSplitter, m_countersSplitter})
        out << s->saveState();
    out << qint32(maximisablePanes().indexOf(m_maximised.data())); // -1: none
    return state;
}

QList<QWidget *> Workspaces::maximisablePanes() const
{
    // What Ctrl+M shows alone (paneOf): a Ladder chart, the results table, or a workspace's page.
    QList<QWidget *> panes{m_views.runtimeChart, m_views.roofline, m_views.resultsTable};
    for (Workspace w : kWorkspaces)
        panes << page(w);
    return panes;
}

bool Workspaces::restoreState(const QByteArray &state)
{
    QDataStream in(state);
    quint32 magic = 0;
    qint32 version = 0, current = 0;
    in >> magic >> version >> current;
    std::array<bool, kWorkspaces.size()> shown{};
    const int stored = version >= 3 ? int(kWorkspaces.size()) : 4; // before the Editor: four
    for (int i = 0; i < stored; ++i)
        in >> shown[std::size_t(i)];
    std::array<QByteArray, 4> splitters;
    for (QByteArray &s : splitters)
        in >> s;
    qint32 maximised = -1;
    if (version >= 2)
        in >> maximised;
    if (in.status() != QDataStream::Ok || magic != kStateMagic || version < 1 || version > kStateVersion ||
        current < 0 || current >= int(kWorkspaces.size()) || maximised < -1 ||
        maximised >= maximisablePanes().size())
        return false;
    m_panelShown = shown;
    int i = 0;
    for (QSplitter *s : {m_mainSplitter, m_ladderSplitter, m_chartSplitter, m_countersSplitter})
        s->restoreState(splitters[std::size_t(i++)]);
    setCurrent(kWorkspaces[std::size_t(current)]);
    setMaximised(maximised >= 0 ? maximisablePanes()[maximised] : nullptr); // as the user left it
    applyPanelVisibility();
    return true;
}

} // namespace gemmscope
