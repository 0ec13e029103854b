// What the user asked to run: a stage at a parameter set and size, with timing options. The
// parameter panel produces a RunConfig; the RunnerClient turns it into a protocol `run` request.
#pragma once

#include "requests.h"
#include "stage_catalog.h"
#include "values.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

struct TimingOptions {
    int budgetMs = 1000; // repeat timed launches until this much kernel time
    bool flushL2 = false;
    // Profile one extra launch with hardware counters (CUPTI) for the roofline's measured
    // intensity. On by default: where counters cannot be read the run still succeeds and says why.
    bool counters = true;
    // Build GemmScope's kernels with their inner-loop shared reads kept 4-byte, as the source writes
    // them (the access model's view; the release build lets the compiler merge them into LDS.128),
    // so that the bank-conflict counters are comparable with the model. Slower; off by default.
    bool scalarSharedReads = false;
    // Launch experiments (GemmScope's kernels only): at most this many blocks per SM (0: as many
    // as fit; the runner pads each block's shared memory), and the preferred shared-memory share
    // of the SM's L1/shared SRAM in percent (-1: the driver's choice).
    int maxBlocksPerSm = 0;
    int smemCarveout = -1;
    // How the GPU is held and when timing stops (docs/protocol.md, "Conditions"): a burst from an
    // idle GPU or sustained at load; stop at this relative noise; leave out samples whose SM clock
    // fell below this share of the starting clock.
    protocol::TimingRegime regime = protocol::TimingRegime::Burst;
    double maxNoisePct = 0.5;
    double throttleThresholdPct = 90;
    // GemmScope's TF32 stages: feed the tensor cores raw FP32 bits (truncated to TF32) instead of
    // inputs rounded to nearest TF32 as cuBLAS's TF32 path does (the default; docs/protocol.md
    // "tf32_rounding"). Other stages ignore it.
    bool truncateTf32 = false;
    friend bool operator==(const TimingOptions &, const TimingOptions &) = default;
};

struct RunConfig {
    StageId stage = StageId::Coalesced;
    ParamValues params;
    ProblemSize size;
    TimingOptions timing;
    QString presetKey; // set while the parameters still equal the preset's
    friend bool operator==(const RunConfig &, const RunConfig &) = default;
};

// Tags of requests: an interactive request replaces queued interactive ones (a slider drag does
// not pile up runs); ladder requests always run.
inline const QString kInteractiveTag = QStringLiteral("interactive");
inline const QString kLadderTag = QStringLiteral("ladder");
// A profile is never replaced by a slider drag, nor does it replace a queued run.
inline const QString kProfileTag = QStringLiteral("profile");

// What a `profile` job collects (docs/protocol.md, "Profile"): every part by default.
struct ProfileOptions {
    QStringList parts;                 // "stalls", "instructions", "limiters"; empty: all
    std::optional<int> samplingPeriod; // CUPTI's 2^period cycles; empty: the runner's
    QString tf32Rounding;              // TF32 stages: a Tf32Rounding's name; empty: the runner's (rna)
    friend bool operator==(const ProfileOptions &, const ProfileOptions &) = default;
};

struct RunRequest {
    QString jobId; // assigned by RunnerClient::submit
    QString tag = kInteractiveTag;
    protocol::RequestType type = protocol::RequestType::Run; // or Profile, or Fault (test hook)
    RunConfig config;
    int seed = 1;
    ProfileOptions profile; // type Profile only

    bool isProfile() const { return type == protocol::RequestType::Profile; }
    protocol::RunJob toRunJob() const;         // what a `run` request asks for
    protocol::ProfileJob toProfileJob() const; // the same configuration as a `profile` request
    QJsonObject toProtocolJson() const;        // one line of docs/protocol.md
};

// The whole ladder at one size: every stage's presets in catalog order (worklog steps, guide,
// baselines), as ladder-tagged requests.
QList<RunRequest> ladderRequests(const ProblemSize &size, const TimingOptions &timing);

// A profile request of `config` (tagged kProfileTag); the timing options that matter to a profile
// are its build (scalar shared reads) and its budget, which bounds the watchdog's patience.
RunRequest profileRequest(const RunConfig &config, const ProfileOptions &options = {});

} // namespace gemmscope
