// Typed requests of docs/protocol.md, each with one toJson and one fromJson. An optional member
// that is empty is left out of the JSON, so the runner applies the documented default.
//
// fromJson is the one reading of a request, the runner's and the tests': it checks that each
// required field is there and each present field has the documented JSON type (and range, where
// docs/protocol.md gives one), and says in `error`, in one sentence, which is not; the runner
// answers that sentence as a protocol_error. What needs the catalog or the GPU (the stage key,
// the parameters' validity, the "arch" and "build" values, clamping the timing) the runner checks
// after it.
#pragma once

#include "protocol.h"
#include "stage_types.h"
#include "values.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::protocol {

// The `timing` object of a run request; every field optional (defaults 2, 1000, 5, 200, false).
// The runner clamps the values to sane ranges rather than refusing them.
struct TimingRequest {
    std::optional<long long> warmup;
    std::optional<double> budgetMs;
    std::optional<long long> minReps, maxReps;
    std::optional<bool> flushL2;
    // Timing conditions (docs/protocol.md, "conditions"): "burst" (the default: from an idle GPU) or
    // "sustained" (after running at load until the clock settles); stop once the samples' relative
    // noise is at or below max_noise_pct (default 0.5); leave out samples whose SM clock is below
    // throttle_threshold_pct of the starting clock (default 90; 0 keeps every sample).
    QString regime;
    std::optional<double> maxNoisePct, throttleThresholdPct;
    // Burst only: time this many bursts (1 to kMaxBursts, default 1), each from an idle GPU, and
    // report the one whose reference launch was fastest.
    std::optional<long long> bursts;
    friend bool operator==(const TimingRequest &, const TimingRequest &) = default;
};
constexpr int kMaxBursts = 50; // each burst may wait 5 s for an idle GPU

// A user's kernel (kernels/custom_stage.h, docs/custom-kernels.md) travelling with the request
// that names its stage, so that the runner can register it before it looks the stage up. toJson
// fills it from the catalog when the request's stage is a registered custom stage and the request
// has none: every client (GUI, bench, sweeps) sends it without knowing.
struct KernelSource {
    QString sourceText;  // the .cuh, parameter block included; customStageKey() of it is the stage key
    QString fileName;    // "my_gemm.cuh": NVRTC's program name, so its messages say my_gemm.cuh(12)
    QString derivedFrom; // catalog key of the stage it was written from; empty for a blank kernel
    friend bool operator==(const KernelSource &, const KernelSource &) = default;
};

struct RunJob {
    QString id;
    QString stage;                                     // catalog key; required
    std::optional<KernelSource> kernel = std::nullopt; // a custom stage's source; see KernelSource
    std::optional<ParamValues> params;                 // default: the stage's defaults
    ProblemSize size;                                  // required
    std::optional<long long> seed;                     // default 1
    std::optional<TimingRequest> timing;
    std::optional<bool> verify;        // default true
    std::optional<bool> counters;      // default false
    QString build;                     // "release" (empty: the default) or "scalar_shared"
    std::optional<int> maxBlocksPerSm; // 1..1024
    std::optional<int> smemCarveout;   // 0..100
    std::optional<bool> baseline;      // also time the stage's cuBLAS call, interleaved (result's baseline)
    QString tf32Rounding;              // TF32 stages: "rna" (empty: the default) or "truncate"
    QString testDamage;                // test hook: "skip_launch" or "corrupt_element"
    friend bool operator==(const RunJob &, const RunJob &) = default;
};

// What `compile` and `disassemble` name alike: one kernel of a stage, for an architecture.
struct KernelRequest {
    QString id;
    QString stage;
    std::optional<KernelSource> kernel = std::nullopt; // a custom stage's source; see KernelSource
    std::optional<ParamValues> params;                 // default: the stage's defaults
    QString arch;                                      // "sm_90"; empty: the GPU's
    std::optional<ProblemSize> size;                   // for the catalog's checks
    QString build;                                     // "release" (empty: the default) or "scalar_shared"
    friend bool operator==(const KernelRequest &, const KernelRequest &) = default;
};

