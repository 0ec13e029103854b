// The one small interface through which the window feeds and exports its views: every
// chart and diagram implements it, MainWindow registers each once, and the session's runs (whole,
// or one change at a time), the selected run and Export (Ctrl+E) reach the views only through it,
// as RenderDoc's panels are fed. A view overrides what it shows: the runs, the selected run, its
// own export.
#pragma once

#include "run_record.h"

#include <QList>
#include <QString>
#include <optional>

class QWidget;

namespace gemmscope {

class RunView {
public:
    virtual ~RunView() = default;

    // Every run of the session: when the view is registered, when a session is opened or cleared,
    // and before an export.
    virtual void setRuns(const QList<RunRecord> &runs) { (void)runs; }
    // One run of the session was added, changed (queued, running, a preliminary median, finished)
    // or removed; `runs` is the session after the change. By default the view is given every run
    // again (setRuns); a view that draws every run updates the changed run's mark in place, so
    // that a run arriving in a session of 10,000 costs what one run costs.
    virtual void runAdded(const QList<RunRecord> &runs, qsizetype index)
    {
        (void)index;
        setRuns(runs);
    }
    virtual void runChanged(const QList<RunRecord> &runs, qsizetype index)
    {
        (void)index;
        setRuns(runs);
    }
    virtual void runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId)
    {
        (void)index;
        (void)runId;
        setRuns(runs);
    }
    // The session is about to change its list of runs (a run added, changed or removed, or a new
    // session): a view that shares the list lets go of it now, so that the change copies no record
    // (Qt copies a shared list whole at its first write); the change itself follows at once.
    virtual void runsAboutToChange() {}
    // The selected run: its id (empty: none) and its record (nullptr while the session has none
    // of that id). Sent when the selection changes, and after setRuns while a run is selected.
    virtual void setSelectedRun(const QString &runId, const RunRecord *run)
    {
        (void)runId;
        (void)run;
    }
    // Writes the view to `path` (.png, .pdf, .svg); the failure's sentence, or nothing. By
    // default the widget as it is on screen; charts override it with their print layout.
    virtual std::optional<QString> exportTo(const QString &path);
    // How menus and messages name it: "the roofline", "the bank-conflict view".
    virtual QString viewName() const = 0;

    // The view's widget (every RunView is one).
    QWidget *viewWidget();
};

} // namespace gemmscope
