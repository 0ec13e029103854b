#include "runtime_series.h"

#include "stage_catalog.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace gemmscope {

namespace {

const QString kWorklogOrigin = QStringLiteral("worklog");

bool isPublished(const RunRecord &run)
{
    return run.origin == kWorklogOrigin;
}

bool isUsableTime(const RunRecord &run)
{
    return run.status == RunStatus::Ok && run.medianMs > 0;
}

// Later of two runs: by timestamp when both have one, else by position (later in the list wins).
bool laterOrEqual(const RunRecord &candidate, const RunRecord &current)
{
    if (candidate.timestamp.isValid() && current.timestamp.isValid())
        return candidate.timestamp >= current.timestamp;
    return true;
}

const Preset *stepZeroPreset()
{
    if (const Preset *p = findPreset("worklog-0"))
        return p;
    for (const Preset &p : presets())
        if (p.worklogT4Ms && p.stage == StageId::Naive)
            return &p;
    return nullptr;
}

// A speedup row's name where its code is unknown (a preset the catalog lacks a code for).
QString stepLabel(const Preset &preset)
{
    const QString code = shortPresetLabel(QString::fromStdString(preset.key));
    return code.isEmpty() ? QString::fromStdString(preset.key) : code;
}

} // namespace

int stageRank(const QString &stageKey)
{
    // The FP32 ladder, then cuBLAS FP32; the TF32 tensor-core stages after it, beside cuBLAS TF32,
    // the baseline they are measured against. Within each group, catalog order. Looked up, not
    // searched: a search wrote each catalog key as text, a tenth of showing 100,000 runs.
    static const QHash<QString, int> ranks = [] {
        QHash<QString, int> out;
        const auto &all = stages();
        const int n = int(all.size());
        for (int i = 0; i < n; ++i) {
            const StageInfo &s = all[std::size_t(i)];
            if (const QString key = QString::fromStdString(s.key); !out.contains(key))
                out.insert(key, (s.precision == Precision::Tf32 ? 2 * n : 0) + (s.isLibrary ? n : 0) + i);
        }
        return out;
    }();
    return ranks.value(stageKey, 4 * int(stages().size()));
}

int presetRank(const QString &presetKey)
{
    static const QHash<QString, int> ranks = [] {
        QHash<QString, int> out;
        for (std::size_t i = 0; i < presets().size(); ++i)
            if (const QString key = QString::fromStdString(presets()[i].key); !out.contains(key))
                out.insert(key, int(i));
        return out;
    }();
    const int count = int(presets().size());
    if (presetKey.isEmpty())
        return count; // ad-hoc settings after the named presets of the same stage
    return ranks.value(presetKey, count + 1);
}

namespace {

// Each run's rank once, not per comparison: ranking looks stage and preset up by name, and a
// 50,000-run session made ~2 million comparisons. In ladder order: (rank, index in `runs`).
std::vector<std::pair<std::pair<int, int>, qsizetype>> rankedInLadderOrder(const QList<RunRecord> &runs)
{
    std::vector<std::pair<std::pair<int, int>, qsizetype>> keyed;
    keyed.reserve(size_t(runs.size()));
    for (qsizetype i = 0; i < runs.size(); ++i)
        keyed.push_back({ladderRank(runs[i]), i});
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    return keyed;
}

} // namespace

std::vector<qsizetype> ladderOrder(const QList<RunRecord> &runs)
{
    const auto keyed = rankedInLadderOrder(runs);
    std::vector<qsizetype> order;
    order.reserve(keyed.size());
    for (const auto &entry : keyed)
        order.push_back(entry.second);
    return order;
}

QList<RunRecord> ladderOrdered(const QList<RunRecord> &runs)
{
    QList<RunRecord> ordered;
    ordered.reserve(runs.size());
    for (const qsizetype at : ladderOrder(runs))
        ordered.append(runs[at]);
    return ordered;
}

namespace {

bool isWorklogStep(const Preset &preset)
{
    return preset.key.rfind("worklog-", 0) == 0;
}

// For each stage, the preset rank its runs follow when they are not a worklog step: the last
// worklog step that runs its kernel, else the one its predecessor in the catalog follows (-1 before
// any).
const QHash<QString, int> &stageAnchors()
{
    static const QHash<QString, int> anchors = [] {
        QHash<QString, int> out;
        int anchor = -1;
        for (const StageInfo &stage : stages()) {
            int own = -1;
            for (std::size_t i = 0; i < presets().size(); ++i)
                if (presets()[i].stage == stage.id && isWorklogStep(presets()[i]))
                    own = std::max(own, int(i));
            anchor = own >= 0 ? own : anchor;
            out.insert(QString::fromStdString(stage.key), anchor);
        }
        return out;
    }();
    return anchors;
}

} // namespace

