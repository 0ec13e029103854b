// One run of one configuration, as the GUI, sessions and exports see it. A value type: the
// runner's `result` or `error` event becomes one of these (see docs/protocol.md).
#pragma once

#include "events.h"
#include "requests.h"
#include "stage_catalog.h"
#include "stored_event.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <optional>

namespace gemmscope {

enum class RunStatus { Queued, Running, Ok, Failed };

// A stage's key as text and back: how a session, a bench row or a view names a StageId. UTF-8, so
// that a file naming a stage the catalog lacks keeps its name (up to StageId::kMaxKeyLength bytes).
inline QString stageKeyText(const StageId &stage)
{
    return QString::fromUtf8(stage.key().data(), qsizetype(stage.key().size()));
}
// A stage as the parameter panel and the tables name it ("Coalesced cooperative loads"); its key
// where the catalog does not know it (a file from a newer GemmScope).
inline QString stageTitleText(const StageId &stage)
{
    const StageInfo *info = findStage(stage.key());
    return info ? QString::fromStdString(info->title) : stageKeyText(stage);
}
// A user's kernel in those lists, after the ladder: "My tiled kernel (your kernel)".
inline QString customStageListText(const StageInfo &stage)
{
    return QStringLiteral("%1 (your kernel)").arg(QString::fromStdString(stage.title));
}
inline StageId stageIdOf(const QString &key)
{
    const QByteArray utf8 = key.toUtf8();
    return StageId(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

struct RunRecord {
    QString runId; // unique within a session ("r17"); stable across save/load
    // The catalog stage or cuBLAS baseline it ran (StageId::CublasFp32); empty (no key) until set.
    // A run read from a file may name a stage the catalog lacks: kept by its key (the first
    // StageId::kMaxKeyLength bytes of UTF-8) and refused by catalogRefusal().
    StageId stage{std::string_view{}};
    QString presetKey; // "worklog-3" when started from a preset, else empty
    QMap<QString, int> params;
    long long m = 0, n = 0, k = 0;
    RunStatus status = RunStatus::Queued;
    QString origin; // "measured" (this session's runner), "recorded" (embedded), "worklog" (published)

    // Timing (valid when status == Ok).
    double medianMs = 0, p20Ms = 0, p80Ms = 0, minMs = 0;
    int count = 0;
    bool flushL2 = false;
    bool scalarSharedReads = false; // the "scalar_shared" build (TimingOptions::scalarSharedReads)
    int maxBlocksPerSm = 0;         // launch experiments (TimingOptions): 0 = as many as fit
    int smemCarveout = -1;          // -1 = the driver's choice
    double tflops = 0;

    // Verification.
    std::optional<double> relError;
    double tolerance = 0;

    // Compilation.
    int registers = -1, spillStoreBytes = 0, spillLoadBytes = 0, staticSmemBytes = 0;
    bool cacheHit = false;
    double occupancy = -1; // fraction of the SM's warps, -1 unknown
    int blocksPerSm = 0;   // resident blocks per SM (the compiled event's occupancy), 0 unknown
    std::optional<OccupancyLimiter> occupancyLimiter; // the runner's word; see occupancy_limiter.h

    // Failure (status == Failed): the protocol's kind and its sentence.
    QString errorKind, errorMessage, errorLog;

    QString gpuName, gpuArch;
    QString gpuUuid; // the runner's GPU (result's gpu.uuid), so that ratios compare runs on one GPU
    QString host;    // the runner's machine (its `ready` event), empty where unknown
    int smCount = 0; // SMs of the runner's GPU (its `ready` event), 0 unknown
    int smClockMHz = 0;
    QDateTime timestamp;
    // Hardware counters of a run that asked for them (docs/protocol.md, "counters"): the
    // readings, or the sentence why they could not be read. Empty when the run had none.
    std::optional<protocol::Counters> counters;
    // How steady the GPU was while the run was timed (docs/protocol.md, "Conditions"): the measured
    // SM clock, noise, throttling, regime. Empty for runs recorded before it was measured.
    std::optional<protocol::RunConditions> conditions;
    // While it runs: the median of the repetitions timed so far (progress events), preliminary.
    std::optional<double> preliminaryMedianMs;
    // Untimed launches before the timed ones (the result's timing.warmup); empty where unknown.
    std::optional<int> warmup;
    // The runner's final event, decoded once (StoredEvent): a session writes it back as it came,
    // the fields a record does not type included (a newer runner's, the ptxas log, the timing
    // budget), so that a load and a save lose nothing. Every field a view shows is typed above.
    StoredEvent event;

    QString stageKey() const { return stageKeyText(stage); } // "coalesced", as files and views name it
    bool isOk() const { return status == RunStatus::Ok; }
    // The kernel as the ladder defines it: release build, launched as the stage launches it (no
    // launch experiment). Comparisons with the worklog's published steps use only these.
    bool isPlainLaunch() const { return !scalarSharedReads && maxBlocksPerSm <= 0 && smemCarveout < 0; }
    QString sizeText() const; // squareOrFullSizeText: "4096³", "8192x4096x6144"
};

// A preset's stage as the tables' Stage name column writes it for the preset's own run: the
// stage's title, and what the preset changes where the title alone would misname it.
inline QString presetStageNameText(const Preset &preset)
{
    const QString title = stageTitleText(preset.stage);
    return preset.change.empty() ? title
                                 : QStringLiteral("%1: %2").arg(title, QString::fromStdString(preset.change));
}

// A run's stage as the tables and the runtime chart name it: the stage's title, and what its
// preset changes where the title alone would misname it or would read as another preset of its
// stage ("Double buffering: 128x128 tiles" for step 5a beside 5b's 192x192; "...: tuned" for
// +tuned beside +pipe). Only for the preset's own parameters: a run with other ones is
// the stage, not the step.
inline QString runStageTitleText(const RunRecord &run)
{
    const Preset *preset = run.presetKey.isEmpty() ? nullptr : findPreset(run.presetKey.toStdString());
    if (!preset || preset->stage != run.stage)
        return stageTitleText(run.stage);
    for (const auto &[name, value] : preset->params)
        if (run.params.value(QString::fromStdString(name), value - 1) != value)
            return stageTitleText(run.stage);
    return presetStageNameText(*preset);
}

QString runStatusName(RunStatus s); // "queued", "running", "ok", "failed"
// A problem size wherever a user reads one (titles, sentences, tooltips, table cells, legends):
// "4096³" where the three agree, else "8192x4096x6144", as the size fields take it. One spelling:
// "4096 x 4096 x 4096" in one view beside "4096³" in the next read as two sizes.
QString squareOrFullSizeText(const ProblemSize &size);
// The run's parameters as the catalog and the models take them.
ParamValues paramValuesOf(const RunRecord &run);
// "BM=64 BN=64 BK=8 TM=4 TN=4": the catalog's order (gemmscope::formatParams), not the map's;
// "..., scalar shared reads" for that build, which is another kernel binary, and the launch
// experiments (", at most 1 block/SM", ", carve-out 100 %").
QString formatRunParams(const RunRecord &run);
std::optional<RunStatus> runStatusFromName(const QString &name);
// Why the catalog refuses the run's stage, parameters or size (its sentence), or empty when the
// analytic models may take the run. A run read from a file can say anything (BX = 0, a missing
// TILE, a size of 2^32): it is kept and listed, but only a run without a refusal is ever given to
// a model (traffic, mapping, access), which would otherwise divide by its zero tile.
QString catalogRefusal(const RunRecord &run);

// Runner events -> records, from the typed events of the protocol codec (protocol::decodeEvent).
// `runId` is the event's job id; the event's own fields fill the rest. `request` (the run as
// sent) supplies stage, params and size, which an error event lacks. `received`: the event as it
// came, for what of it the typed event does not keep (StoredEvent); none for an error the client
// made itself.
RunRecord fromResultEvent(const protocol::ResultEvent &event, const QJsonObject &received);
RunRecord fromErrorEvent(const protocol::ErrorEvent &event, const protocol::RunJob &request,
                         const QJsonObject &received = {});
// The record of a run request not yet answered: its identity (stage, params, size, build and
// launch settings) as the request asks for them, status Queued.
RunRecord recordOfRequest(const protocol::RunJob &request);
// Copies the fields of a `compiled` event (registers, smem, occupancy...) into `record`.
void applyCompiled(RunRecord &record, const protocol::CompiledInfo &compiled);

// Session persistence. fromJson refuses an object that lacks the fields a record needs and says
// which in `error`; it never returns a half-filled record.
QJsonObject toJson(const RunRecord &record);
std::optional<RunRecord> fromJson(const QJsonObject &object, QString *error = nullptr);

} // namespace gemmscope

// Runs travel between the runner thread and the UI in queued signals.
Q_DECLARE_METATYPE(gemmscope::RunRecord)
