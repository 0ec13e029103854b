#include "ladder_mode.h"

#include "bench_console.h"
#include "bench_file.h"
#include "bench_table.h"
#include "events.h"
#include "file_write.h"
#include "runner_session.h"
#include "stage_catalog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>

namespace gemmscope::bench {

std::optional<std::vector<LadderTarget>> resolveTargets(const QString &list, QString *error)
{
    const QString cublasFp32 = QString::fromStdString(StageId::CublasFp32.str());
    QStringList keys;
    if (list.isEmpty()) {
        // The worklog's ladder, then the FP32 stages past it.
        for (const Preset &p : presets())
            if (const QString key = QString::fromStdString(p.key);
                key.startsWith(QStringLiteral("worklog-")) || key.startsWith(QStringLiteral("fp32-")))
                keys << key;
        keys << cublasFp32 << QString::fromStdString(StageId::CublasTf32.str());
    } else {
        keys = list.split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    // cuBLAS FP32 first: the percentages need it.
    keys.removeAll(cublasFp32);
    keys.prepend(cublasFp32);

    std::vector<LadderTarget> targets;
    for (const QString &raw : keys) {
        const QString key = raw.trimmed();
        if (const Preset *p = findPreset(key.toStdString())) {
            targets.push_back({key, QString::fromStdString(stageInfo(p->stage).key), p->params});
        } else if (const StageInfo *s = findStage(key.toStdString())) {
            targets.push_back({{}, key, s->isLibrary ? ParamValues{} : defaultParams(s->id)});
        } else {
            *error = QStringLiteral("\"%1\" is neither a preset nor a stage key.").arg(key);
            return std::nullopt;
        }
    }
    return targets;
}

QJsonObject runJob(const QString &id, const LadderTarget &t, const JobOptions &options)
{
    protocol::RunJob job;
    job.id = id;
    job.stage = t.stage;
    job.params = t.params;
    job.size = options.size;
    job.seed = options.seed;
    job.timing = options.timing;
    if (options.counters)
        job.counters = true;
    // Build, block limit and carve-out concern GemmScope's kernels; cuBLAS stays the untouched baseline.
    const StageInfo *stage = findStage(t.stage.toStdString());
    if (stage && !stage->isLibrary && options.baseline)
        job.baseline = true;
    if (stage && !stage->isLibrary && stage->precision == Precision::Tf32)
        job.tf32Rounding = options.tf32Rounding;
    if (stage && !stage->isLibrary) {
        if (protocol::buildKindFromName(options.build) != protocol::BuildKind::Release)
            job.build = options.build;
        if (options.maxBlocksPerSm > 0)
            job.maxBlocksPerSm = options.maxBlocksPerSm;
        if (options.smemCarveout >= 0)
            job.smemCarveout = options.smemCarveout;
    }
    return protocol::toJson(job);
}

namespace {

// --kernel FILE read and registered, with --params over its defaults; none without --kernel.
Parsed<std::optional<KernelTarget>> kernelTarget(const BenchCommandLine &commandLine, const ProblemSize &size)
{
    const BenchOptions &o = commandLine.options;
    if (!commandLine.isSet(o.kernel)) {
        if (commandLine.isSet(o.params))
            return OptionError{
                QStringLiteral("--params gives the parameters of --kernel; there is no --kernel.")};
        return std::optional<KernelTarget>();
    }
    QString error;
    std::optional<KernelTarget> kernel = registerKernelFile(commandLine.value(o.kernel), &error);
    if (!kernel)
        return OptionError{error, kBadKernelExitCode};
    const auto params = kernelParams(stageInfo(StageId(kernel->stage.toStdString())),
                                     commandLine.value(o.params), size, &error);
    if (!params)
        return OptionError{error};
    kernel->params = *params;
    return kernel;
}

// --stages as the ladder reads them, and the --kernel stage last. With --kernel alone, the kernel
// beside the cuBLAS call of its precision (FP32 is always first).
std::optional<std::vector<LadderTarget>> targetsOf(const BenchCommandLine &commandLine,
                                                   const std::optional<KernelTarget> &kernel, QString *error)
{
    const BenchOptions &o = commandLine.options;
    const QString stagesList =
        kernel && !commandLine.isSet(o.stages)
            ? QString::fromStdString(
                  (kernel->precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32).str())
            : commandLine.value(o.stages);
    auto targets = resolveTargets(stagesList, error);
    if (targets && kernel)
        targets->push_back({{}, kernel->stage, kernel->params});
    return targets;
}

// --regime, --max-noise, --throttle-threshold and --bursts: how the GPU is held while timing and
// when timing stops.
std::optional<OptionError> readTimingConditions(const BenchCommandLine &commandLine, LadderCommand &command)
{
    const BenchOptions &o = commandLine.options;
    const QString regimeName = commandLine.value(o.regime);
    const protocol::TimingRegime regime = protocol::timingRegimeFromName(regimeName);
    if (regime == protocol::TimingRegime::Unknown)
        return OptionError{QStringLiteral("--regime must be %1, not \"%2\".")
                               .arg(protocol::timingRegimeNames().join(QStringLiteral(" or ")), regimeName)};
    NoiseCriterion &criterion = command.noise;
    bool noiseOk = false, thresholdOk = false;
    criterion.maxNoisePct = commandLine.value(o.maxNoise).toDouble(&noiseOk);
    criterion.throttleThresholdPct = commandLine.value(o.threshold).toDouble(&thresholdOk);
    if (!noiseOk || !thresholdOk)
        return OptionError{
            QStringLiteral("--max-noise and --throttle-threshold are percentages, e.g. 0.5 and 90.")};
    if (const std::string why = checkNoiseCriterion(criterion); !why.empty())
        return OptionError{QString::fromStdString(why)};
    bool burstsOk = false;
    const int bursts = commandLine.value(o.bursts).toInt(&burstsOk);
    if (!burstsOk || bursts < 1 || bursts > protocol::kMaxBursts)
        return OptionError{QStringLiteral("--bursts must be a whole number from 1 to %1, not \"%2\".")
                               .arg(protocol::kMaxBursts)
                               .arg(commandLine.value(o.bursts))};
    if (regime == protocol::TimingRegime::Sustained && commandLine.isSet(o.bursts) && bursts > 1)
        return OptionError{
            QStringLiteral("--bursts applies to the burst regime: a sustained run is one stretch at load.")};
    protocol::TimingRequest &timing = command.job.timing;
    timing.regime = regimeName;
    if (regime == protocol::TimingRegime::Burst)
        timing.bursts = bursts;
    timing.maxNoisePct = criterion.maxNoisePct;
    timing.throttleThresholdPct = criterion.throttleThresholdPct;
    return std::nullopt;
}

// --max-blocks-per-sm and --smem-carveout: the launch experiments on GemmScope's kernels.
std::optional<OptionError> readLaunchLimits(const BenchCommandLine &commandLine, JobOptions &job)
{
    const BenchOptions &o = commandLine.options;
    if (commandLine.isSet(o.maxBlocks)) {
        QString error;
        const std::optional<int> value =
            intValue(commandLine.value(o.maxBlocks), QStringLiteral("--max-blocks-per-sm"), &error);
        if (!value || *value < 1)
            return OptionError{
                !value && !error.isEmpty()
                    ? error
                    : QStringLiteral("--max-blocks-per-sm must be a whole number of at least 1.")};
        job.maxBlocksPerSm = *value;
    }
    if (commandLine.isSet(o.carveout)) {
        bool ok = false;
        job.smemCarveout = commandLine.value(o.carveout).toInt(&ok);
        if (!ok || job.smemCarveout < 0 || job.smemCarveout > 100)
            return OptionError{QStringLiteral("--smem-carveout must be a whole percent from 0 to 100.")};
    }
    return std::nullopt;
}

// The first line: the GPU and how every stage is timed.
QString conditionsLine(const LadderCommand &command, const protocol::GpuInfo &gpu)
{
    const JobOptions &options = command.job;
    const QString regime = options.timing.regime;
    return QStringLiteral("GPU: %1 (%2), size %3, %4 regime, budget %5 ms per stage, noise target %6 %, "
                          "throttle threshold %7 %%8\n")
        .arg(gpu.name, gpu.arch, command.sizeText,
             options.timing.bursts.value_or(1) > 1
                 ? QStringLiteral("%1 (best of %2 bursts)").arg(regime).arg(*options.timing.bursts)
                 : regime,
             command.budgetText, QString::number(command.noise.maxNoisePct),
             QString::number(command.noise.throttleThresholdPct),
             (options.timing.flushL2.value_or(false) ? QStringLiteral(", L2 flushed") : QString()) +
                 (options.maxBlocksPerSm > 0
                      ? QStringLiteral(", at most %1 block(s) per SM").arg(options.maxBlocksPerSm)
                      : QString()) +
                 (options.smemCarveout >= 0
                      ? QStringLiteral(", shared-memory carve-out %1 %").arg(options.smemCarveout)
                      : QString()) +
                 (options.baseline ? QStringLiteral(", each stage interleaved with its cuBLAS call")
                                   : QString()));
}

struct Ceilings {
    QJsonObject event;         // as received, for the JSON
    double fp32PeakTflops = 0; // 0: unknown
};

// The runner's ceilings, printed; a failure is said and the table goes without a peak.
Ceilings measureCeilings(RunnerSession &runner)
{
    Ceilings ceilings;
    ceilings.event =
        runner.request(protocol::toJson(protocol::CeilingsJob{QStringLiteral("ceilings"), std::nullopt}));
    if (protocol::eventTypeOf(ceilings.event) != protocol::EventType::Ceilings) {
        protocol::ErrorEvent failure;
        protocol::fromJson(ceilings.event, failure);
        printError(QStringLiteral("Ceilings failed: %1").arg(failure.message));
        return ceilings;
    }
    protocol::CeilingsEvent c;
    protocol::fromJson(ceilings.event, c);
    ceilings.fp32PeakTflops = c.fmaTflops;
    print(QStringLiteral("Ceilings: FP32 FMA %1 TFLOP/s, DRAM %2 GB/s (%3)\n")
              .arg(c.fmaTflops, 0, 'f', 1)
              .arg(c.dramGbs, 0, 'f', 0)
              .arg(c.cached ? QStringLiteral("cached") : QStringLiteral("measured now")));
    if (c.tf32Tflops)
        print(QStringLiteral("Ceilings: TF32 tensor cores %1 TFLOP/s (%2)\n")
                  .arg(*c.tf32Tflops, 0, 'f', 1)
                  .arg(c.tf32Kernel.isEmpty() ? QStringLiteral("measured") : c.tf32Kernel));
    else if (!c.tf32Unavailable.isEmpty())
        print(QStringLiteral("Ceilings: no TF32 roof: %1\n").arg(c.tf32Unavailable));
    if (c.l2Gbs && c.sharedGbs)
        print(QStringLiteral("Ceilings: L2 %1 GB/s, shared memory %2 GB/s (read)\n")
                  .arg(*c.l2Gbs, 0, 'f', 0)
                  .arg(*c.sharedGbs, 0, 'f', 0));
    return ceilings;
}

// Every target run in turn, a runner that a device fault ended restarted for the next; empty when
// it cannot be restarted (said on standard error).
std::optional<std::vector<BenchRow>> runTargets(RunnerSession &runner, const LadderCommand &command)
{
    std::vector<BenchRow> rows;
    int n = 0;
    for (const LadderTarget &t : command.targets) {
        QString error;
        if (!runner.running() && !runner.start(&error)) {
            printError(QStringLiteral("Could not restart the runner: ") + error);
            return std::nullopt;
        }
        const QString id = QStringLiteral("b%1").arg(++n);
        print(QStringLiteral("[%1/%2] %3 ...\n")
                  .arg(n)
                  .arg(command.targets.size())
                  .arg(t.preset.isEmpty() ? t.stage : t.preset));
        rows.push_back(benchRow(t.preset, t.stage, QString::fromStdString(formatParams(t.params)),
                                runner.request(runJob(id, t, command.job))));
        const BenchRow &row = rows.back();
        if (protocol::eventTypeOf(row.event) == protocol::EventType::Error &&
            protocol::runnerEndsAfter(row.error.kind))
            printError(QStringLiteral("  %1: the runner exits; restarting it for the next row.")
                           .arg(protocol::errorKindName(row.error.kind)));
    }
    return rows;
}

// The median of the run of `stage` (the last one, as the rows ran); 0 when it has no result.
double medianOf(const std::vector<BenchRow> &rows, StageId stage)
{
    double median = 0;
    for (const BenchRow &row : rows)
        if (row.result && row.stage == QString::fromStdString(stage.str()))
            median = row.result->timing.medianMs;
    return median;
}

// The bench file, replaced whole or left as it was (a full disk never leaves half a file).
bool writeJson(const QString &path, const protocol::GpuInfo &gpu, const ProblemSize &size,
               const Ceilings &ceilings, const std::vector<BenchRow> &rows)
{
    BenchFile bench;
    bench.date = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    bench.command = QCoreApplication::arguments().join(QLatin1Char(' '));
    bench.gpu = protocol::toJson(gpu);
    bench.size = size;
    bench.ceilingsEvent = ceilings.event;
    for (const BenchRow &r : rows)
        bench.rows.append({r.preset, r.stage, r.params, r.event, {}, {}, {}});
    if (const FileWrite written = writeFileAtomically(path, serializeBench(bench)); !written) {
        printError(written.error);
        return false;
    }
    print(QStringLiteral("Wrote %1\n").arg(path));
    return true;
}

void printJobs(const LadderCommand &command)
{
    int n = 0;
    for (const LadderTarget &t : command.targets)
        print(QString::fromUtf8(QJsonDocument(runJob(QStringLiteral("j%1").arg(++n), t, command.job))
                                    .toJson(QJsonDocument::Compact)) +
              QLatin1Char('\n'));
}

} // namespace

Parsed<LadderCommand> LadderCommand::parse(const BenchCommandLine &commandLine)
{
    const BenchOptions &o = commandLine.options;
    const Parsed<RunBasics> parsedBasics = parseRunBasics(commandLine);
    if (const auto *refused = std::get_if<OptionError>(&parsedBasics))
        return *refused;
    const RunBasics &basics = std::get<RunBasics>(parsedBasics);
    const auto kernel = kernelTarget(commandLine, basics.size);
    if (const auto *refused = std::get_if<OptionError>(&kernel))
        return *refused;
    const std::optional<KernelTarget> &kernelStage = std::get<std::optional<KernelTarget>>(kernel);
    LadderCommand command;
    QString error;
    auto targets = targetsOf(commandLine, kernelStage, &error);
    if (!targets)
        return OptionError{error};
    command.targets = std::move(*targets);
    if (kernelStage)
        command.kernelLine = QStringLiteral("Kernel %1 (%2) is stage %3.\n")
                                 .arg(QFileInfo(commandLine.value(o.kernel)).fileName(), kernelStage->title,
                                      kernelStage->stage);
    if (auto refused = readTimingConditions(commandLine, command))
        return *refused;
    JobOptions &job = command.job;
    job.baseline = !commandLine.isSet(o.noBaseline);
    const std::optional<QString> rounding = tf32Rounding(commandLine, &error);
    if (!rounding)
        return OptionError{error};
    job.tf32Rounding = *rounding;
    job.size = basics.size;
    job.timing.budgetMs = basics.budgetMs;
    job.timing.flushL2 = commandLine.isSet(o.flush);
    job.timing.minReps = basics.minReps;
    job.timing.warmup = basics.warmup;
    job.seed = basics.seed;
    job.counters = commandLine.isSet(o.counters);
    job.build = basics.build;
    if (auto refused = readLaunchLimits(commandLine, job))
        return *refused;
    command.sizeText = commandLine.value(o.size);
    command.budgetText = commandLine.value(o.budget);
    command.runnerPath = findRunner(commandLine.value(o.runner));
    if (commandLine.isSet(o.json))
        command.jsonPath = commandLine.value(o.json);
    command.listJobs = commandLine.isSet(o.listJobs);
    return command;
}

int LadderCommand::run() const
{
    if (listJobs) { // that output is the requests alone
        printJobs(*this);
        return 0;
    }
    print(kernelLine);
    if (jsonPath) { // before anything runs: not onto a device, a pipe or a folder
        if (const auto refused = refuseOutput(*jsonPath)) {
            printError(QStringLiteral("--json: ") + *refused);
            return 1;
        }
    }
    RunnerSession runner(runnerPath);
    int exitCode = 0;
    const std::optional<protocol::GpuInfo> gpu = startWithGpu(runner, &exitCode);
    if (!gpu)
        return exitCode;
    print(conditionsLine(*this, *gpu));
    const Ceilings ceilings = measureCeilings(runner);
    const std::optional<std::vector<BenchRow>> rows = runTargets(runner, *this);
    if (!rows)
        return 1;
    print(QStringLiteral("\n") + formatTable(*rows, medianOf(*rows, StageId::CublasFp32),
                                             ceilings.fp32PeakTflops, medianOf(*rows, StageId::CublasTf32)));
    if (jsonPath && !writeJson(*jsonPath, *gpu, job.size, ceilings, *rows))
        return 1;
    const auto failedRows =
        std::count_if(rows->begin(), rows->end(), [](const BenchRow &r) { return !r.result; });
    if (failedRows > 0) { // the table and the JSON keep every row; the status says not all ran
        printError(QStringLiteral("%1 of %2 rows failed (see the table).").arg(failedRows).arg(rows->size()));
        return 3;
    }
    return 0;
}

} // namespace gemmscope::bench