std::pair<int, int> ladderRank(const RunRecord &run)
{
    const int stageCount = int(stages().size());
    const int presetCount = int(presets().size());
    const QString stageKey = run.stageKey();
    const int stage = stageRank(stageKey);
    const int group = stage / std::max(1, stageCount); // CUDA cores, cuBLAS FP32, TF32, cuBLAS TF32, unknown
    const int catalogIndex = stage % std::max(1, stageCount);
    const int preset = presetRank(run.presetKey); // presetCount: none; presetCount + 1: unknown
    const bool step = preset < presetCount && isWorklogStep(presets()[std::size_t(preset)]);
    const int anchor = step ? preset : stageAnchors().value(stageKey, -1);
    // After the step it follows: its stage in catalog order, then its preset (own settings last).
    const int after = step ? 0 : 1 + catalogIndex * (presetCount + 2) + preset;
    return {group * (presetCount + 1) + anchor + 1, after};
}

double tflopsAt(const RunRecord &run, double ms)
{
    if (ms <= 0)
        return 0;
    if (run.m > 0 && run.n > 0 && run.k > 0)
        return ProblemSize{run.m, run.n, run.k}.tflopsAt(ms);
    return run.medianMs > 0 ? run.tflops * run.medianMs / ms : 0.0;
}

QString failureLabel(const RunRecord &run)
{
    if (run.status == RunStatus::Queued)
        return QStringLiteral("queued");
    if (run.status == RunStatus::Running)
        return QStringLiteral("running");
    if (run.status == RunStatus::Ok)
        return QString();
    if (run.errorKind.isEmpty())
        return QStringLiteral("failed");
    QString text = run.errorKind;
    text.replace(QLatin1Char('_'), QLatin1Char(' '));
    return text;
}

RuntimeSlot runtimeSlotOf(const RunRecord &run, RuntimeValue mode, qsizetype at)
{
    return runtimeSlotOf(run, mode, at, ladderRank(run));
}

RuntimeSlot runtimeSlotOf(const RunRecord &run, RuntimeValue mode, qsizetype at, std::pair<int, int> rank)
{
    RuntimeSlot slot;
    slot.rank = rank;
    slot.run = &run;
    slot.at = at;
    slot.runId = run.runId;
    slot.group = runGroupOf(run);
    slot.published = run.origin == QLatin1String("worklog");
    slot.stage = run.stage;
    slot.label = shortRunLabel(run); // the full name is in the tooltip
    slot.plotted = isUsableTime(run);
    if (!slot.plotted) {
        slot.failure = run.status == RunStatus::Ok ? QStringLiteral("no time") : failureLabel(run);
    } else if (mode == RuntimeValue::Milliseconds) {
        slot.value = run.medianMs;
        slot.low = run.p20Ms > 0 ? run.p20Ms : run.medianMs;
        slot.high = run.p80Ms > 0 ? run.p80Ms : run.medianMs;
    } else {
        slot.value = run.tflops > 0 ? run.tflops : tflopsAt(run, run.medianMs);
        // The slow end of the time range is the low end of the throughput range.
        slot.low = run.p80Ms > 0 ? tflopsAt(run, run.p80Ms) : slot.value;
        slot.high = run.p20Ms > 0 ? tflopsAt(run, run.p20Ms) : slot.value;
    }
    return slot;
}

QList<RuntimeSlot> runtimeSlots(const QList<RunRecord> &runs, RuntimeValue mode,
                                const std::function<bool(const RunRecord &)> &plotted)
{
    // In a list sized up front, with room for the runs that arrive: the chart keeps this list
    // (RuntimeSlotRows::assign), and a list that grew as it filled moved every slot at each doubling.
    QList<RuntimeSlot> result;
    result.reserve(runs.size() + runs.size() / 2 + 256);
    for (const auto &[rank, at] : rankedInLadderOrder(runs))
        if (!plotted || plotted(runs[at]))
            result.append(runtimeSlotOf(runs[at], mode, at, rank));
    return result;
}

std::optional<RunRecord> cublasFp32Reference(const QList<RunRecord> &runs)
{
    std::optional<RunRecord> best;
    for (const RunRecord &run : runs)
        if (run.stage == StageId::CublasFp32 && isUsableTime(run) && !isPublished(run))
            if (!best || laterOrEqual(run, *best))
                best = run;
    return best;
}

std::optional<RunRecord> cublasTf32Reference(const QList<RunRecord> &runs)
{
    std::optional<RunRecord> best;
    for (const RunRecord &run : runs)
        if (run.stage == StageId::CublasTf32 && isUsableTime(run) && !isPublished(run))
            if (!best || laterOrEqual(run, *best))
                best = run;
    return best;
}

