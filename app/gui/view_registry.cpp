#include "view_registry.h"

#include "plot_export.h"
#include "run_selection.h"
#include "run_view.h"
#include "session.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace gemmscope {

ViewRegistry::ViewRegistry(Session *session, RunSelection *selection, QObject *parent)
    : QObject(parent), m_session(session), m_selection(selection)
{
}

void ViewRegistry::add(RunView *view, QWidget *exportAs)
{
    if (!view || m_views.contains(view))
        return;
    m_views.append(view);
    QWidget *widget = view->viewWidget();
    widget->installEventFilter(this); // Show: a stale view catches up
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
    case QEvent::Show:
        if (RunView *view = runViewOf(qobject_cast<QWidget *>(watched)); view && m_stale.contains(view)) {
            m_stale.remove(view);
            feed(view, m_session->runs());
        }
        break;
    default:
        break;
    }
    return false;
}

bool ViewRegistry::isShown(RunView *view) const
{
    // Without a shown window (headless rendering, tests) every view is kept up to date.
    QWidget *widget = view->viewWidget();
    return !widget->window()->isVisible() || widget->isVisible();
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
    m_refreshQueued = false;
    m_stale.clear();
    const QList<RunRecord> &runs = m_session->runs();
    for (RunView *view : m_views)
        feed(view, runs);
}

void ViewRegistry::scheduleRefresh()
{
    if (m_refreshQueued)
        return;
    m_refreshQueued = true;
    // Paced: the next refresh waits four times as long as the last one took, so that a big session
    // (every view redraws all its runs) leaves the event loop at least four fifths of its time while
    // runs stream in; a small one refreshes at once.
    QTimer::singleShot(int(std::min<qint64>(4 * m_lastRefreshMs, 1000)), this, [this] {
        if (!m_refreshQueued)
            return; // refreshNow() came first
        m_refreshQueued = false;
        QElapsedTimer took;
        took.start();
        const QList<RunRecord> &runs = m_session->runs();
        for (RunView *view : m_views) {
            if (isShown(view)) {
                m_stale.remove(view);
                feed(view, runs);
            } else {
                m_stale.insert(view);
            }
        }
        m_lastRefreshMs = took.elapsed();
    });
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
