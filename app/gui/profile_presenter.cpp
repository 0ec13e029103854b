#include "profile_presenter.h"

#include "bank_conflict_view.h"
#include "baseline_compare_view.h"
#include "coalescing_view.h"
#include "machine_code_view.h"
#include "mapping_model.h"
#include "memory_instruction_view.h"
#include "parameter_panel.h"
#include "profile_analysis.h"
#include "profile_controller.h"
#include "run_selection.h"
#include "session.h"
#include "stage_source_view.h"
#include "window_layout.h"

namespace gemmscope {

namespace {

QString nameOf(const protocol::ProfileEvent &profile)
{
    for (const Preset &preset : presets())
        if (stageInfo(preset.stage).key == profile.stage.toStdString() && preset.params == profile.params)
            return QString::fromStdString(preset.key);
    return profile.stage;
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
    const QString hint =
        tr("No profile of this configuration yet: Run > Profile (Ctrl+P) samples where its time "
           "goes, line by line.");
    m_views.kernel.source->setNoProfileText(hint);
    m_views.kernel.machineCode->setNoProfileText(hint);
    m_views.counters.memory->setNoProfileText(hint);
    m_views.counters.whyNotCublas->setNoProfileText(tr(
        "No profile of the selected run's configuration yet: Run > Profile (Ctrl+P) profiles it and cuBLAS "
        "at the same size, to compare."));
}

void ProfilePresenter::show()
{
    const QString gpu = m_profiles ? m_profiles->gpuName() : QString();
    const RunConfig config = m_panel->config();
    // The Kernel workspace follows the panel's configuration.
    const Session::ShownProfiles configured = m_session->shownProfiles(nullptr, config, gpu);
    const protocol::ProfileEvent *ofConfig = configured.profile ? &configured.profile->event : nullptr;
    m_views.kernel.source->setProfile(ofConfig);
    m_views.kernel.machineCode->setProfile(ofConfig);
    m_views.kernel.coalescing->setProfile(ofConfig);
    m_views.kernel.bankConflicts->setProfile(ofConfig);

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
    m_views.counters.memory->setProfile(profile, model);
    m_views.counters.whyNotCublas->setProfile(profile, profile ? nameOf(*profile) : QString());
    // "cuBLAS FP32" or "cuBLAS TF32": which library path the stage is held against.
    const protocol::ProfileEvent *baseline = shown.baseline ? &shown.baseline->event : nullptr;
    const StageInfo *library = baseline ? findStage(baseline->stage.toStdString()) : nullptr;
    m_views.counters.whyNotCublas->setBaseline(
        baseline, library && library->precision == Precision::Tf32 ? tr("cuBLAS TF32") : tr("cuBLAS FP32"));
}

} // namespace gemmscope
