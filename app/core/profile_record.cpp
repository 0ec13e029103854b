#include "profile_record.h"

#include "profile_digest.h"
#include "profile_limits.h"
#include "run_record.h"

#include <QHashFunctions>
#include <QJsonDocument>
#include <QObject>

namespace gemmscope {

namespace {

using protocol::BuildKind;
using protocol::Tf32Rounding;

// The build and rounding as the key spells them (see ProfileKey): an unknown or empty one reads as
// the default, as the runner's default build and rounding.
void normalise(ProfileKey &key)
{
    const StageInfo *stage = findStage(key.stage.toStdString());
    const bool library = stage && stage->isLibrary;
    const bool scalar = protocol::buildKindFromName(key.build) == BuildKind::ScalarShared;
    key.build =
        library ? QString() : protocol::valueName(scalar ? BuildKind::ScalarShared : BuildKind::Release);
    const bool tf32 = stage && !library && stage->precision == Precision::Tf32;
    const bool truncate = protocol::tf32RoundingFromName(key.tf32Rounding) == Tf32Rounding::Truncate;
    key.tf32Rounding =
        !tf32 ? QString() : protocol::valueName(truncate ? Tf32Rounding::Truncate : Tf32Rounding::Rna);
    if (library)
        key.params.clear(); // cuBLAS takes none; a runner may echo {}
}

} // namespace

ProfileKey profileKeyOf(const protocol::ProfileEvent &event)
{
    ProfileKey key{event.stage, event.params, event.size, event.gpu.name, event.build, event.tf32Rounding};
    normalise(key);
    return key;
}

ProfileKey profileKeyOf(const RunConfig &config, const QString &gpuName, const QString &tf32Rounding)
{
    ProfileKey key{stageKeyText(config.stage), config.params, config.size, gpuName,
                   config.timing.scalarSharedReads ? protocol::valueName(BuildKind::ScalarShared) : QString(),
                   // The panel's choice where the caller names none (the request does the same).
                   !tf32Rounding.isEmpty()      ? tf32Rounding
                   : config.timing.truncateTf32 ? protocol::valueName(Tf32Rounding::Truncate)
                                                : QString()};
    normalise(key);
    return key;
}

ProfileKey profileKeyOf(const RunRecord &run)
{
    ProfileKey key{run.stageKey(),
                   paramValuesOf(run),
                   ProblemSize{run.m, run.n, run.k},
                   run.gpuName,
                   run.scalarSharedReads ? protocol::valueName(BuildKind::ScalarShared) : QString(),
                   {}};
    normalise(key);
    return key;
}

size_t qHash(const ProfileKey &key, size_t seed)
{
    seed = qHashMulti(seed, key.stage, key.size.m, key.size.n, key.size.k, key.gpuName, key.build,
                      key.tf32Rounding);
    for (const auto &[name, value] : key.params)
        seed = qHashMulti(seed, QByteArrayView(name.data(), qsizetype(name.size())), value);
    return seed;
}

bool profileMatches(const ProfileKey &key, const ProfileKey &wanted)
{
    return key.stage == wanted.stage && key.params == wanted.params && key.size == wanted.size &&
           (wanted.gpuName.isEmpty() || key.gpuName == wanted.gpuName) && key.build == wanted.build &&
           key.tf32Rounding == wanted.tf32Rounding;
}

QString baselineStageOf(const QString &stageKey)
{
    const StageInfo *stage = findStage(stageKey.toStdString());
    if (!stage)
        return {};
    return stageKeyText(stage->precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32);
}

ProfileKey baselineKeyOf(const ProfileKey &key)
{
    ProfileKey baseline{baselineStageOf(key.stage), {}, key.size, key.gpuName, {}, {}};
    normalise(baseline);
    return baseline;
}

const StoredProfile *findProfile(const QList<StoredProfile> &profiles, const ProfileKey &wanted)
{
    if (wanted.stage.isEmpty())
        return nullptr;
    for (auto it = profiles.crbegin(); it != profiles.crend(); ++it)
        if (profileMatches(profileKeyOf(it->event), wanted))
            return &*it;
    return nullptr;
}

QJsonObject toJson(const StoredProfile &profile)
{
    return QJsonObject{{"origin", profile.origin}, {"event", protocol::toJson(profile.event)}};
}

StoredProfile withJson(StoredProfile profile)
{
    profile.json =
        std::make_shared<const QByteArray>(QJsonDocument(toJson(profile)).toJson(QJsonDocument::Compact));
    profile.digest = std::make_shared<ProfileDigestSlot>(); // a new event: its digest is to be made
    return profile;
}

QByteArray compactJson(const StoredProfile &profile)
{
    return profile.json ? *profile.json : QJsonDocument(toJson(profile)).toJson(QJsonDocument::Compact);
}

std::optional<StoredProfile> storedProfileFromJson(const QJsonValue &value, QString *error)
{
    const auto fail = [&](const QString &why) -> std::optional<StoredProfile> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!value.isObject())
        return fail(QObject::tr("it is not an object"));
    const QJsonObject entry = value.toObject();
    if (!entry.value("event").isObject())
        return fail(QObject::tr("it holds no profile event"));
    // Bounded before it is decoded: a profile past the limits never costs its decoding.
    const QJsonObject event = entry.value("event").toObject();
    if (const QString tooLarge = profileOverLimits(event); !tooLarge.isEmpty())
        return fail(tooLarge);
    StoredProfile profile;
    QString why;
    if (!protocol::fromJson(event, profile.event, &why))
        return fail(why.isEmpty() ? QObject::tr("its profile event cannot be read") : why);
    if (profile.event.stage.isEmpty())
        return fail(QObject::tr("its profile names no stage"));
    const ProblemSize &s = profile.event.size;
    if (s.m <= 0 || s.n <= 0 || s.k <= 0)
        return fail(QObject::tr("its profile of %1 has no problem size").arg(profile.event.stage));
    profile.origin = entry.value("origin").toString();
    if (profile.origin.isEmpty())
        profile.origin = QStringLiteral("recorded");
    // The entry as it came (a newer runner's fields included: a load and a save lose nothing), once.
    profile.json = std::make_shared<const QByteArray>(QJsonDocument(entry).toJson(QJsonDocument::Compact));
    profile.digest = std::make_shared<ProfileDigestSlot>();
    return profile;
}

} // namespace gemmscope
