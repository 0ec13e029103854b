// Feeds the profile views from the session: the Kernel workspace's Source, SASS,
// coalescing and bank views show the profile of the panel's configuration; the Counters
// workspace's memory table and "Why not cuBLAS?" show the selected run's (else the panel's) with
// cuBLAS of the same precision, size and GPU beside it. Shown again whenever the session's
// profiles, the selection or the configuration change.
//
// Where a pane has no profile it says what it would show and what can be done here: profile
// (Ctrl+P, a button; greyed with its reason where this window cannot); select a run that has one when the
// session holds profiles; and, in every case, show the embedded example beside the user's session: the H200
// profiles recorded in the default session, read once off the UI thread and kept apart (never added to the
// session, never replacing it). While shown, the Counters workspace's memory table and "Why not cuBLAS?" show
// the example's profile of the same stage (else its first), and the Kernel workspace's Source view the
// example's profile of the same stage only (its lines are that stage's); each pane says on a band that it is
// the embedded example, not the user's data. A profile of the session's own always wins over the example.
#pragma once

#include "profile_record.h"

#include <QList>
#include <QObject>
#include <QString>

class QPushButton;

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

    bool exampleShown() const { return m_exampleState == ExampleState::Shown; }

signals:
    // The empty panes' Profile button: Run > Profile (Ctrl+P), which the window owns.
    void profileRequested();

public slots:
    // After the stage presenter: a new stage clears the Source view's profile.
    void show();
    // The empty panes' button: read the embedded example's profiles (once, in a worker) and show
    // them beside the session.
    void showExample();

private:
    enum class ExampleState { Off, Loading, Shown, Failed };
    void showEmptyStates();
    // The example's profile for `stage`: of that stage, else (anyStage) the example's first that
    // is not cuBLAS; nullptr while the example is not shown.
    const StoredProfile *exampleFor(const QString &stage, bool anyStage) const;
    QString exampleNote(const StoredProfile &shown, const QString &wantedStage) const;

    Session *m_session;
    RunSelection *m_selection;
    ParameterPanel *m_panel;
    const ProfileController *m_profiles;
    WindowLayout &m_views;
    QString m_profilingOff;
    ExampleState m_exampleState = ExampleState::Off;
    QList<StoredProfile> m_example; // the embedded session's profiles, apart from the session
    QString m_exampleError;
    QList<QPushButton *> m_profileButtons; // one in each empty profile pane
};

} // namespace gemmscope
