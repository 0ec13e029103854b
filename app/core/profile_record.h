// A profile as a session keeps it: the runner's `profile` event, typed, and where it
// came from. A profile is its own record, never a run: it is not timed and never alters one.
// Profiles are found by the configuration they sampled (ProfileKey: stage, parameters, size, GPU,
// build, TF32 rounding) and, for "Why not cuBLAS?", by the cuBLAS stage of the same precision at
// the same size on the same GPU.
#pragma once

#include "events.h"
#include "run_request.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <memory>
#include <optional>

namespace gemmscope {

class ProfileDigestSlot;
struct RunRecord;

struct StoredProfile {
    protocol::ProfileEvent event;
    QString origin; // "measured" (this session's runner) or "recorded" (embedded, a bench file)
    // The entry as compact JSON, made once (withJson, or as read from a file: then with any field a
    // newer runner added, so that a load and a save lose nothing): a profile holds thousands of
    // instructions and the session is serialized at every autosave; re-encoding the embedded H200
    // profiles each time took ~150 ms of the UI thread. Empty: encoded when needed. Not part of the
    // value (operator==).
    std::shared_ptr<const QByteArray> json;
    // Where the profile folded for the views is kept once made (profile_digest.h), shared by every
    // copy: withJson and storedProfileFromJson give each profile one. Not part of the value.
    std::shared_ptr<ProfileDigestSlot> digest;
    bool isRecorded() const { return origin == QLatin1String("recorded"); }
    friend bool operator==(const StoredProfile &a, const StoredProfile &b)
    {
        return a.event == b.event && a.origin == b.origin;
    }
};

// `profile` with its compact JSON made now, and a new slot for its digest.
StoredProfile withJson(StoredProfile profile);
// The session file's entry (toJson) as compact JSON: the one made once, where there is one.
QByteArray compactJson(const StoredProfile &profile);

// The configuration a profile sampled. Normalised, so that a request's defaults and a runner's
// echo of them compare equal: the build is "release" unless "scalar_shared" (cuBLAS: none), the TF32
// rounding is "rna" unless "truncate" for GemmScope's TF32 stages (none for every other stage).
struct ProfileKey {
    QString stage;
    ParamValues params;
    ProblemSize size{0, 0, 0};
    QString gpuName; // empty in a lookup: any GPU (the newest profile wins)
    QString build;
    QString tf32Rounding;
    friend bool operator==(const ProfileKey &, const ProfileKey &) = default;
};
// For a session's index of its profiles by configuration.
size_t qHash(const ProfileKey &key, size_t seed = 0);

ProfileKey profileKeyOf(const protocol::ProfileEvent &event);
// The panel's configuration on `gpuName` (empty: any GPU); `tf32Rounding` empty: the default.
ProfileKey profileKeyOf(const RunConfig &config, const QString &gpuName, const QString &tf32Rounding = {});
// A run's configuration on its GPU. GemmScope's own runs use the default TF32 rounding (rna).
ProfileKey profileKeyOf(const RunRecord &run);
// Whether `key` (a stored profile's) is what `wanted` asks for; an empty GPU in `wanted` matches any.
bool profileMatches(const ProfileKey &key, const ProfileKey &wanted);

// The cuBLAS stage a stage is compared with: cublas_tf32 for TF32 stages, cublas_fp32 for the
// rest (a cuBLAS stage is its own baseline). Empty for a key the catalog lacks.
QString baselineStageOf(const QString &stageKey);
// The baseline key of a profile's or configuration's key: the cuBLAS stage of its precision, at its
// size, on its GPU.
ProfileKey baselineKeyOf(const ProfileKey &key);

// The newest profile in `profiles` that matches `wanted`, or nullptr.
const StoredProfile *findProfile(const QList<StoredProfile> &profiles, const ProfileKey &wanted);

// The session file's entry: {"origin": ..., "event": <the profile event as the runner sent it>}.
QJsonObject toJson(const StoredProfile &profile);
// The entry, or why it cannot be used (not an object, no profile event, a field of another type,
// no stage or no size): a damaged entry is skipped with that sentence, never half-read.
std::optional<StoredProfile> storedProfileFromJson(const QJsonValue &value, QString *error);

} // namespace gemmscope

// Profiles travel from the runner thread to the UI in queued signals.
Q_DECLARE_METATYPE(gemmscope::protocol::ProfileEvent)
