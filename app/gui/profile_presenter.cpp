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
#include "run_record.h"
#include "run_selection.h"
#include "session.h"
#include "stage_source_view.h"
#include "window_layout.h"

#include <QFutureWatcher>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

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
         {m_views.counters.memory->emptyState(), m_views.counters.whyNotCublas->emptyState()}) {
        connect(empty, &EmptyState::offerTaken, this, &ProfilePresenter::showExample);
        QPushButton *profile = empty->addAction(tr("Profile (Ctrl+P)"));
        profile->setObjectName(QStringLiteral("emptyStateProfile"));
        connect(profile, &QPushButton::clicked, this, &ProfilePresenter::profileRequested);
        m_profileButtons << profile;
    }
}

void ProfilePresenter::setProfilingOff(const QString &whyOff)
{
    if (whyOff == m_profilingOff)
        return;
    m_profilingOff = whyOff;
    show();
}

void ProfilePresenter::showExample()
{
    if (m_exampleState == ExampleState::Shown || m_exampleState == ExampleState::Loading)
        return;
    m_exampleState = ExampleState::Loading;
    show();
    // The embedded session is 4.5 MB of JSON with thousands of instructions per profile: read and
    // folded in a worker, as File > Open reads a session, so the window keeps answering.
    auto *watcher = new QFutureWatcher<SessionParse>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        const SessionParse parsed = watcher->result();
        watcher->deleteLater();
        if (parsed.data && !parsed.data->profiles.isEmpty()) {
            m_example = parsed.data->profiles;
            m_exampleState = ExampleState::Shown;
        } else {
            m_exampleError = parsed.data ? tr("it holds no profile.") : parsed.error;
            m_exampleState = ExampleState::Failed;
        }
        show();
    });
    watcher->setFuture(
        QtConcurrent::run([path = Session::defaultSessionPath()] { return readSessionFileForViews(path); }));
}

const StoredProfile *ProfilePresenter::exampleFor(const QString &stage, bool anyStage) const
{
    if (m_exampleState != ExampleState::Shown)
        return nullptr;
    for (const StoredProfile &p : m_example)
        if (p.event.stage == stage)
            return &p;
    if (!anyStage)
        return nullptr;
    for (const StoredProfile &p : m_example)
        if (baselineStageOf(p.event.stage) != p.event.stage)
            return &p;
    return nullptr;
}

QString ProfilePresenter::exampleNote(const StoredProfile &shown, const QString &wantedStage) const
{
    const protocol::ProfileEvent &e = shown.event;
    QString note = tr("The embedded H200 example, not your session: %1 at %2, recorded on %3.")
                       .arg(nameOf(e), squareOrFullSizeText(e.size),
                            e.gpu.name.isEmpty() ? tr("an NVIDIA H200") : e.gpu.name);
    if (!wantedStage.isEmpty() && wantedStage != e.stage) {
        const StageInfo *wanted = findStage(wantedStage.toStdString());
        note += QLatin1Char(' ') + tr("The example has no profile of \"%1\"; it holds %2.")
                                       .arg(wanted ? QString::fromStdString(wanted->title) : wantedStage,
                                            profiledStages(m_example));
    }
    note +=
        QLatin1Char(' ') + tr("Your session holds no profile of this preset at this size: %1")
                               .arg(m_profilingOff.isEmpty() ? tr("Run > Profile (Ctrl+P) measures yours.")
                                                             : tr("profile it on a machine with a GPU."));
    return note;
}

