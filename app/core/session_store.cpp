#include "session_store.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

namespace gemmscope {

SessionStore::SessionStore(QObject *parent) : QObject(parent) {}

void SessionStore::touch(Edit edit)
{
    ++m_revision;
    edited(edit);
}

const RunRecord *SessionStore::find(const QString &runId) const
{
    const int i = indexOf(runId);
    return i < 0 ? nullptr : &m_data.runs[i];
}

std::optional<ProblemSize> SessionStore::commonMeasuredSize() const
{
    std::optional<ProblemSize> common;
    for (const RunRecord &run : m_data.runs) {
        if (!run.isOk() || run.origin == QLatin1String("worklog"))
            continue;
        if (common && (common->m != run.m || common->n != run.n || common->k != run.k))
            return std::nullopt;
        common = ProblemSize{run.m, run.n, run.k};
    }
    return common;
}

void SessionStore::appendRun(const RunRecord &record)
{
    emit runAboutToBeAdded(int(m_data.runs.size()));
    m_data.runs.append(record);
    m_runIndex.insert(record.runId, int(m_data.runs.size() - 1)); // ids are unique (import renames)
    emit runAdded(int(m_data.runs.size() - 1));
}

void SessionStore::reindexRuns()
{
    m_runIndex.clear();
    m_runIndex.reserve(m_data.runs.size());
    for (int i = 0; i < m_data.runs.size(); ++i)
        if (const QString &id = std::as_const(m_data.runs)[i].runId; !m_runIndex.contains(id))
            m_runIndex.insert(id, i);
}

void SessionStore::addOrUpdate(const RunRecord &record)
{
    const int existing = indexOf(record.runId);
    if (existing >= 0) {
        emit runAboutToChange(existing);
        m_data.runs[existing] = record;
        emit runChanged(existing);
    } else {
        appendRun(record);
    }
    const bool finished = record.status == RunStatus::Ok || record.status == RunStatus::Failed;
    touch(finished ? Edit::Measured : Edit::Other);
}

void SessionStore::removeRun(const QString &runId)
{
    const int i = indexOf(runId);
    if (i < 0)
        return;
    emit runAboutToBeRemoved(i);
    m_data.runs.removeAt(i);
    reindexRuns();
    emit runRemoved(i);
    touch(Edit::Other);
}

void SessionStore::replace(SessionData data)
{
    emit aboutToReset();
    SessionData old = std::exchange(m_data, std::move(data));
    if (old.runs.size() > 1000) // freed off the UI thread; its strings' counts are atomic
        (void)QtConcurrent::run([old = std::move(old)] {});
    reindexProfiles();
    ++m_revision;
    // Room to grow, taken now: the first run added to a list at its capacity (or still shared with
    // the file just read) copied all 10,000 records of a sweep-sized session, ~10 ms of a click.
    m_data.runs.reserve(m_data.runs.size() + m_data.runs.size() / 2 + 256);
    reindexRuns();
    // The ceilings first, while the views hold none of the runs (they let go at aboutToReset): a
    // roofline given its new ceilings after the runs drew every run twice (a tenth of the time a
    // 100,000-run session took to show).
    emit ceilingsChanged();
    emit reset();
    emit sweepsChanged();
    emit profilesChanged();
    emit customKernelsChanged();
}

void SessionStore::setCeilings(const QString &gpuName, const StoredCeilings &entry)
{
    if (gpuName.isEmpty() || (m_data.ceilings.contains(gpuName) && m_data.ceilings.value(gpuName) == entry))
        return;
    m_data.ceilings.insert(gpuName, entry);
    emit ceilingsChanged();
    touch(Edit::Other);
}

void SessionStore::appendImported(const SessionData &bench, const QString &idPrefix)
{
    for (RunRecord record : bench.runs) {
        // Keep ids unique when the same bench is imported twice or next to another one.
        QString id = QStringLiteral("%1-%2").arg(idPrefix, record.runId);
        for (int n = 2; indexOf(id) >= 0; ++n)
            id = QStringLiteral("%1-%2-%3").arg(idPrefix, record.runId).arg(n);
        record.runId = id;
        appendRun(record);
    }
    for (auto it = bench.ceilings.begin(); it != bench.ceilings.end(); ++it)
        m_data.ceilings.insert(it.key(), it.value());
    if (!bench.ceilings.isEmpty())
        emit ceilingsChanged();
    for (const StoredProfile &profile : bench.profiles)
        storeProfile(profile, false);
    if (!bench.profiles.isEmpty())
        emit profilesChanged();
    if (m_data.title.isEmpty())
        m_data.title = bench.title;
    if (m_data.description.isEmpty())
        m_data.description = bench.description;
    touch(Edit::Other);
}

void SessionStore::setSweep(const SweepData &sweep, bool settled)
{
    auto it = std::find_if(m_data.sweeps.begin(), m_data.sweeps.end(),
                           [&](const SweepData &s) { return s.id == sweep.id; });
    if (it != m_data.sweeps.end())
        *it = sweep;
    else
        m_data.sweeps.append(sweep);
    emit sweepsChanged();
    touch(settled ? Edit::SweepSettled : Edit::SweepProgress);
}

bool SessionStore::addSweepRun(const QString &sweepId, const RunRecord &run)
{
    const auto it = std::find_if(m_data.sweeps.begin(), m_data.sweeps.end(),
                                 [&](const SweepData &s) { return s.id == sweepId; });
    if (it == m_data.sweeps.end())
        return false;
    it->runs.append(run);
    touch(Edit::SweepProgress);
    return true;
}

int SessionStore::storeProfile(const StoredProfile &profile, bool announce)
{
    const ProfileKey key = profileKeyOf(profile.event);
    int at = m_profileIndex.value(key, -1);
    if (at >= 0) {
        m_data.profiles[at] = profile;
    } else {
        at = int(m_data.profiles.size());
        m_data.profiles.append(profile);
        m_profileIndex.insert(key, at);
    }
    ++m_revision;
    if (announce)
        emit profileAdded(at);
    return at;
}

void SessionStore::reindexProfiles()
{
    m_profileIndex.clear();
    m_profileIndex.reserve(m_data.profiles.size());
    for (int i = 0; i < m_data.profiles.size(); ++i) {
        const ProfileKey key = profileKeyOf(m_data.profiles[i].event);
        if (!m_profileIndex.contains(key))
            m_profileIndex.insert(key, i);
    }
}

void SessionStore::addProfile(const protocol::ProfileEvent &profile, const QString &origin)
{
    storeProfile(withJson({profile, origin, {}, {}}));
    touch(Edit::Measured); // a finished measurement: never lost
}

const StoredProfile *SessionStore::findProfile(const ProfileKey &key) const
{
    return gemmscope::findProfile(m_data.profiles, key);
}

const StoredProfile *SessionStore::profileForRun(const RunRecord &run) const
{
    return findProfile(profileKeyOf(run));
}

const StoredProfile *SessionStore::profileForConfig(const RunConfig &config, const QString &gpuName) const
{
    return findProfile(profileKeyOf(config, gpuName));
}

const StoredProfile *SessionStore::baselineProfileFor(const protocol::ProfileEvent &profile) const
{
    ProfileKey key = baselineKeyOf(profileKeyOf(profile));
    if (key.gpuName.isEmpty())
        return nullptr; // "the same GPU" needs one
    return findProfile(key);
}

SessionStore::ShownProfiles SessionStore::shownProfiles(const RunRecord *selectedRun, const RunConfig &config,
                                                        const QString &gpuName) const
{
    ShownProfiles shown;
    if (selectedRun && (shown.profile = profileForRun(*selectedRun)))
        shown.ofSelectedRun = true;
    else if (!gpuName.isEmpty() && (shown.profile = profileForConfig(config, gpuName)))
        ;
    else
        shown.profile = profileForConfig(config);
    if (shown.profile)
        shown.baseline = baselineProfileFor(shown.profile->event);
    return shown;
}

void SessionStore::setCustomKernel(const CustomKernelSource &kernel)
{
    auto &kernels = m_data.customKernels;
    if (std::any_of(kernels.begin(), kernels.end(),
                    [&](const CustomKernelSource &k) { return sameKernelSource(k, kernel); }))
        return;
    kernels.push_back(kernel);
    emit customKernelsChanged();
    touch(Edit::Measured); // the user's own text: kept at once
}

bool SessionStore::removeCustomKernel(const std::string &fileName)
{
    auto &kernels = m_data.customKernels;
    const auto from = std::remove_if(kernels.begin(), kernels.end(),
                                     [&](const CustomKernelSource &k) { return k.fileName == fileName; });
    if (from == kernels.end())
        return false;
    kernels.erase(from, kernels.end());
    emit customKernelsChanged();
    touch(Edit::Other);
    return true;
}

} // namespace gemmscope
