#include "view_registry.h"

#include "plot_export.h"
#include "run_selection.h"
#include "run_view.h"
#include "session.h"

#include "turn_queue.h"

#include <QEvent>
#include <QWidget>
#include <algorithm>
#include <utility>

namespace gemmscope {

ViewRegistry::ViewRegistry(Session *session, RunSelection *selection, QObject *parent)
    : QObject(parent), m_session(session), m_selection(selection)
{
    connect(session, &Session::runAdded, this, [this](int index) {
        const QList<RunRecord> &runs = m_session->runs();
        forward([&](RunView *view) { view->runAdded(runs, index); }, runs[index].runId);
    });
    connect(session, &Session::runChanged, this, [this](int index) {
        const QList<RunRecord> &runs = m_session->runs();
        forward([&](RunView *view) { view->runChanged(runs, index); }, runs[index].runId);
    });
    connect(session, &Session::runAboutToBeRemoved, this, [this](int index) {
        m_removing = m_session->runs()[index].runId;
        letGoOfRuns();
    });
    // The views share the session's list of runs; they let go of it before each change (a write
    // to a shared list copies every record) and take it again with the change. A new session is
    // fed here too, so that no view is left without its runs; the old list is then freed in the
    // session's worker thread, not when the last view lets go of it.
    connect(session, &Session::runAboutToBeAdded, this, &ViewRegistry::letGoOfRuns);
    connect(session, &Session::runAboutToChange, this, &ViewRegistry::letGoOfRuns);
    connect(session, &Session::aboutToReset, this, &ViewRegistry::letGoOfRuns);
    connect(session, &Session::reset, this, &ViewRegistry::showNewSession);
    connect(session, &Session::runRemoved, this, [this](int index) {
        const QString id = std::exchange(m_removing, QString());
        forward([&](RunView *view) { view->runRemoved(m_session->runs(), index, id); }, id);
    });
}

void ViewRegistry::forward(const std::function<void(RunView *)> &change, const QString &runId)
{
    feedEveryViewNow();
    for (RunView *view : std::as_const(m_views))
        change(view);
    if (const QString selected = m_selection->runId(); !selected.isEmpty() && selected == runId) {
        const RunRecord *run = m_session->find(selected);
        for (RunView *view : std::as_const(m_views))
            view->setSelectedRun(selected, run);
    }
}

void ViewRegistry::add(RunView *view, QWidget *exportAs)
{
    if (!view || m_views.contains(view))
        return;
    m_views.append(view);
    QWidget *widget = view->viewWidget();
    if (exportAs && exportAs != widget)
        m_standIns.append(qMakePair(widget, exportAs));
    track(exportAs ? exportAs : widget);
    feed(view, m_session->runs());
}

void ViewRegistry::addExportOnly(QWidget *widget, const QString &name)
{
    m_exportOnly.append(qMakePair(widget, name));
    track(widget);
}

void ViewRegistry::track(QWidget *exportAs)
{
    // Clicking anywhere in a view makes it the one Export writes: its children included, those
    // created later too (QEvent::ChildAdded below).
    exportAs->installEventFilter(this);
    for (QWidget *child : exportAs->findChildren<QWidget *>())
        child->installEventFilter(this);
}

bool ViewRegistry::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (QWidget *view = viewContaining(qobject_cast<QWidget *>(watched)))
            setFocused(view);
        break;
    case QEvent::ChildAdded:
        if (auto *child = qobject_cast<QWidget *>(static_cast<QChildEvent *>(event)->child()))
            child->installEventFilter(this);
        break;
    default:
        break;
    }
    return false;
}

void ViewRegistry::feed(RunView *view, const QList<RunRecord> &runs)
{
    view->setRuns(runs);
    const QString id = m_selection->runId();
    if (!id.isEmpty()) // the selected run may just have finished: its counters arrive now
        view->setSelectedRun(id, m_session->find(id));
}

void ViewRegistry::refreshNow()
{
    m_unfed.clear();
    const QList<RunRecord> &runs = m_session->runs();
    for (RunView *view : std::as_const(m_views))
        feed(view, runs);
}