void ProfilePresenter::showEmptyStates()
{
    // What each pane would show, in its own words, and what can be done about it here.
    const QString memoryWould =
        tr("Memory per instruction lists every global and shared load and store "
           "of the kernel, with the sectors or wavefronts it moves per request "
           "against the ideal (uncoalesced loads, bank conflicts) and its source line.");
    // A list, not one long sentence: what a profile adds to the measured figures shown under it.
    const QString whyWould =
        tr("Why not cuBLAS? compares a profile of this preset with one of cuBLAS at the same size "
           "on the same GPU. With both it shows:\n"
           "• the limiters side by side: achieved occupancy, issue slots used, each pipe's use, and L1, L2 "
           "and DRAM throughput as shares of their peaks;\n"
           "• where the warps wait (the top stall reasons' shares of the samples) and the instruction mix;\n"
           "• the differences ranked by their estimated cost in time (idle issue slots by stall reason, bank "
           "conflicts, extra instructions), the costliest named with its source line and what would change "
           "it.");
    QString cannot, source;
    if (m_profilingOff.isEmpty()) {
        cannot = tr("No profile of this run yet: Run > Profile (Ctrl+P) profiles it (and "
                    "cuBLAS at the same size).");
        source =
            tr("No profile of this preset at this size yet: Run > Profile (Ctrl+P) samples where its time "
               "goes, line by line.");
    } else if (!m_session->profiles().isEmpty()) {
        const QString held = profiledStages(m_session->profiles());
        cannot = tr("No profile of this run in this session, and this window cannot "
                    "profile (running is off: the status bar says why). This session holds profiles of "
                    "%1: select one of their runs.")
                     .arg(held);
        source = tr("No profile of this preset at this size in this session (profiles held: %1); this window "
                    "cannot profile.")
                     .arg(held);
    } else {
        cannot = tr("This session holds no profile, and this window cannot profile (running is off: the "
                    "status bar says why): profile on a machine with a GPU, or look at the embedded H200 "
                    "example beside your session.");
        source = tr("This session holds no profile and this window cannot profile. The Counters "
                    "workspace can show the embedded H200 example beside your session.");
    }
    QString offer, offerTip;
    switch (m_exampleState) {
    case ExampleState::Off:
        offer = tr("Show the embedded H200 example");
        offerTip =
            tr("Shows the embedded H200 example's profiles, recorded on an NVIDIA H200 and shipped with "
               "GemmScope, read-only, beside your session: nothing in your session changes, and each pane "
               "says it is the example.");
        break;
    case ExampleState::Loading:
        cannot += QLatin1Char(' ') + tr("Reading the embedded H200 example…");
        break;
    case ExampleState::Failed:
        cannot +=
            QLatin1Char(' ') + tr("The embedded H200 example could not be read: %1").arg(m_exampleError);
        break;
    case ExampleState::Shown:
        cannot += QLatin1Char(' ') + tr("The embedded H200 example has no profile to show here.");
        break;
    }
    // Profile where this window can; where it cannot, the button stays, greyed, with the reason.
    for (QPushButton *profile : std::as_const(m_profileButtons)) {
        profile->setEnabled(m_profilingOff.isEmpty());
        profile->setToolTip(
            m_profilingOff.isEmpty()
                ? tr("Run > Profile (Ctrl+P): samples where the configured kernel's time goes "
                     "and profiles cuBLAS at the same size")
                : tr("This window cannot profile: %1 Profile on a machine with a GPU.").arg(m_profilingOff));
    }
    m_views.counters.memory->setNoProfileText(memoryWould + QLatin1Char(' ') + cannot);
    m_views.counters.memory->emptyState()->setOffer(offer, offerTip);
    m_views.counters.whyNotCublas->setNoProfileText(whyWould + QLatin1Char('\n') + cannot);
    m_views.counters.whyNotCublas->emptyState()->setOffer(offer, offerTip);
    m_views.kernel.source->setNoProfileText(source);
    m_views.kernel.machineCode->setNoProfileText(source);
}

void ProfilePresenter::show()
{
    showEmptyStates();
    const QString gpu = m_profiles ? m_profiles->gpuName() : QString();
    const RunConfig config = m_panel->config();
    const QString configStage = QString::fromStdString(config.stage.str());
    // The Kernel workspace follows the panel's configuration: the session's profile, else the
    // example's of the same stage (another stage's samples would fall on lines of another file).
    // Each profile as the session folded it (its digest): showing it again costs the views nothing.
    const Session::ShownProfiles configured = m_session->shownProfiles(nullptr, config, gpu);
    const StoredProfile *kernelProfile =
        configured.profile ? configured.profile : exampleFor(configStage, false);
    const std::shared_ptr<const ProfileDigest> ofConfig = digestOf(kernelProfile);
    const QString kernelNote =
        !configured.profile && kernelProfile ? exampleNote(*kernelProfile, configStage) : QString();
    m_views.kernel.source->setProfileDigest(ofConfig);
    m_views.kernel.source->setProfileCaption(kernelNote);
    // The SASS, coalescing and bank views have no band to say so: they show the session's own only.
    const std::shared_ptr<const ProfileDigest> own = digestOf(configured.profile);
    m_views.kernel.machineCode->setProfileDigest(own);
    m_views.kernel.coalescing->setProfileDigest(own);
    m_views.kernel.bankConflicts->setProfileDigest(own);

    // The Counters workspace follows the selected run (as its counters table does).
    const RunRecord *run = m_session->find(m_selection->runId());
    const Session::ShownProfiles shown = m_session->shownProfiles(run, config, gpu);
    const StoredProfile *stored = shown.profile, *storedBaseline = shown.baseline;
    QString note;
    if (!stored) {
        const QString wanted = run ? QString::fromStdString(run->stage.str()) : configStage;
        if ((stored = exampleFor(wanted, true))) {
            storedBaseline = findProfile(m_example, baselineKeyOf(profileKeyOf(stored->event)));
            note = exampleNote(*stored, wanted);
        }
    }
    const protocol::ProfileEvent *profile = stored ? &stored->event : nullptr;
    std::optional<ModelFigures> model;
    if (profile) {
        const StageInfo *stage = findStage(profile->stage.toStdString());
        if (stage)
            if (const auto shape = kernelShape(stage->id, profile->params).shape)
                model = modelFigures(*shape, profile->size);
    }
    m_views.counters.memory->setProfileDigest(digestOf(stored), model);
    m_views.counters.memory->setReferenceNote(note);
    m_views.counters.whyNotCublas->setReferenceNote(note);
    m_views.counters.whyNotCublas->setProfile(profile, profile ? nameOf(*profile) : QString());
    // "cuBLAS FP32" or "cuBLAS TF32": which library path the stage is held against.
    const protocol::ProfileEvent *baseline = storedBaseline ? &storedBaseline->event : nullptr;
    const StageInfo *library = baseline ? findStage(baseline->stage.toStdString()) : nullptr;
    if (profile && !baseline) // the missing half is cuBLAS's: no button would bring it
        m_views.counters.whyNotCublas->emptyState()->setOffer({});
    m_views.counters.whyNotCublas->setBaseline(
        baseline, library && library->precision == Precision::Tf32 ? tr("cuBLAS TF32") : tr("cuBLAS FP32"));
}

} // namespace gemmscope