struct CompileJob : KernelRequest {
    friend bool operator==(const CompileJob &, const CompileJob &) = default;
};

struct TraceOwnerJob {
    QString id;
    QString stage;
    std::optional<KernelSource> kernel = std::nullopt; // a custom stage's source; see KernelSource
    std::optional<ParamValues> params;                 // default: the stage's defaults
    friend bool operator==(const TraceOwnerJob &, const TraceOwnerJob &) = default;
};

struct DisassembleJob : KernelRequest {
    friend bool operator==(const DisassembleJob &, const DisassembleJob &) = default;
};

struct CeilingsJob {
    QString id;
    std::optional<bool> refresh;
    friend bool operator==(const CeilingsJob &, const CeilingsJob &) = default;
};

// A profile (docs/protocol.md, "profile"): one configuration sampled and measured per instruction,
// never timed. `parts` names what to collect ("stalls", "instructions", "limiters"; empty: all);
// `samplingPeriod` is CUPTI's: a sample every 2^period SM cycles (5..31; empty: the runner's).
struct ProfileJob {
    QString id;
    QString stage;
    std::optional<KernelSource> kernel = std::nullopt; // a custom stage's source; see KernelSource
    std::optional<ParamValues> params;
    ProblemSize size; // required
    std::optional<long long> seed;
    QString build;        // as for `run`
    QString tf32Rounding; // as for `run`
    QStringList parts;
    std::optional<int> samplingPeriod;
    friend bool operator==(const ProfileJob &, const ProfileJob &) = default;
};

// "stalls", "instructions", "limiters": what a profile job may collect, in that order (also its
// progress phases, whose table spells them).
enum class ProfilePart { Stalls, Instructions, Limiters };
const QStringList &profilePartNames();
inline QString profilePartName(ProfilePart part)
{
    return profilePartNames().at(int(part));
}
inline ProgressPhase progressPhaseOf(ProfilePart part)
{
    constexpr ProgressPhase kPhases[] = {ProgressPhase::Stalls, ProgressPhase::Instructions,
                                         ProgressPhase::Limiters};
    return kPhases[int(part)];
}

struct FaultJob {
    QString id;
    friend bool operator==(const FaultJob &, const FaultJob &) = default;
};

struct CancelRequest {
    QString id; // of the job to cancel
    friend bool operator==(const CancelRequest &, const CancelRequest &) = default;
};

struct QuitRequest {
    friend bool operator==(const QuitRequest &, const QuitRequest &) = default;
};

QJsonObject toJson(const RunJob &request);
QJsonObject toJson(const CompileJob &request);
QJsonObject toJson(const TraceOwnerJob &request);
QJsonObject toJson(const DisassembleJob &request);
QJsonObject toJson(const CeilingsJob &request);
QJsonObject toJson(const ProfileJob &request);
QJsonObject toJson(const FaultJob &request);
QJsonObject toJson(const CancelRequest &request);
QJsonObject toJson(const QuitRequest &request);

bool fromJson(const QJsonObject &json, RunJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, CompileJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, TraceOwnerJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, DisassembleJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, CeilingsJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, ProfileJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, FaultJob &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, CancelRequest &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, QuitRequest &out, QString *error = nullptr);

// The parts several messages share.
QJsonObject paramsToJson(const ParamValues &params);
QJsonObject sizeToJson(const ProblemSize &size);

// The request's type, when `json` has a known one.
std::optional<RequestType> requestTypeOf(const QJsonObject &json);

// What every request line carries, read before its type is known (the runner's first look at a
// line): `type` (empty when there is no "type" string), whether it is a known one, and `id`
// (empty when there is no "id" string).
struct RequestEnvelope {
    QString typeName;
    std::optional<RequestType> type;
    QString id;
};
RequestEnvelope envelopeOf(const QJsonObject &json);

} // namespace gemmscope::protocol