void ViewRegistry::showNewSession()
{
    ++m_newSessions;
    if (m_session->runs().size() < m_feedOneATurnFrom) {
        refreshNow();
        return;
    }
    // Meanwhile each view holds no run: nothing it draws or a tooltip reads is of the session
    // that went, and a change of a run feeds the rest first (forward).
    const QList<RunRecord> none;
    m_unfed.clear();
    for (RunView *view : std::as_const(m_views)) {
        view->setRuns(none);
        m_unfed.append(view);
    }
    std::stable_partition(m_unfed.begin(), m_unfed.end(), [](RunView *view) {
        const QWidget *widget = view->viewWidget();
        return widget && widget->isVisible();
    });
    feedNextViewLater();
}

void ViewRegistry::feedNextViewLater()
{
    inALaterTurn(this, [this, session = m_newSessions] {
        if (session != m_newSessions || m_unfed.isEmpty())
            return; // a newer session took over, or the views were fed meanwhile
        feed(m_unfed.takeFirst(), m_session->runs());
        if (!m_unfed.isEmpty())
            feedNextViewLater();
    });
}

void ViewRegistry::feedEveryViewNow()
{
    while (!m_unfed.isEmpty())
        feed(m_unfed.takeFirst(), m_session->runs());
}

void ViewRegistry::letGoOfRuns()
{
    for (RunView *view : std::as_const(m_views))
        view->runsAboutToChange();
}

void ViewRegistry::refreshSelection()
{
    const QString id = m_selection->runId();
    const RunRecord *run = m_session->find(id);
    for (RunView *view : m_views)
        view->setSelectedRun(id, run);
}

QWidget *ViewRegistry::focused() const
{
    return m_focused;
}

void ViewRegistry::setFocused(QWidget *view)
{
    m_focused = view;
}

RunView *ViewRegistry::runViewOf(const QWidget *widget) const
{
    for (RunView *view : m_views)
        if (widget && view->viewWidget() == widget)
            return view;
    return nullptr;
}

QList<QWidget *> ViewRegistry::exportables() const
{
    QList<QWidget *> out;
    for (RunView *view : m_views) {
        QWidget *widget = view->viewWidget();
        for (const auto &[standsFor, exportAs] : m_standIns)
            if (standsFor == widget)
                widget = exportAs;
        if (!out.contains(widget))
            out.append(widget);
    }
    for (const auto &[widget, name] : m_exportOnly)
        out.append(widget);
    return out;
}

QWidget *ViewRegistry::viewContaining(const QWidget *widget) const
{
    for (QWidget *view : exportables())
        if (widget && (view == widget || view->isAncestorOf(widget)))
            return view;
    return nullptr;
}

QString ViewRegistry::viewName(QWidget *view) const
{
    for (const auto &[widget, name] : m_exportOnly)
        if (widget == view)
            return name;
    if (const RunView *runView = runViewOf(view))
        return runView->viewName();
    // A stand-in is named by what it shows now (the tile map or its summary).
    for (const auto &[standsFor, exportAs] : m_standIns)
        if (exportAs == view && standsFor->isVisibleTo(exportAs))
            return runViewOf(standsFor)->viewName();
    for (const auto &[standsFor, exportAs] : m_standIns)
        if (exportAs == view)
            return runViewOf(standsFor)->viewName();
    return tr("the view");
}

std::optional<QString> ViewRegistry::exportView(QWidget *view, const QString &path) const
{
    // Each view exports itself (the charts and diagrams in their print layout, vector output where
    // they can); a stand-in exports what it shows; anything else is rendered.
    QWidget *shown = view;
    for (const auto &[standsFor, exportAs] : m_standIns)
        if (exportAs == view && standsFor->isVisibleTo(exportAs))
            shown = standsFor;
    if (shown == view)
        for (const auto &[standsFor, exportAs] : m_standIns)
            if (exportAs == view && !runViewOf(view)) {
                // Neither is shown (headless): the first registered stands for the pane.
                shown = standsFor;
                break;
            }
    if (RunView *runView = runViewOf(shown))
        return runView->exportTo(path);
    return exportWidget(shown, path);
}

} // namespace gemmscope
