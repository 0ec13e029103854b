// Typed events of docs/protocol.md, each with one toJson and one fromJson (fromJson checks the
// documented JSON types and names the first field that has another in `error`). Fields the
// protocol carries as null when unknown are empty optionals; optional fields that are absent
// stay absent when written again.
#pragma once

#include "conditions.h"
#include "protocol.h"
#include "stage_types.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>
#include <variant>

namespace gemmscope::protocol {

struct GpuInfo {
    QString name, arch, uuid;
    // In `ready` only.
    std::optional<int> cc, sms, smClockMhz, smemPerBlockOptin;
    QString smClockSource;
    std::optional<double> l2Bytes, memBytes;
    friend bool operator==(const GpuInfo &, const GpuInfo &) = default;
};

struct ReadyEvent {
    int protocol = kVersion;
    QString runner, nvrtc, cacheDir;
    QString host; // the runner's machine (optional, added in protocol 1 without a version change)
    std::optional<GpuInfo> gpu; // null: no usable GPU, and gpuError says why
    QString gpuErrorKind, gpuErrorMessage;
    friend bool operator==(const ReadyEvent &, const ReadyEvent &) = default;
};

struct ProgressEvent {
    QString id;
    ProgressPhase phase = ProgressPhase::Unknown; // a newer runner's phase reads as Unknown
    int done = 0, total = 0;
    std::optional<double> preliminaryMedianMs; // timing: the median of the repetitions so far
    friend bool operator==(const ProgressEvent &, const ProgressEvent &) = default;
};

struct OccupancyInfo {
    int blocksPerSm = 0, activeWarps = 0, maxWarps = 0;
    double fraction = 0;
    std::optional<OccupancyLimiter> limiter; // none where not said; a newer runner's name: Unknown
    QString explanation;
    std::optional<int> requestedBlocksPerSm, paddingSmemBytes; // with max_blocks_per_sm
    friend bool operator==(const OccupancyInfo &, const OccupancyInfo &) = default;
};

// The `compiled` event's fields (also the `compiled` object of a result).
struct CompiledInfo {
    QString id; // the event's; empty inside a result
    QString stage, kernel, loweredName, arch, ptxasLog;
    bool cacheHit = false;
    double compileMs = 0;
    std::optional<double> cubinBytes;
    int registers = -1, spillStoreBytes = 0, spillLoadBytes = 0, stackFrameBytes = 0, staticSmemBytes = 0;
    // The stage's own dynamic (extern __shared__) bytes per block, without a max_blocks_per_sm
    // padding; 0 for a kernel without (sent only when > 0). Shared memory per block is the sum.
    int dynamicSmemBytes = 0;
    int smemBytes() const { return staticSmemBytes + dynamicSmemBytes; }
    std::optional<OccupancyInfo> occupancy; // null in compile-only mode without a datasheet spec
    std::optional<int> smemCarveout;        // when the run asked for one
    std::optional<ParamValues> params;      // a compile job's answer
    std::optional<int> threadsPerBlock;     // a compile job's answer
    // Compile-ahead (docs/protocol.md): whether the kernel was compiled on the runner's compile pool
    // before the job reached the GPU worker, and how long the GPU worker waited for it.
    std::optional<bool> compiledAhead;
    std::optional<double> compileWaitMs;
    // Where registers and shared memory come from: "ptxas", "cuda_runtime", or an empty string for
    // null (unknown). Absent in runs recorded before the runner sent it.
    std::optional<QString> resourcesSource;
    QString occupancyNote; // why `occupancy` is null without a GPU and a ptxas report
    friend bool operator==(const CompiledInfo &, const CompiledInfo &) = default;
};

struct TimingResult {
    double medianMs = 0, p20Ms = 0, p80Ms = 0, minMs = 0;
    int count = 0;
    std::optional<int> warmup;
    std::optional<double> budgetMs;
    bool flushL2 = false;
    friend bool operator==(const TimingResult &, const TimingResult &) = default;
};

// A result's `baseline` (a run with "baseline": true): the cuBLAS call of the stage's precision,
// timed interleaved with the stage (alternating launches), so that a drift of clock or temperature
// falls on both and their ratio holds.
// The baseline's `paired_ratio`: per round, the cuBLAS call's time over the stage's (0.9: the stage
// runs at 90 % of cuBLAS's speed), over the rounds where neither sample was throttled. Both
// launches of a round see nearly the same clock, so the drift they share cancels in each ratio:
// the figure "% of cuBLAS" should come from (kernels/paired_ratio.h).
struct PairedRatioResult {
    double median = 0, p20 = 0, p80 = 0;
    int pairs = 0;
    std::optional<double> noisePct; // relative standard deviation of the ratios; absent below two
    QList<double> burstMedians;     // several bursts (one of them reported): each one's median ratio
    friend bool operator==(const PairedRatioResult &, const PairedRatioResult &) = default;
};

struct BaselineResult {
    QString stage; // "cublas_fp32" or "cublas_tf32"
    TimingResult timing;
    RunConditions conditions;
    std::optional<PairedRatioResult> pairedRatio; // absent in results recorded before it
    friend bool operator==(const BaselineResult &, const BaselineResult &) = default;
};

struct VerifyResult {
    QString reference;
    std::optional<double> relError, tolerance;
    std::optional<bool> passed; // null when skipped
    bool skipped = false;
    friend bool operator==(const VerifyResult &, const VerifyResult &) = default;
};

// Access-model quantities measured over a launch; empty where the kernel made no such access.
struct AccessCounters {
    std::optional<double> globalLdSectorsPerRequest, globalStSectorsPerRequest;
    std::optional<double> sharedLdWavefrontsPerRequest, sharedStWavefrontsPerRequest;
    friend bool operator==(const AccessCounters &, const AccessCounters &) = default;
};

// A result's `counters`: either the readings or, when they could not be read, `error`.
struct Counters {
    QString error; // non-empty: no readings, this sentence says why
    std::optional<double> dramReadBytes, dramWriteBytes, l2Bytes, ffmaThreadInst, flops;
    std::optional<double> dramIntensity, l2Intensity; // null when the denominator was 0
    // Absent in runs recorded before the hierarchical roofline: bytes through L1 (global and local,
    // l1tex__t_bytes.sum) and shared memory (sm__sass_data_bytes_mem_shared.sum), and the FLOPs per
    // byte of both together (null when both were 0).
    std::optional<double> l1Bytes, sharedBytes, l1Intensity;
    std::optional<int> kernels;
    std::optional<AccessCounters> access; // absent in runs recorded before it was read
    QMap<QString, double> metrics;        // raw CUPTI values by metric name
    bool hasError() const { return !error.isEmpty(); }
    std::optional<double> metric(const QString &name) const
    {
        const auto it = metrics.constFind(name);
        return it == metrics.constEnd() ? std::nullopt : std::optional<double>(*it);
    }
    friend bool operator==(const Counters &, const Counters &) = default;
};

struct ResultEvent {
    QString id, stage;
    ParamValues params;
    ProblemSize size;
    std::optional<double> seed;
    GpuInfo gpu;
    TimingResult timing;
    std::optional<double> tflops;
    VerifyResult verify;
    std::optional<CompiledInfo> compiled; // GemmScope's kernels, not cuBLAS
    QString build;                        // echoed for GemmScope's kernels
    QString tf32Rounding;                 // TF32 stages: "rna" or "truncate" (how inputs became TF32)
    std::optional<int> maxBlocksPerSm, smemCarveout;
    std::optional<double> smClockMhz;
    QString smClockSource, timestamp;
    std::optional<Counters> counters;        // when the run asked for counters
    std::optional<RunConditions> conditions; // absent in older recorded results
    std::optional<BaselineResult> baseline;  // when the run asked for one
    friend bool operator==(const ResultEvent &, const ResultEvent &) = default;
};

struct ErrorEvent {
    QString id; // empty when the runner could not tell (null in the JSON)
    ErrorKind kind = ErrorKind::ProtocolError;
    QString message, log;
    // wrong_result: the error (null when NaN), the tolerance and whether C held NaN.
    bool hasWrongResultDetail = false;
    std::optional<double> relError;
    double tolerance = 0;
    bool nan = false;
    friend bool operator==(const ErrorEvent &, const ErrorEvent &) = default;
};

struct CeilingsEvent {
    QString id;
    GpuInfo gpu;
    double fmaTflops = 0, dramGbs = 0;
    bool cached = false;
    QString measuredAt;
    // Optional (absent from runners and caches before the TF32 roof): the TF32 tensor-core peak,
    // what measured it ("wgmma.m64n256k8.tf32" on Hopper, "mma.sync.m16n8k8.tf32" elsewhere), or
    // why the device has none.
    std::optional<double> tf32Tflops;
    QString tf32Kernel, tf32Unavailable;
    // Optional (absent from runners and caches before the hierarchical roofline): the L2 and
    // shared-memory read bandwidths in GB/s, the roofline's L2 and L1/shared roofs.
    std::optional<double> l2Gbs, sharedGbs;
    friend bool operator==(const CeilingsEvent &, const CeilingsEvent &) = default;
};

struct OwnerMapEvent {
    QString id, stage;
    ParamValues params;
    int rows = 0, cols = 0, threads = 0;
    long long k = 0;
    QList<int> owners; // row-major rows x cols; -1 where no thread stored
    friend bool operator==(const OwnerMapEvent &, const OwnerMapEvent &) = default;
};

// A `disassemble` job's answer: PTX always, SASS where nvdisasm was found (else why not).
struct DisassemblyEvent {
    QString id, stage, kernel, arch;
    ParamValues params;
    QString ptx;
    std::optional<QString> sass; // null without nvdisasm
    QString sassTool, sassUnavailable;
    friend bool operator==(const DisassemblyEvent &, const DisassemblyEvent &) = default;
};

// One SASS instruction of a `profile` answer: where it is (function, byte offset; the CUDA source
// line where the kernel was built with -lineinfo), its text, the PC samples that found a warp on
// it by stall reason ("long_scoreboard", "selected", ...: CUPTI's smsp__pcsamp_warps_issue_stalled_*
// names without that prefix), and CUPTI's SASS metrics for it ("inst_executed",
// "sectors_mem_global", ...: smsp__sass_* without that prefix).
struct ProfileInstruction {
    QString function; // demangled
    long long pc = 0; // byte offset in the function
    QString sass;     // "LDS.128 R4, [R2+0x10]"; empty where no disassembly was available
    QString file;     // source file name without directory; empty where the CUBIN has no line table
    int line = 0;     // 0: unknown
    QMap<QString, double> stalls;
    QMap<QString, double> metrics;
    double samples() const; // over every stall reason
    std::optional<double> metric(const QString &name) const
    {
        const auto it = metrics.constFind(name);
        return it == metrics.constEnd() ? std::nullopt : std::optional<double>(*it);
    }
    friend bool operator==(const ProfileInstruction &, const ProfileInstruction &) = default;
};

// A `profile` job's answer. Each part may fail alone: its *Error says why in a sentence and the
// other parts stand. Never a timing: a profile does not replace or alter a timed result.
struct ProfileEvent {
    QString id, stage, build, tf32Rounding, arch;
    ParamValues params;
    ProblemSize size;
    GpuInfo gpu;
    std::optional<int> samplingPeriod;                  // 2^period SM cycles between samples
    std::optional<double> totalSamples, droppedSamples; // as CUPTI counts them
    bool samplingBufferFull = false;
    QList<ProfileInstruction> instructions;
    QMap<QString, double> limiters; // kernel-wide range-profiler metrics by their CUPTI names
    QString stallsError, instructionsError, limitersError;
    std::optional<double> durationMs;
    QString timestamp;
    friend bool operator==(const ProfileEvent &, const ProfileEvent &) = default;
};

QJsonObject toJson(const ReadyEvent &event);
QJsonObject toJson(const DisassemblyEvent &event);
QJsonObject toJson(const ProgressEvent &event);
QJsonObject toJson(const CompiledInfo &event); // with "event":"compiled" when it has an id
QJsonObject toJson(const ResultEvent &event);
QJsonObject toJson(const ErrorEvent &event);
QJsonObject toJson(const CeilingsEvent &event);
QJsonObject toJson(const OwnerMapEvent &event);
QJsonObject toJson(const ProfileEvent &event);
QJsonObject toJson(const Counters &counters);
QJsonObject toJson(const OccupancyInfo &occupancy);
QJsonObject toJson(const GpuInfo &gpu); // the "gpu" object of ready, result and ceilings

bool fromJson(const QJsonObject &json, ReadyEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, DisassemblyEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, ProgressEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, CompiledInfo &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, ResultEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, ErrorEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, CeilingsEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, OwnerMapEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, ProfileEvent &out, QString *error = nullptr);
bool fromJson(const QJsonObject &json, Counters &out, QString *error = nullptr);

// The event's type, when `json` has a known one; its job id, empty when it has none (or null).
std::optional<EventType> eventTypeOf(const QJsonObject &json);
QString eventIdOf(const QJsonObject &json);

// One runner line as a typed event: decoded once (RunnerClient's thread, the bench), so that
// nothing past the codec reads the JSON again.
using Event = std::variant<ReadyEvent, CompiledInfo, ProgressEvent, ResultEvent, ErrorEvent, CeilingsEvent,
                           OwnerMapEvent, DisassemblyEvent, ProfileEvent>;
// The event of `json`'s type; empty for an unknown type. A field of another type reads as absent
// and the first one is named in `error` (the event is returned all the same).
std::optional<Event> decodeEvent(const QJsonObject &json, QString *error = nullptr);
// `ready`'s "protocol" value as received (1, 1.5, "1", missing): a refusal names what came.
QJsonValue protocolVersionValue(const QJsonObject &ready);
// For the runner, which builds an event before it knows the job: sets its id; and the fields a
// wrong_result error adds (its relative error, null when not finite, the tolerance, NaN in C).
void setEventId(QJsonObject &event, const QString &id);
QJsonObject wrongResultFields(std::optional<double> relError, double tolerance, bool nan);

} // namespace gemmscope::protocol
