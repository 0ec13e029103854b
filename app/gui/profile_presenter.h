// Feeds the profile views (issue 23) from the session: the Kernel workspace's Source, SASS,
// coalescing and bank views show the profile of the panel's configuration; the Counters
// workspace's memory table and "Why not cuBLAS?" show the selected run's (else the panel's) with
// cuBLAS of the same precision, size and GPU beside it. Shown again whenever the session's
// profiles, the selection or the configuration change.
//
// Where a pane has no profile it says what can be done here (issue 19 item 3): profile (Ctrl+P)
// when a runner can; select a run that has one when the session holds profiles; else open the
// default session, whose H200 profiles a button offers (defaultSessionRequested).
#pragma once

#include <QObject>
#include <QString>

namespace gemmscope {

class ParameterPanel;
class ProfileController;
class RunSelection;
class Session;
struct WindowLayout;

class ProfilePresenter : public QObject {
    Q_OBJECT
public:
    ProfilePresenter(Session *session, RunSelection *selection, ParameterPanel *panel,
                     const ProfileController *profiles, WindowLayout &views, QObject *parent = nullptr);

    // Why this window cannot profile now (RunActions::stateChanged's sentence); empty: it can.
    void setProfilingOff(const QString &whyOff);

public slots:
    // After the stage presenter: a new stage clears the Source view's profile.
    void show();

signals:
    // The empty panes' button: show the H200 profiles recorded in the default session.
    void defaultSessionRequested();

private:
    void showEmptyStates();

    Session *m_session;
    RunSelection *m_selection;
    ParameterPanel *m_panel;
    const ProfileController *m_profiles;
    WindowLayout &m_views;
    QString m_profilingOff;
};

} // namespace gemmscope
