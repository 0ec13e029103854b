// Every view of the window, fed and exported through one interface (RunView): the session's runs
// and the selected run reach the views only here, and Export (Ctrl+E) writes the view the user
// last clicked. Views in a workspace that is not shown are brought up to date when it is shown,
// and one paced refresh serves every session change until it runs (a finished run changes the
// session several times; the nine views were refilled for each): the next waits four times as
// long as the last took, at most a second.
#pragma once

#include "run_record.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
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

    // Brings every view up to date now (tests, headless export, before a picture is taken).
    void refreshNow();
    // The session changed: refresh what is shown once the event loop turns, the rest when shown.
    void scheduleRefresh();
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
    bool isShown(RunView *view) const;

    Session *m_session;
    RunSelection *m_selection;
    QList<RunView *> m_views;
    QList<QPair<QWidget *, QWidget *>> m_standIns; // (view widget, the widget exported for it)
    QList<QPair<QWidget *, QString>> m_exportOnly;
    QSet<RunView *> m_stale; // changed runs not yet shown to these views
    bool m_refreshQueued = false;
    qint64 m_lastRefreshMs = 0; // how long the last paced refresh took
    QPointer<QWidget> m_focused;
};

} // namespace gemmscope
