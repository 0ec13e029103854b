#include "profile_presenter.h"

#include "bank_conflict_view.h"
#include "baseline_compare_view.h"
#include "coalescing_view.h"
#include "empty_state.h"
#include "machine_code_view.h"
#include "mapping_model.h"
#include "memory_instruction_view.h"
#include "parameter_panel.h"
#include "profile_analysis.h"
#include "profile_controller.h"
#include "profile_digest.h"
#include "run_selection.h"
#include "session.h"
#include "stage_source_view.h"
#include "window_layout.h"

namespace gemmscope {

namespace {

// The stored profile's digest, made the first time it is shown (or by the worker that read it).
std::shared_ptr<const ProfileDigest> digestOf(const StoredProfile *stored)
{
    return stored ? gemmscope::digestOf(*stored) : nullptr;
}

QString nameOf(const protocol::ProfileEvent &profile)
{
    for (const Preset &preset : presets())
        if (stageInfo(preset.stage).key == profile.stage.toStdString() && preset.params == profile.params)
            return QString::fromStdString(preset.key);
    return profile.stage;
}

// "worklog-3, fp32-tuned, cublas_fp32": the configurations this session holds profiles of (preset
// keys where a preset matches, else the stage).
QString profiledStages(const QList<StoredProfile> &profiles)
{
    QStringList names;
    for (const StoredProfile &stored : profiles) {
        const QString name = nameOf(stored.event);
        if (!names.contains(name))
            names << name;
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

ProfilePresenter::ProfilePresenter(Session *session, RunSelection *selection, ParameterPanel *panel,
                                   const ProfileController *profiles, WindowLayout &views, QObject *parent)
    : QObject(parent), m_session(session), m_selection(selection), m_panel(panel), m_profiles(profiles),
      m_views(views)
{
    connect(m_session, &Session::profileAdded, this, &ProfilePresenter::show);
    connect(m_session, &Session::profilesChanged, this, &ProfilePresenter::show);
    connect(m_session, &Session::reset, this, &ProfilePresenter::show);
    connect(m_selection, &RunSelection::selectionChanged, this, &ProfilePresenter::show);
    for (EmptyState *empty :
         {m_views.counters.memory->emptyState(), m_views.counters.whyNotCublas->emptyState()})
        connect(empty, &EmptyState::offerTaken, this, &ProfilePresenter::defaultSessionRequested);
}

void ProfilePresenter::setProfilingOff(const QString &whyOff)
{
    if (whyOff == m_profilingOff)
        return;
    m_profilingOff = whyOff;
    show();
}

void ProfilePresenter::showEmptyStates()
{
    // What each pane would show, in its own words, and what can be done about it here.
    QString memory, whyNot, source, offer;
    if (m_profilingOff.isEmpty()) {
        memory = tr("No profile of this run's configuration yet. Run > Profile (Ctrl+P) profiles it: every "
                    "global and shared load and store, with the sectors or wavefronts it moves per "
                    "request against the ideal.");
        whyNot = tr("No profile of this run's configuration yet. Run > Profile (Ctrl+P) profiles it and "
                    "cuBLAS at the same size, to set their limiters side by side.");
        source = tr("No profile of this configuration yet: Run > Profile (Ctrl+P) samples where its time "
                    "goes, line by line.");
    } else if (!m_session->profiles().isEmpty()) {
        const QString held = profiledStages(m_session->profiles());
        memory = tr("No profile of this run's configuration in this session, and this window cannot "
                    "profile (running is off: the status bar says why). This session holds profiles of "
                    "%1: select one of their runs to read its memory instructions.")
                     .arg(held);
        whyNot = tr("No profile of this run's configuration in this session, and this window cannot "
                    "profile (running is off: the status bar says why). This session holds profiles of "
                    "%1: select one of their runs to compare it with cuBLAS.")
                     .arg(held);
        source = tr("No profile of this configuration in this session (profiles held: %1); this window "
                    "cannot profile.")
                     .arg(held);
    } else {
        memory = tr("This session holds no profile, and this window cannot profile (running is off: the "
                    "status bar says why). The default session holds profiles recorded on an NVIDIA H200: "
                    "open it to read each memory instruction's sectors and wavefronts per request against "
                    "the ideal.");
        whyNot = tr("This session holds no profile, and this window cannot profile (running is off: the "
                    "status bar says why). The default session holds profiles recorded on an NVIDIA H200, "
                    "with cuBLAS at the same size: open it to see why a stage is slower than cuBLAS.");
        source = tr("This session holds no profile and this window cannot profile; the default session "
                    "holds H200 profiles (File > Open Default Session).");
        offer = tr("Open the Default Session (H200 Profiles)");
    }
    const QString offerTip =
        tr("Replaces this session with the one GemmScope ships: published T4 runtimes, a recorded H200 "
           "ladder, sweeps and profiles (asks first if this session has unsaved changes).");
    m_views.counters.memory->setNoProfileText(memory);
    m_views.counters.memory->emptyState()->setOffer(offer, offerTip);
    m_views.counters.whyNotCublas->setNoProfileText(whyNot);
    m_views.counters.whyNotCublas->emptyState()->setOffer(offer, offerTip);
    m_views.kernel.source->setNoProfileText(source);
    m_views.kernel.machineCode->setNoProfileText(source);
}

void ProfilePresenter::show()
{
    showEmptyStates();
    const QString gpu = m_profiles ? m_profiles->gpuName() : QString();
    const RunConfig config = m_panel->config();
    // The Kernel workspace follows the panel's configuration.
    // Each profile as the session folded it (its digest): showing it again costs the views nothing.
    const Session::ShownProfiles configured = m_session->shownProfiles(nullptr, config, gpu);
    const std::shared_ptr<const ProfileDigest> ofConfig = digestOf(configured.profile);
    m_views.kernel.source->setProfileDigest(ofConfig);
    m_views.kernel.machineCode->setProfileDigest(ofConfig);
    m_views.kernel.coalescing->setProfileDigest(ofConfig);
    m_views.kernel.bankConflicts->setProfileDigest(ofConfig);

    // The Counters workspace follows the selected run (as its counters table does).
    const Session::ShownProfiles shown =
        m_session->shownProfiles(m_session->find(m_selection->runId()), config, gpu);
    const protocol::ProfileEvent *profile = shown.profile ? &shown.profile->event : nullptr;
    std::optional<ModelFigures> model;
    if (profile) {
        const StageInfo *stage = findStage(profile->stage.toStdString());
        if (stage)
            if (const auto shape = kernelShape(stage->id, profile->params).shape)
                model = modelFigures(*shape, profile->size);
    }
    m_views.counters.memory->setProfileDigest(digestOf(shown.profile), model);
    m_views.counters.whyNotCublas->setProfile(profile, profile ? nameOf(*profile) : QString());
    // "cuBLAS FP32" or "cuBLAS TF32": which library path the stage is held against.
    const protocol::ProfileEvent *baseline = shown.baseline ? &shown.baseline->event : nullptr;
    const StageInfo *library = baseline ? findStage(baseline->stage.toStdString()) : nullptr;
    if (profile && !baseline) // the missing half is cuBLAS's: no button would bring it
        m_views.counters.whyNotCublas->emptyState()->setOffer({});
    m_views.counters.whyNotCublas->setBaseline(
        baseline, library && library->precision == Precision::Tf32 ? tr("cuBLAS TF32") : tr("cuBLAS FP32"));
}

} // namespace gemmscope
