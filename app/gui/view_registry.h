// Every view of the window, fed and exported through one interface (RunView): the session's runs
// and the selected run reach the views only here, and Export (Ctrl+E) writes the view the user
// last clicked. A new session reaches every view whole (refreshNow); after that each change of one
// run reaches every view as that change (RunView::runAdded, runChanged, runRemoved), at once: the
// charts update the run's own mark in place and replot once per frame, and only while shown. (A
// paced refill of every view from all runs, the way before, stalled the window 100-200 ms per
// change in a session of 10,000 runs.)
#pragma once

#include "run_record.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <optional>

class QWidget;

namespace gemmscope {

class RunView;
class Session;
class RunSelection;

class ViewRegistry : public QObject {
    Q_OBJECT
public:
    ViewRegistry(Session *session, RunSelection *selection, QObject *parent = nullptr);

    // From now on `view` gets the session's runs and the selected run, and Export writes it when
    // it was clicked last. `exportAs`: the widget that stands for it in Export and Ctrl+M (the
    // tile map's stack, which shows either the map or its summary); defaults to the view itself.
    void add(RunView *view, QWidget *exportAs = nullptr);
    void addExportOnly(QWidget *widget, const QString &name); // the results table: CSV/JSON only
    const QList<RunView *> &views() const { return m_views; }

    // Gives every view all the session's runs again now (headless export, before a picture is
    // taken). A new session the registry feeds itself (showNewSession).
    void refreshNow();
    // A new session of at least this many runs reaches the views one view a turn of the event loop
    // (the shown ones first), so that the window answers between them; a smaller one at once.
    void setFeedOneViewATurnFrom(qsizetype runs) { m_feedOneATurnFrom = runs; }
    bool feedingNewSession() const { return !m_unfed.isEmpty(); }
    void refreshSelection(); // the selection changed: every view now, it is cheap

    QWidget *focused() const; // what Ctrl+E writes: the view clicked last
    void setFocused(QWidget *view);
    QWidget *viewContaining(const QWidget *widget) const; // the registered view around `widget`
    QString viewName(QWidget *view) const;                // "the roofline", "the results table"
    RunView *runViewOf(const QWidget *widget) const;
    QList<QWidget *> exportables() const;

    // Writes `view` (or what its stand-in shows) to `path`: the failure's sentence, or nothing.
    std::optional<QString> exportView(QWidget *view, const QString &path) const;

private:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void track(QWidget *exportAs);
    void feed(RunView *view, const QList<RunRecord> &runs);
    void showNewSession();
    void feedNextViewLater();
    void feedEveryViewNow(); // the views still waiting for a new session's runs, before anything else
    void letGoOfRuns();      // the session is about to change its runs: no view shares them meanwhile
    // Each view takes the change of one run; then, when it is the selected run, the views that show
    // the selected run get its new record (its counters arrive when it finishes).
    void forward(const std::function<void(RunView *)> &change, const QString &runId);

    Session *m_session;
    RunSelection *m_selection;
    QList<RunView *> m_views;
    QList<QPair<QWidget *, QWidget *>> m_standIns; // (view widget, the widget exported for it)
    QList<QPair<QWidget *, QString>> m_exportOnly;
    QString m_removing; // the id of the run the session is removing (runAboutToBeRemoved)
    QPointer<QWidget> m_focused;
    // A large new session's views that have not had its runs yet (they hold none meanwhile), and
    // the session they wait for (a newer one cancels the feeds queued for the one before).
    // At 100,000 runs the runtime chart and the roofline take 0.3-0.5 s each: fed in one event,
    // the window stood still for more than a second.
    qsizetype m_feedOneATurnFrom = 20000;
    QList<RunView *> m_unfed;
    quint64 m_newSessions = 0;
};

} // namespace gemmscope
