// Feeds the profile views (issue 23) from the session: the Kernel workspace's Source, SASS,
// coalescing and bank views show the profile of the panel's configuration; the Counters
// workspace's memory table and "Why not cuBLAS?" show the selected run's (else the panel's) with
// cuBLAS of the same precision, size and GPU beside it. Shown again whenever the session's
// profiles, the selection or the configuration change.
#pragma once

#include <QObject>

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

public slots:
    // After the stage presenter: a new stage clears the Source view's profile.
    void show();

private:
    Session *m_session;
    RunSelection *m_selection;
    ParameterPanel *m_panel;
    const ProfileController *m_profiles;
    WindowLayout &m_views;
};

} // namespace gemmscope