QList<SpeedupRow> speedupOverNaive(const QList<RunRecord> &runs)
{
    QList<SpeedupRow> rows;
    const Preset *zero = stepZeroPreset();
    if (!zero || !zero->worklogT4Ms)
        return rows;
    const double publishedZeroMs = *zero->worklogT4Ms;
    const QString zeroKey = QString::fromStdString(zero->key);

    auto latestMeasured = [&](const QString &presetKey, const RunRecord *sameSizeAs) {
        std::optional<RunRecord> best;
        for (const RunRecord &run : runs) {
            if (run.presetKey != presetKey || !isUsableTime(run) || isPublished(run) || !run.isPlainLaunch())
                continue; // a launch experiment is not the step the worklog measured
            if (sameSizeAs && (run.m != sameSizeAs->m || run.n != sameSizeAs->n || run.k != sameSizeAs->k))
                continue;
            if (!best || laterOrEqual(run, *best))
                best = run;
        }
        return best;
    };

    for (const Preset &preset : presets()) {
        if (!preset.worklogT4Ms || *preset.worklogT4Ms <= 0)
            continue;
        SpeedupRow row;
        row.presetKey = QString::fromStdString(preset.key);
        row.label = stepLabel(preset);
        row.title = presetTitle(preset);
        row.publishedSpeedup = publishedZeroMs / *preset.worklogT4Ms;
        const std::optional<RunRecord> step = latestMeasured(row.presetKey, nullptr);
        if (!step) {
            row.note = QStringLiteral("not run on this GPU yet");
        } else if (const std::optional<RunRecord> naive = latestMeasured(zeroKey, &*step)) {
            row.measuredSpeedup = naive->medianMs / step->medianMs;
            row.measuredRunId = step->runId;
        } else {
            row.note = QStringLiteral("no successful run of %1 at %2 to compare with")
                           .arg(presetTitle(zeroKey), step->sizeText());
            row.measuredRunId = step->runId;
        }
        rows.append(row);
    }
    return rows;
}

QString RunGroup::key() const
{
    return QStringLiteral("%1|%2x%3x%4").arg(gpu).arg(m).arg(n).arg(k);
}

QString RunGroup::label() const
{
    const QString size = m > 0 ? squareOrFullSizeText(ProblemSize{m, n, k}) : QStringLiteral("any size");
    return QStringLiteral("%1, %2").arg(gpu.isEmpty() ? QStringLiteral("unknown GPU") : gpu, size);
}

RunGroup runGroupOf(const RunRecord &run)
{
    return RunGroup{run.gpuName, run.m, run.n, run.k};
}

bool inGroup(const RunRecord &run, const RunGroup &group)
{
    if (!run.gpuName.isEmpty() && !group.gpu.isEmpty() && run.gpuName != group.gpu)
        return false;
    if (run.m > 0 && group.m > 0 && (run.m != group.m || run.n != group.n || run.k != group.k))
        return false;
    return true;
}

QList<RunGroup> runGroups(const QList<RunRecord> &runs)
{
    QList<RunGroup> groups;
    for (const RunRecord &run : runs) {
        if (run.gpuName.isEmpty() || run.m <= 0)
            continue;
        const RunGroup group = runGroupOf(run);
        if (!groups.contains(group))
            groups.append(group);
    }
    return groups;
}

std::optional<RunGroup> latestGroup(const QList<RunRecord> &runs)
{
    const RunRecord *latest = nullptr;
    for (bool measuredOnly : {true, false}) {
        for (const RunRecord &run : runs) {
            if (run.gpuName.isEmpty() || run.m <= 0 || (measuredOnly && isPublished(run)))
                continue;
            if (!latest || laterOrEqual(run, *latest))
                latest = &run;
        }
        if (latest)
            return runGroupOf(*latest);
    }
    return std::nullopt;
}

QList<RunRecord> runsInGroup(const QList<RunRecord> &runs, const RunGroup &group)
{
    QList<RunRecord> result;
    for (const RunRecord &run : runs)
        if (inGroup(run, group))
            result.append(run);
    return result;
}

LadderGroup ladderGroupOf(const QString &stageKey)
{
    const StageInfo *stage = findStage(stageKey.toStdString());
    if (!stage)
        return LadderGroup::BeyondWorklog;
    if (stage->isLibrary)
        return LadderGroup::Baselines;
    if (stage->precision == Precision::Tf32)
        return LadderGroup::TensorCores;
    return stage->beyondSeeds ? LadderGroup::BeyondWorklog : LadderGroup::WorklogSteps;
}

QString ladderGroupName(LadderGroup group)
{
    switch (group) {
    case LadderGroup::WorklogSteps:
        // What the codes are and where they come from; "worklog + guide (G32)" named two documents
        // a new reader had never heard of (issue 38; the glossary says what each is).
        return QStringLiteral("stages 0–8 (worklog), G32 (guide)");
    case LadderGroup::BeyondWorklog:
        return QStringLiteral("+ beyond the worklog");
    case LadderGroup::TensorCores:
        return QStringLiteral("+ tensor cores (TF32)");
    case LadderGroup::Baselines:
        return QStringLiteral("cuBLAS baselines");
    }
    return QString();
}

} // namespace gemmscope
