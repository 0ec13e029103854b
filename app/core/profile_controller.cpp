#include "profile_controller.h"

#include "profile_record.h"
#include "runner_client.h"
#include "session.h"
#include "stage_names.h"

#include <algorithm>

namespace gemmscope {

ProfileController::ProfileController(Session *session, QObject *parent) : QObject(parent), m_session(session)
{
}

void ProfileController::attach(RunnerClient *client)
{
    m_client = client;
    // Queued: the client lives in its worker thread; these run in this object's (the UI's).
    connect(client, &RunnerClient::runnerGpu, this,
            [this](const QString &name, const QString &) { m_gpuName = name; });
    connect(client, &RunnerClient::runStarted, this, [this](const QString &id) {
        if (isPending(id))
            emit profileStarted(id, m_pending.value(id));
    });
    connect(client, &RunnerClient::progress, this,
            [this](const QString &id, protocol::ProgressPhase phase, int done, int total) {
                if (isPending(id))
                    emit progress(id, m_pending.value(id), phase, done, total);
            });
    connect(client, &RunnerClient::profileAvailable, this, [this](const protocol::ProfileEvent &profile) {
        if (!isPending(profile.id))
            return;
        m_session->addProfile(profile);
        emit profileFinished(profile);
        finish(profile.id);
    });
    connect(client, &RunnerClient::profileFailed, this,
            [this](const QString &id, const QString &kind, const QString &message) {
                if (!isPending(id))
                    return;
                emit profileFailed(id, m_pending.value(id), kind, message);
                finish(id);
            });
}

QString ProfileController::submit(const RunRequest &request, const QString &what)
{
    const QString id = m_client->submit(request);
    m_pending.insert(id, what);
    return id;
}

QStringList ProfileController::profile(const RunConfig &config, const ProfileOptions &options)
{
    QStringList ids;
    if (!m_client)
        return ids;
    const ProfileKey key = profileKeyOf(config, m_gpuName, options.tf32Rounding);
    const ProfileKey baseline = baselineKeyOf(key);
    const bool isBaseline = baseline.stage == key.stage;
    // The baseline of this size on this GPU, unless the session has it or it is on its way.
    const QString baselineWhat =
        tr("%1 at %2").arg(stageTitleText(stageIdOf(baseline.stage)), squareOrFullSizeText(config.size));
    const bool baselineQueued =
        std::find(m_pending.cbegin(), m_pending.cend(), baselineWhat) != m_pending.cend();
    const QString preset = presetTitle(config.presetKey); // as the tables and charts name it
    const QString name = preset.isEmpty() ? stageTitleText(config.stage) : preset;
    ids << submit(profileRequest(config, options),
                  tr("%1 at %2").arg(name, squareOrFullSizeText(config.size)));
    if (!isBaseline && !baseline.stage.isEmpty() && !baselineQueued && !m_session->findProfile(baseline)) {
        RunConfig cublas;
        cublas.stage = stageIdOf(baseline.stage);
        cublas.size = config.size;
        cublas.timing = config.timing;
        ids << submit(profileRequest(cublas, options), baselineWhat);
    }
    return ids;
}

void ProfileController::finish(const QString &jobId)
{
    m_pending.remove(jobId);
    if (m_pending.isEmpty())
        emit idle();
}

} // namespace gemmscope
