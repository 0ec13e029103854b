// gemmscope-bench: the worklog's ladder measured headlessly through gemmscope-runner — the same
// protocol and process the GUI uses — with cuBLAS FP32 timed in the same runner session first.
//
//   gemmscope-bench [--size 8192x4096x6144] [--stages worklog-3,cublas_tf32,...] [--budget-ms 1000]
//                   [--flush-l2] [--seed 1] [--json out.json] [--runner path] [--min-reps 5] [--warmup 2]
//                   [--counters]    (read hardware counters: measured DRAM intensity per stage)
//                   [--build release|scalar_shared] [--list-jobs]   (print the run requests instead of
//                   running them)
//                   [--max-blocks-per-sm N]   (pad each block's shared memory so at most N share an SM)
//                   [--smem-carveout P]   (prefer P % of the largest shared-memory share; the rest is L1)
//                   [--regime burst|sustained] [--bursts 5] [--max-noise 0.5] [--throttle-threshold 90]
//                   [--no-baseline]
//                   [--tf32-rounding rna|truncate]
//                   (how the GPU is held while timing, when timing stops, which samples count; each
//                   GemmScope stage is timed interleaved with its cuBLAS call unless --no-baseline:
//                   docs/protocol.md, "Conditions")
//
//   gemmscope-bench --kernel my_gemm.cuh [--params BM=64,BN=32] [--stages ...] [timing options above]
//                   (your kernel, docs/custom-kernels.md, measured beside cuBLAS like a built-in stage;
//                   a file that cannot be measured ends with status 2)
//
//   gemmscope-bench --sweep --stage final --x BM --y BN [--x-values 64,128] [--y-values ...]
//                   [--rest fixed|best] [--fixed BK=16,TM=8,TN=8] [--size 4096x4096x4096] [--budget-ms 30]
//                   [--runners N] [--runner-template 'CUDA_VISIBLE_DEVICES={gpu} {runner}']...
//                   [--window N] [--journal file.gsweep] [--json out.json]
//                   [--slurm [--partition P] [--gpus-per-runner 1] [--time-limit T] [--detach]]
//                   (a parameter sweep on a pool of runners: docs/sweeps.md)
//   gemmscope-bench --sweep-status JOBID [--journal file.gsweep]   (a detached Slurm sweep's progress)
//
//   gemmscope-bench --profile --stages fp32-tuned,tf32-wgmma-tma [--size 4096x4096x4096]
//                   [--sampling-period 10] [--build ...] [--tf32-rounding ...] [--json out.json]
//                   (issue 23: each stage and its cuBLAS baseline profiled with the runner's `profile`
//                   job: stall reasons, hot source lines, limiters; docs/protocol.md, "Profile")
//
//   gemmscope-bench --size-sweep --stages worklog-8,cublas_fp32 [--sizes square|aspect|512,1024x512x768,...]
//                   [--size-range 256-16384] [--powers-only] [--budget-ms 30] [runner options as --sweep]
//                   (TFLOP/s against problem size, with wave quantization: docs/sweeps.md)
//
// Exit status: 0 every row ran; 1 a bad option, no runner or the JSON could not be written (an
// existing file is then left as it was); 2 no GPU, or a --kernel file that cannot be measured; 3
// some rows failed (the table and the JSON
// still hold every row).
#include "bench_file.h"
#include "bench_table.h"
#include "events.h"
#include "file_write.h"
#include "kernel_option.h"
#include "profile_mode.h"
#include "requests.h"
#include "runner_session.h"
#include "stage_catalog.h"
#include "sweep_mode.h"
#include "timing_series.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

using namespace gemmscope;
using gemmscope::bench::BenchRow;
using gemmscope::bench::RunnerSession;

namespace {

struct Target {
    QString preset; // empty for a bare stage key
    QString stage;
    ParamValues params;
};

void print(const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stdout);
    std::fflush(stdout);
}

void printError(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

// Preset keys and stage keys, in the order given; cuBLAS FP32 is moved first (the 100% line).
std::optional<std::vector<Target>> resolveTargets(const QString &list, QString *error)
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

    std::vector<Target> targets;
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

// What every run request of one bench invocation shares.
struct JobOptions {
    ProblemSize size;
    int seed = 1;
    protocol::TimingRequest timing;
    bool counters = false;
    QString build;
    int maxBlocksPerSm = 0; // 0: no limit
    int smemCarveout = -1;  // -1: the driver's choice
    bool baseline = true;   // GemmScope's kernels timed interleaved with their cuBLAS call
    QString tf32Rounding;   // empty: the runner's default (rna); "truncate"
};

// One `run` request of the protocol for a target.
QJsonObject runJob(const QString &id, const Target &t, const JobOptions &options)
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
        if (options.build != QStringLiteral("release"))
            job.build = options.build;
        if (options.maxBlocksPerSm > 0)
            job.maxBlocksPerSm = options.maxBlocksPerSm;
        if (options.smemCarveout >= 0)
            job.smemCarveout = options.smemCarveout;
    }
    return protocol::toJson(job);
}

QString findRunner(const QString &given)
{
    if (!given.isEmpty())
        return given;
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/gemmscope-runner");
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStringLiteral("gemmscope-runner"); // from PATH
}

} // namespace

namespace {

// A whole number from an option, within [min, max]; otherwise the sentence is set.
std::optional<long long> wholeNumber(const QString &text, long long min, long long max, const QString &option,
                                     QString *error)
{
    bool ok = false;
    const long long value = text.trimmed().toLongLong(&ok);
    if (!ok || value < min || value > max) {
        *error = QStringLiteral("%1 must be a whole number from %2 to %3, not \"%4\".")
                     .arg(option)
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return std::nullopt;
    }
    return value;
}

struct SweepOptions {
    QCommandLineOption sweep{QStringLiteral("sweep"),
                             QStringLiteral("Run a parameter sweep (docs/sweeps.md) instead of the ladder.")};
    QCommandLineOption stage{QStringLiteral("stage"), QStringLiteral("Sweep: the stage (default final)."),
                             QStringLiteral("key"), QStringLiteral("final")};
    QCommandLineOption x{QStringLiteral("x"), QStringLiteral("Sweep: the x-axis parameter (default BM)."),
                         QStringLiteral("param"), QStringLiteral("BM")};
    QCommandLineOption y{QStringLiteral("y"), QStringLiteral("Sweep: the y-axis parameter (default BN)."),
                         QStringLiteral("param"), QStringLiteral("BN")};
    QCommandLineOption xValues{QStringLiteral("x-values"),
                               QStringLiteral("Sweep: x values, comma-separated (default: every legal one)."),
                               QStringLiteral("list")};
    QCommandLineOption yValues{QStringLiteral("y-values"),
                               QStringLiteral("Sweep: y values, comma-separated (default: every legal one)."),
                               QStringLiteral("list")};
    QCommandLineOption rest{
        QStringLiteral("rest"),
        QStringLiteral("Sweep: the other parameters fixed (default) or best (every combination, "
                       "each cell its best)."),
        QStringLiteral("fixed|best"), QStringLiteral("fixed")};
    QCommandLineOption fixed{
        QStringLiteral("fixed"),
        QStringLiteral("Sweep: values of the other parameters, e.g. BK=16,TM=8 (default: the "
                       "stage's defaults)."),
        QStringLiteral("list")};
    QCommandLineOption runners{
        QStringLiteral("runners"),
        QStringLiteral("Sweep: start each runner template N times, {gpu} = 0..N-1 (default 1)."),
        QStringLiteral("N"), QStringLiteral("1")};
    QCommandLineOption runnerTemplate{
        QStringLiteral("runner-template"),
        QStringLiteral(
            "Sweep: how to start a runner, e.g. 'CUDA_VISIBLE_DEVICES={gpu} {runner}' or 'ssh {host} "
            "gemmscope-runner' (repeatable; docs/sweeps.md). Default: {runner}."),
        QStringLiteral("template")};
    QCommandLineOption hosts{
        QStringLiteral("hosts"),
        QStringLiteral("Sweep: comma-separated hosts; each template is started once per host "
                       "({host})."),
        QStringLiteral("list")};
    QCommandLineOption window{
        QStringLiteral("window"),
        QStringLiteral("Sweep: jobs in flight per runner (default: twice this machine's cores)."),
        QStringLiteral("N"), QStringLiteral("0")};
    QCommandLineOption journal{
        QStringLiteral("journal"),
        QStringLiteral("Sweep: journal file; an existing one is resumed (default: beside "
                       "--json)."),
        QStringLiteral("file")};
    QCommandLineOption byRatio{
        QStringLiteral("by-ratio"),
        QStringLiteral("Sweep: name the best cell by %% of cuBLAS on its own GPU, not TFLOP/s.")};
    QCommandLineOption sizeSweep{
        QStringLiteral("size-sweep"),
        QStringLiteral(
            "Run a problem-size sweep of --stages (presets or stage keys) instead of the ladder.")};
    QCommandLineOption sizes{
        QStringLiteral("sizes"),
        QStringLiteral("Size sweep: square (default), aspect (the worklog's 8192:4096:6144 scaled), or a "
                       "comma-separated list of N (square) and MxNxK."),
        QStringLiteral("list"), QStringLiteral("square")};
    QCommandLineOption sizeRange{
        QStringLiteral("size-range"),
        QStringLiteral("Size sweep: the largest dimension from-to (default 256-16384)."),
        QStringLiteral("from-to"), QStringLiteral("256-16384")};
    QCommandLineOption powersOnly{
        QStringLiteral("powers-only"),
        QStringLiteral("Size sweep: powers of two only (default: also the midpoints, 1.5 x each).")};
    QCommandLineOption slurm{
        QStringLiteral("slurm"),
        QStringLiteral("Sweep: run the runners as steps of one Slurm allocation (--runners steps; the "
                       "template is what each step runs; docs/sweeps.md).")};
    QCommandLineOption partition{QStringLiteral("partition"),
                                 QStringLiteral("Sweep with --slurm: the Slurm partition (default: the "
                                                "cluster's default)."),
                                 QStringLiteral("name")};
    QCommandLineOption gpusPerRunner{
        QStringLiteral("gpus-per-runner"),
        QStringLiteral("Sweep with --slurm: GPUs of each step (--gres=gpu:N; 0 asks for none; default 1)."),
        QStringLiteral("N"), QStringLiteral("1")};
    QCommandLineOption timeLimit{QStringLiteral("time-limit"),
                                 QStringLiteral("Sweep with --slurm: the job's time limit (Slurm's --time)."),
                                 QStringLiteral("time")};
    QCommandLineOption detach{
        QStringLiteral("detach"),
        QStringLiteral("Sweep with --slurm: submit the sweep as a batch job, print its id and return.")};
    QCommandLineOption sweepStatus{
        QStringLiteral("sweep-status"),
        QStringLiteral("Print a detached sweep's Slurm state and its journal's progress."),
        QStringLiteral("jobid")};
};

SweepOptions addSweepOptions(QCommandLineParser &parser)
{
    SweepOptions o;
    parser.addOptions({o.sweep,         o.stage,     o.x,          o.y,          o.xValues,
                       o.yValues,       o.rest,      o.fixed,      o.runners,    o.runnerTemplate,
                       o.hosts,         o.window,    o.journal,    o.byRatio,    o.sizeSweep,
                       o.sizes,         o.sizeRange, o.powersOnly, o.slurm,      o.partition,
                       o.gpusPerRunner, o.timeLimit, o.detach,     o.sweepStatus});
    return o;
}

// A whole number that fits an int; a number too large for one is "out of range", not "not a number".
std::optional<int> intValue(const QString &text, const QString &option, QString *error)
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    const int value = trimmed.toInt(&ok);
    if (ok)
        return value;
    static const QRegularExpression digits(QStringLiteral("^[+-]?\\d+$"));
    if (digits.match(trimmed).hasMatch())
        *error = QStringLiteral("%1: %2 is out of range (%3).")
                     .arg(option, trimmed,
                          trimmed.startsWith(QLatin1Char('-'))
                              ? QStringLiteral("min %1").arg(std::numeric_limits<int>::min())
                              : QStringLiteral("max %1").arg(std::numeric_limits<int>::max()));
    return std::nullopt;
}

std::optional<std::vector<int>> intList(const QString &text, const QString &option, QString *error)
{
    std::vector<int> values;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        error->clear();
        const std::optional<int> value = intValue(part, option, error);
        if (!value) {
            if (error->isEmpty())
                *error = QStringLiteral("%1 takes whole numbers separated by commas, not \"%2\".")
                             .arg(option, text);
            return std::nullopt;
        }
        values.push_back(*value);
    }
    return values;
}

// The runners of --runner-template x --hosts x --runners; false (after printing why) on a bad template.
bool addRunners(const QCommandLineParser &parser, const SweepOptions &o, int count, const QString &runnerPath,
                QList<RunnerCommand> &out)
{
    QString error;
    QStringList templates = parser.values(o.runnerTemplate);
    if (templates.isEmpty())
        templates << QStringLiteral("{runner}");
    QStringList hosts = parser.value(o.hosts).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (hosts.isEmpty())
        hosts << QString();
    const QString runner = findRunner(runnerPath);
    for (const QString &t : templates) {
        for (const QString &host : hosts) {
            for (int i = 0; i < count; ++i) {
                RunnerTemplateValues values;
                values.gpu = values.index = QString::number(i);
                values.host = host.trimmed();
                values.runner = runner;
                const std::optional<RunnerCommand> c = parseRunnerTemplate(t, values, &error);
                if (!c) {
                    printError(QStringLiteral("--runner-template: ") + error);
                    return false;
                }
                out << *c;
            }
        }
    }
    return true;
}

// What --sweep and --size-sweep share once their points are set: the budget, runners and window
// options, the plan (refused with its sentence), the runners from their templates, and the run.
int planAndRunSweep(const QCommandLineParser &parser, const SweepOptions &o, const QString &budgetText,
                    bool flushL2, const QString &jsonPath, const QString &runnerPath,
                    bench::SweepBenchOptions &options)
{
    QString error;
    SweepSpec &spec = options.spec;
    const auto budget =
        wholeNumber(budgetText, 0, 3600000, QStringLiteral("--budget-ms (milliseconds)"), &error);
    const auto count = budget
                           ? wholeNumber(parser.value(o.runners), 1, 64, QStringLiteral("--runners"), &error)
                           : std::nullopt;
    const auto window = count
                            ? wholeNumber(parser.value(o.window), 0, 4096, QStringLiteral("--window"), &error)
                            : std::nullopt;
    if (!window) {
        printError(error);
        return 1;
    }
    spec.budgetMs = int(*budget);
    spec.flushL2 = flushL2;
    const SweepPlan plan = planSweep(spec);
    if (!plan.ok()) {
        printError(QString::fromStdString(plan.error));
        return 1;
    }
    if (!addRunners(parser, o, int(*count), runnerPath, options.runners))
        return 1;
    // Outputs are checked before an hour of measuring: not a device, pipe or socket, and the JSON
    // never the journal it resumes from (--json F --journal F replaced the journal).
    if (!jsonPath.isEmpty()) {
        if (const auto refused =
                refuseOutput(jsonPath, {.followSymlinks = true, .inputs = {parser.value(o.journal)}})) {
            printError(QStringLiteral("--json: ") + *refused);
            return 1;
        }
    }
    options.window = int(*window);
    options.journalPath = parser.value(o.journal);
    options.jsonPath = jsonPath;
    if (parser.isSet(o.detach) && !parser.isSet(o.slurm)) {
        printError(QStringLiteral("--detach needs --slurm: only a Slurm batch job runs a sweep without "
                                  "this process."));
        return 1;
    }
    if (parser.isSet(o.slurm)) {
        const auto gpus =
            wholeNumber(parser.value(o.gpusPerRunner), 0, 64, QStringLiteral("--gpus-per-runner"), &error);
        if (!gpus) {
            printError(error);
            return 1;
        }
        SlurmOptions slurm;
        slurm.partition = parser.value(o.partition);
        slurm.gpusPerRunner = int(*gpus);
        slurm.timeLimit = parser.value(o.timeLimit);
        options.slurm = slurm;
        if (parser.isSet(o.detach))
            return bench::submitDetachedSweep(options, int(options.runners.size()),
                                              QCoreApplication::arguments().mid(1));
    }
    return bench::runSweep(options);
}

int sweepMain(const QCommandLineParser &parser, const SweepOptions &o, const QString &sizeText,
              const QString &budgetText, bool flushL2, const QString &jsonPath, const QString &runnerPath)
{
    QString error;
    bench::SweepBenchOptions options;
    SweepSpec &spec = options.spec;
    spec.stage = StageId(parser.value(o.stage).toStdString());
    if (!findStage(spec.stage.key())) {
        printError(QStringLiteral("--stage: there is no stage \"%1\".").arg(parser.value(o.stage)));
        return 1;
    }
    spec.x.param = parser.value(o.x).toStdString();
    spec.y.param = parser.value(o.y).toStdString();
    const auto xs = intList(parser.value(o.xValues), QStringLiteral("--x-values"), &error);
    const auto ys =
        xs ? intList(parser.value(o.yValues), QStringLiteral("--y-values"), &error) : std::nullopt;
    if (!ys) {
        printError(error);
        return 1;
    }
    spec.x.values = *xs;
    spec.y.values = *ys;
    if (parser.value(o.rest) != QLatin1String("fixed") && parser.value(o.rest) != QLatin1String("best")) {
        printError(QStringLiteral("--rest must be fixed or best."));
        return 1;
    }
    spec.rest = parser.value(o.rest) == QLatin1String("best") ? SweepRest::BestOverRest : SweepRest::Fixed;
    for (const QString &pair : parser.value(o.fixed).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList kv = pair.split(QLatin1Char('='));
        const std::optional<int> value =
            kv.size() == 2 ? intValue(kv[1], QStringLiteral("--fixed ") + kv[0].trimmed(), &error)
                           : std::nullopt;
        if (!value) {
            printError(!error.isEmpty()
                           ? error
                           : QStringLiteral("--fixed takes NAME=value pairs separated by commas, not \"%1\".")
                                 .arg(pair));
            return 1;
        }
        spec.fixed[kv[0].trimmed().toStdString()] = *value;
    }
    const auto m = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)x(\\d+)$")).match(sizeText);
    if (!m.hasMatch()) {
        printError(QStringLiteral("--size must look like 4096x4096x4096, not \"%1\".").arg(sizeText));
        return 1;
    }
    spec.size = {m.captured(1).toLongLong(), m.captured(2).toLongLong(), m.captured(3).toLongLong()};
    options.byRatio = parser.isSet(o.byRatio);
    return planAndRunSweep(parser, o, budgetText, flushL2, jsonPath, runnerPath, options);
}

// --size-sweep: the series from --stages (as the ladder reads them), the sizes from --sizes.
int sizeSweepMain(const QCommandLineParser &parser, const SweepOptions &o, const QString &stagesText,
                  const QString &budgetText, bool flushL2, const QString &jsonPath, const QString &runnerPath)
{
    QString error;
    bench::SweepBenchOptions options;
    SweepSpec &spec = options.spec;
    spec.kind = SweepKind::Sizes;
    for (const QString &raw : stagesText.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = raw.trimmed();
        if (const Preset *p = findPreset(key.toStdString()))
            spec.series.push_back({p->stage, p->params, p->key});
        else if (const StageInfo *st = findStage(key.toStdString()))
            spec.series.push_back({st->id, st->isLibrary ? ParamValues{} : defaultParams(st->id), st->key});
        else {
            printError(QStringLiteral("--stages: \"%1\" is neither a preset nor a stage key.").arg(key));
            return 1;
        }
    }
    if (spec.series.empty()) {
        printError(QStringLiteral("--size-sweep needs --stages, e.g. --stages worklog-8,cublas_fp32."));
        return 1;
    }
    const QString sizesText = parser.value(o.sizes).trimmed();
    if (sizesText == QLatin1String("square") || sizesText == QLatin1String("aspect")) {
        const auto range =
            QRegularExpression(QStringLiteral("^(\\d+)-(\\d+)$")).match(parser.value(o.sizeRange).trimmed());
        const long long from = range.hasMatch() ? range.captured(1).toLongLong() : 0;
        const long long to = range.hasMatch() ? range.captured(2).toLongLong() : 0;
        if (from < 1 || to < from || to > (1LL << 20)) {
            printError(QStringLiteral("--size-range must look like 256-16384 (1 to 1048576), not \"%1\".")
                           .arg(parser.value(o.sizeRange)));
            return 1;
        }
        spec.sizes = sizeSweepSizes(sizesText == QLatin1String("square") ? SizeShape::Square
                                                                         : SizeShape::WorklogAspect,
                                    from, to, !parser.isSet(o.powersOnly));
    } else {
        for (const QString &part : sizesText.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto m =
                QRegularExpression(QStringLiteral("^(\\d+)(?:x(\\d+)x(\\d+))?$")).match(part.trimmed());
            if (!m.hasMatch()) {
                printError(QStringLiteral("--sizes: \"%1\" is not N or MxNxK.").arg(part));
                return 1;
            }
            const long long a = m.captured(1).toLongLong();
            spec.sizes.push_back(m.captured(2).isEmpty() ? ProblemSize{a, a, a}
                                                         : ProblemSize{a, m.captured(2).toLongLong(),
                                                                       m.captured(3).toLongLong()});
        }
    }
    if (spec.sizes.empty()) {
        printError(QStringLiteral("--size-sweep has no sizes: check --sizes and --size-range."));
        return 1;
    }
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    return planAndRunSweep(parser, o, budgetText, flushL2, jsonPath, runnerPath, options);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gemmscope-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Benchmarks the matmul ladder through gemmscope-runner."));
    parser.addHelpOption();
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
                                     QStringLiteral("Problem MxNxK (default 8192x4096x6144)."),
                                     QStringLiteral("MxNxK"), QStringLiteral("8192x4096x6144"));
    const QCommandLineOption stagesOpt(
        QStringLiteral("stages"),
        QStringLiteral("Comma-separated preset and/or stage keys (default: worklog "
                       "presets, cublas_fp32, cublas_tf32)."),
        QStringLiteral("list"));
    const QCommandLineOption budgetOpt(QStringLiteral("budget-ms"),
                                       QStringLiteral("Timing budget per stage."), QStringLiteral("ms"),
                                       QStringLiteral("1000"));
    const QCommandLineOption flushOpt(QStringLiteral("flush-l2"),
                                      QStringLiteral("Flush L2 between repetitions."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Write all results as JSON."),
                                     QStringLiteral("file"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("Input seed."),
                                     QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption runnerOpt(QStringLiteral("runner"), QStringLiteral("Path of gemmscope-runner."),
                                       QStringLiteral("path"));
    const QCommandLineOption minRepsOpt(QStringLiteral("min-reps"),
                                        QStringLiteral("Fewest timed repetitions."), QStringLiteral("n"),
                                        QStringLiteral("5"));
    const QCommandLineOption warmupOpt(QStringLiteral("warmup"), QStringLiteral("Untimed launches first."),
                                       QStringLiteral("n"), QStringLiteral("2"));
    const QCommandLineOption countersOpt(
        QStringLiteral("counters"),
        QStringLiteral("Profile one extra launch per stage with CUPTI and show the measured DRAM arithmetic "
                       "intensity (needs permission to read GPU performance counters)."));
    const QCommandLineOption buildOpt(
        QStringLiteral("build"),
        QStringLiteral(
            "Kernel build: release (default) or scalar_shared (inner-loop shared reads kept scalar, "
            "for comparing bank-conflict counters with the access model)."),
        QStringLiteral("build"), QStringLiteral("release"));
    const QCommandLineOption maxBlocksOpt(
        QStringLiteral("max-blocks-per-sm"),
        QStringLiteral(
            "Give each block unused shared memory so that at most N blocks share an SM (not cuBLAS)."),
        QStringLiteral("N"));
    const QCommandLineOption carveoutOpt(
        QStringLiteral("smem-carveout"),
        QStringLiteral(
            "Prefer P percent of the largest shared-memory share per SM; the rest is L1 (not cuBLAS)."),
        QStringLiteral("P"));
    const QCommandLineOption listJobsOpt(
        QStringLiteral("list-jobs"),
        QStringLiteral("Print the runner's run requests (JSON lines) instead of running them, e.g. to feed "
                       "gemmscope-runner under compute-sanitizer or ncu."));
    const QCommandLineOption regimeOpt(
        QStringLiteral("regime"),
        QStringLiteral(
            "burst (default: each stage from an idle, cool GPU) or sustained (after running at load "
            "until the clock settles, as a long GEMM workload sees it)."),
        QStringLiteral("regime"), QStringLiteral("burst"));
    const QCommandLineOption burstsOpt(
        QStringLiteral("bursts"),
        QStringLiteral("Burst regime: time each stage in N bursts, each from an idle GPU, and report the "
                       "burst in which its cuBLAS call ran fastest (1-%1, default 5): cuBLAS's figure varies "
                       "by up to 10 % from burst to burst.")
            .arg(protocol::kMaxBursts),
        QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption maxNoiseOpt(
        QStringLiteral("max-noise"),
        QStringLiteral(
            "Stop timing once the samples' relative noise is at most P percent (above 0, at most 50)."),
        QStringLiteral("P"), QStringLiteral("0.5"));
    const QCommandLineOption thresholdOpt(
        QStringLiteral("throttle-threshold"),
        QStringLiteral(
            "Leave out samples whose SM clock is below P percent of the starting clock (0-100; 0 keeps "
            "all)."),
        QStringLiteral("P"), QStringLiteral("90"));
    const QCommandLineOption noBaselineOpt(
        QStringLiteral("no-baseline"),
        QStringLiteral(
            "Do not time each GemmScope stage interleaved with its cuBLAS call (the percentages then "
            "come from the separate cuBLAS rows)."));
    const QCommandLineOption roundingOpt(
        QStringLiteral("tf32-rounding"),
        QStringLiteral(
            "How GemmScope's TF32 stages make TF32 of their inputs: rna (default: rounded to nearest "
            "in a pre-pass inside the timed launch, as cuBLAS does) or truncate (the tensor core "
            "drops the low bits)."),
        QStringLiteral("mode"), QStringLiteral("rna"));
    const QCommandLineOption profileOpt(
        QStringLiteral("profile"),
        QStringLiteral("Profile --stages (and the cuBLAS stage of each one's precision) at --size instead of "
                       "timing them: duration, samples, the top 5 stall reasons and source lines, the "
                       "limiters; --json writes the runner's profile events. Needs permission to read GPU "
                       "performance counters."));
    const QCommandLineOption periodOpt(
        QStringLiteral("sampling-period"),
        QStringLiteral("Profile: one PC sample every 2^N SM cycles (5-31; default: the runner's)."),
        QStringLiteral("N"));
    const QCommandLineOption kernelOpt(
        QStringLiteral("kernel"),
        QStringLiteral(
            "Measure your kernel (a .cuh with a gemmscope:kernel block: docs/custom-kernels.md) beside "
            "cuBLAS, after --stages (default: cuBLAS alone). A file that cannot be measured ends "
            "with status 2."),
        QStringLiteral("file"));
    const QCommandLineOption paramsOpt(
        QStringLiteral("params"),
        QStringLiteral("--kernel: its parameters, e.g. BM=64,BN=32 (default: the block's defaults)."),
        QStringLiteral("list"));
    parser.addOptions({sizeOpt,     stagesOpt,   budgetOpt, flushOpt,    jsonOpt,      seedOpt,
                       runnerOpt,   minRepsOpt,  warmupOpt, countersOpt, buildOpt,     maxBlocksOpt,
                       carveoutOpt, listJobsOpt, regimeOpt, maxNoiseOpt, thresholdOpt, noBaselineOpt,
                       roundingOpt, profileOpt,  periodOpt, burstsOpt,   kernelOpt,    paramsOpt});
    const SweepOptions sweepOpts = addSweepOptions(parser);
    parser.process(app);
    if (parser.isSet(sweepOpts.sweepStatus))
        return bench::printSweepStatus(parser.value(sweepOpts.sweepStatus), parser.value(sweepOpts.journal));
    if (parser.isSet(sweepOpts.sizeSweep))
        return sizeSweepMain(parser, sweepOpts, parser.value(stagesOpt),
                             parser.isSet(budgetOpt) ? parser.value(budgetOpt) : QStringLiteral("30"),
                             parser.isSet(flushOpt), parser.value(jsonOpt), parser.value(runnerOpt));
    if (parser.isSet(sweepOpts.sweep))
        return sweepMain(parser, sweepOpts, parser.value(sizeOpt), parser.value(budgetOpt),
                         parser.isSet(flushOpt), parser.value(jsonOpt), parser.value(runnerOpt));

    // Every option is checked before anything runs: a value the runner would clamp or refuse row by
    // row (--budget-ms -1, --warmup -5, --size 0x0x0, "abc") is refused here, with its limits.
    const auto sizeMatch =
        QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)x(\\d+)$")).match(parser.value(sizeOpt));
    if (!sizeMatch.hasMatch()) {
        printError(
            QStringLiteral("--size must look like 8192x4096x6144, not \"%1\".").arg(parser.value(sizeOpt)));
        return 1;
    }
    ProblemSize size;
    for (auto [dim, text] :
         {std::pair{&size.m, sizeMatch.captured(1)}, std::pair{&size.n, sizeMatch.captured(2)},
          std::pair{&size.k, sizeMatch.captured(3)}}) {
        bool ok = false;
        *dim = text.toLongLong(&ok);
        if (!ok)
            *dim = std::numeric_limits<long long>::max(); // more digits than 64 bits: the catalog refuses it
    }
    if (const auto reasons = violations(StageId::CublasFp32, {}, size); !reasons.empty()) {
        printError(QStringLiteral("--size %1: %2")
                       .arg(parser.value(sizeOpt), QString::fromStdString(reasons.front())));
        return 1;
    }
    QString error;
    const auto budgetMs = wholeNumber(parser.value(budgetOpt), 0, 3600000,
                                      QStringLiteral("--budget-ms (milliseconds)"), &error);
    const auto minReps =
        budgetMs ? wholeNumber(parser.value(minRepsOpt), 1, 100000, QStringLiteral("--min-reps"), &error)
                 : std::nullopt;
    const auto warmup =
        minReps ? wholeNumber(parser.value(warmupOpt), 0, 1000, QStringLiteral("--warmup"), &error)
                : std::nullopt;
    const auto seed = warmup ? wholeNumber(parser.value(seedOpt), 0, std::numeric_limits<int>::max(),
                                           QStringLiteral("--seed"), &error)
                             : std::nullopt;
    if (!seed) {
        printError(error);
        return 1;
    }
    if (parser.value(buildOpt) != QStringLiteral("release") &&
        parser.value(buildOpt) != QStringLiteral("scalar_shared")) {
        printError(QStringLiteral("--build must be release or scalar_shared, not \"%1\".")
                       .arg(parser.value(buildOpt)));
        return 1;
    }
    if (parser.isSet(profileOpt)) {
        bench::ProfileBenchOptions po;
        po.size = size;
        po.seed = int(*seed);
        po.build = parser.value(buildOpt);
        po.tf32Rounding = parser.value(roundingOpt);
        if (po.tf32Rounding != QStringLiteral("rna") && po.tf32Rounding != QStringLiteral("truncate")) {
            printError(
                QStringLiteral("--tf32-rounding must be rna or truncate, not \"%1\".").arg(po.tf32Rounding));
            return 1;
        }
        if (parser.isSet(periodOpt)) {
            const auto period =
                wholeNumber(parser.value(periodOpt), 5, 31, QStringLiteral("--sampling-period"), &error);
            if (!period) {
                printError(error);
                return 1;
            }
            po.samplingPeriod = int(*period);
        }
        po.jsonPath = parser.value(jsonOpt);
        po.command = QCoreApplication::arguments().join(QLatin1Char(' '));
        const auto profiled = bench::profileTargets(parser.value(stagesOpt), &error);
        if (!profiled) {
            printError(error);
            return 1;
        }
        if (parser.isSet(listJobsOpt)) {
            int n = 0;
            for (const bench::ProfileTarget &t : *profiled)
                print(
                    QString::fromUtf8(QJsonDocument(bench::profileJob(QStringLiteral("p%1").arg(++n), t, po))
                                          .toJson(QJsonDocument::Compact)) +
                    QLatin1Char('\n'));
            return 0;
        }
        if (!po.jsonPath.isEmpty()) {
            if (const auto refused = refuseOutput(po.jsonPath)) {
                printError(QStringLiteral("--json: ") + *refused);
                return 1;
            }
        }
        RunnerSession runner(findRunner(parser.value(runnerOpt)));
        if (!runner.start(&error)) {
            printError(error);
            return 1;
        }
        protocol::ReadyEvent ready;
        protocol::fromJson(runner.ready(), ready);
        if (!ready.gpu) {
            printError(QStringLiteral("No GPU: %1").arg(ready.gpuErrorMessage));
            return 2;
        }
        print(QStringLiteral("GPU: %1 (%2), profiling at %3\n")
                  .arg(ready.gpu->name, ready.gpu->arch, parser.value(sizeOpt)));
        return bench::runProfiles(runner, protocol::toJson(*ready.gpu), *profiled, po);
    }
    std::optional<bench::KernelTarget> kernel;
    if (parser.isSet(kernelOpt)) {
        kernel = bench::registerKernelFile(parser.value(kernelOpt), &error);
        if (!kernel) {
            printError(error);
            return bench::kBadKernelExitCode;
        }
        const auto params = bench::kernelParams(stageInfo(StageId(kernel->stage.toStdString())),
                                                parser.value(paramsOpt), size, &error);
        if (!params) {
            printError(error);
            return 1;
        }
        kernel->params = *params;
    } else if (parser.isSet(paramsOpt)) {
        printError(QStringLiteral("--params gives the parameters of --kernel; there is no --kernel."));
        return 1;
    }
    // With --kernel alone, the kernel beside the cuBLAS call of its precision (FP32 is always first).
    const QString stagesList =
        kernel && !parser.isSet(stagesOpt)
            ? QString::fromStdString(
                  (kernel->precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32).str())
            : parser.value(stagesOpt);
    auto targets = resolveTargets(stagesList, &error);
    if (!targets) {
        printError(error);
        return 1;
    }
    if (kernel) {
        if (!parser.isSet(listJobsOpt)) // that output is the requests alone
            print(QStringLiteral("Kernel %1 (%2) is stage %3.\n")
                      .arg(QFileInfo(parser.value(kernelOpt)).fileName(), kernel->title, kernel->stage));
        targets->push_back({{}, kernel->stage, kernel->params});
    }
    const QString regime = parser.value(regimeOpt);
    if (regime != QStringLiteral("burst") && regime != QStringLiteral("sustained")) {
        printError(QStringLiteral("--regime must be burst or sustained, not \"%1\".").arg(regime));
        return 1;
    }
    NoiseCriterion criterion;
    bool noiseOk = false, thresholdOk = false;
    criterion.maxNoisePct = parser.value(maxNoiseOpt).toDouble(&noiseOk);
    criterion.throttleThresholdPct = parser.value(thresholdOpt).toDouble(&thresholdOk);
    if (!noiseOk || !thresholdOk) {
        printError(QStringLiteral("--max-noise and --throttle-threshold are percentages, e.g. 0.5 and 90."));
        return 1;
    }
    if (const std::string why = checkNoiseCriterion(criterion); !why.empty()) {
        printError(QString::fromStdString(why));
        return 1;
    }
    bool burstsOk = false;
    const int bursts = parser.value(burstsOpt).toInt(&burstsOk);
    if (!burstsOk || bursts < 1 || bursts > protocol::kMaxBursts) {
        printError(QStringLiteral("--bursts must be a whole number from 1 to %1, not \"%2\".")
                       .arg(protocol::kMaxBursts)
                       .arg(parser.value(burstsOpt)));
        return 1;
    }
    if (regime == QStringLiteral("sustained") && parser.isSet(burstsOpt) && bursts > 1) {
        printError(
            QStringLiteral("--bursts applies to the burst regime: a sustained run is one stretch at load."));
        return 1;
    }

    JobOptions options;
    options.timing.regime = regime;
    if (regime == QStringLiteral("burst"))
        options.timing.bursts = bursts;
    options.timing.maxNoisePct = criterion.maxNoisePct;
    options.timing.throttleThresholdPct = criterion.throttleThresholdPct;
    options.baseline = !parser.isSet(noBaselineOpt);
    options.tf32Rounding = parser.value(roundingOpt);
    if (options.tf32Rounding != QStringLiteral("rna") && options.tf32Rounding != QStringLiteral("truncate")) {
        printError(
            QStringLiteral("--tf32-rounding must be rna or truncate, not \"%1\".").arg(options.tf32Rounding));
        return 1;
    }
    options.size = size;
    options.timing.budgetMs = int(*budgetMs);
    options.timing.flushL2 = parser.isSet(flushOpt);
    options.timing.minReps = int(*minReps);
    options.timing.warmup = int(*warmup);
    options.seed = int(*seed);
    options.counters = parser.isSet(countersOpt);
    options.build = parser.value(buildOpt);
    if (parser.isSet(maxBlocksOpt)) {
        const std::optional<int> value =
            intValue(parser.value(maxBlocksOpt), QStringLiteral("--max-blocks-per-sm"), &error);
        if (!value || *value < 1) {
            printError(!value && !error.isEmpty()
                           ? error
                           : QStringLiteral("--max-blocks-per-sm must be a whole number of at least 1."));
            return 1;
        }
        options.maxBlocksPerSm = *value;
    }
    if (parser.isSet(carveoutOpt)) {
        bool ok = false;
        options.smemCarveout = parser.value(carveoutOpt).toInt(&ok);
        if (!ok || options.smemCarveout < 0 || options.smemCarveout > 100) {
            printError(QStringLiteral("--smem-carveout must be a whole percent from 0 to 100."));
            return 1;
        }
    }
    if (parser.isSet(listJobsOpt)) {
        int n = 0;
        for (const Target &t : *targets)
            print(QString::fromUtf8(QJsonDocument(runJob(QStringLiteral("j%1").arg(++n), t, options))
                                        .toJson(QJsonDocument::Compact)) +
                  QLatin1Char('\n'));
        return 0;
    }

    if (parser.isSet(jsonOpt)) { // before anything runs: not onto a device, a pipe or a folder
        if (const auto refused = refuseOutput(parser.value(jsonOpt))) {
            printError(QStringLiteral("--json: ") + *refused);
            return 1;
        }
    }

    RunnerSession runner(findRunner(parser.value(runnerOpt)));
    if (!runner.start(&error)) {
        printError(error);
        return 1;
    }
    protocol::ReadyEvent ready;
    protocol::fromJson(runner.ready(), ready);
    if (!ready.gpu) {
        printError(QStringLiteral("No GPU: %1").arg(ready.gpuErrorMessage));
        return 2;
    }
    print(QStringLiteral("GPU: %1 (%2), size %3, %4 regime, budget %5 ms per stage, noise target %6 %, "
                         "throttle threshold %7 %%8\n")
              .arg(ready.gpu->name, ready.gpu->arch, parser.value(sizeOpt),
                   options.timing.bursts.value_or(1) > 1
                       ? QStringLiteral("%1 (best of %2 bursts)").arg(regime).arg(*options.timing.bursts)
                       : regime,
                   parser.value(budgetOpt), QString::number(criterion.maxNoisePct),
                   QString::number(criterion.throttleThresholdPct),
                   (parser.isSet(flushOpt) ? QStringLiteral(", L2 flushed") : QString()) +
                       (options.maxBlocksPerSm > 0
                            ? QStringLiteral(", at most %1 block(s) per SM").arg(options.maxBlocksPerSm)
                            : QString()) +
                       (options.smemCarveout >= 0
                            ? QStringLiteral(", shared-memory carve-out %1 %").arg(options.smemCarveout)
                            : QString()) +
                       (options.baseline ? QStringLiteral(", each stage interleaved with its cuBLAS call")
                                         : QString())));

    const QJsonObject ceilings =
        runner.request(protocol::toJson(protocol::CeilingsJob{QStringLiteral("ceilings"), std::nullopt}));
    double peak = 0;
    if (protocol::eventTypeOf(ceilings) == protocol::EventType::Ceilings) {
        protocol::CeilingsEvent c;
        protocol::fromJson(ceilings, c);
        peak = c.fmaTflops;
        print(QStringLiteral("Ceilings: FP32 FMA %1 TFLOP/s, DRAM %2 GB/s (%3)\n")
                  .arg(peak, 0, 'f', 1)
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
    } else {
        protocol::ErrorEvent failure;
        protocol::fromJson(ceilings, failure);
        printError(QStringLiteral("Ceilings failed: %1").arg(failure.message));
    }

    int failedRows = 0;
    std::vector<BenchRow> rows;
    double cublasMs = 0, cublasTf32Ms = 0;
    int n = 0;
    for (const Target &t : *targets) {
        if (!runner.running() && !runner.start(&error)) {
            printError(QStringLiteral("Could not restart the runner: ") + error);
            return 1;
        }
        const QString id = QStringLiteral("b%1").arg(++n);
        const QJsonObject job = runJob(id, t, options);
        print(QStringLiteral("[%1/%2] %3 ...\n")
                  .arg(n)
                  .arg(targets->size())
                  .arg(t.preset.isEmpty() ? t.stage : t.preset));
        QJsonObject event = runner.request(job);
        if (protocol::eventTypeOf(event) == protocol::EventType::Error) {
            protocol::ErrorEvent failure;
            protocol::fromJson(event, failure);
            if (protocol::runnerEndsAfter(failure.kind))
                printError(QStringLiteral("  %1: the runner exits; restarting it for the next row.")
                               .arg(protocol::errorKindName(failure.kind)));
        }
        if (t.stage == QString::fromStdString(StageId::CublasFp32.str()) &&
            protocol::eventTypeOf(event) == protocol::EventType::Result) {
            protocol::ResultEvent result;
            protocol::fromJson(event, result);
            cublasMs = result.timing.medianMs;
        }
        if (t.stage == QString::fromStdString(StageId::CublasTf32.str()) &&
            protocol::eventTypeOf(event) == protocol::EventType::Result) {
            protocol::ResultEvent result;
            protocol::fromJson(event, result);
            cublasTf32Ms = result.timing.medianMs;
        }
        rows.push_back({t.preset, t.stage, QString::fromStdString(formatParams(t.params)), event});
        if (protocol::eventTypeOf(event) != protocol::EventType::Result)
            ++failedRows;
    }
    print(QStringLiteral("\n") + bench::formatTable(rows, cublasMs, peak, cublasTf32Ms));

    if (parser.isSet(jsonOpt)) {
        BenchFile bench;
        bench.date = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        bench.command = QCoreApplication::arguments().join(QLatin1Char(' '));
        bench.gpu = protocol::toJson(*ready.gpu);
        bench.size = size;
        bench.ceilingsEvent = ceilings;
        for (const BenchRow &r : rows)
            bench.rows.append({r.preset, r.stage, r.params, r.event, {}, {}, {}});
        // Replaced whole or left as it was (a full disk never leaves half a file), exit status 1.
        if (const FileWrite written = writeFileAtomically(parser.value(jsonOpt), serializeBench(bench));
            !written) {
            printError(written.error);
            return 1;
        }
        print(QStringLiteral("Wrote %1\n").arg(parser.value(jsonOpt)));
    }
    if (failedRows > 0) { // the table and the JSON keep every row; the status says not all ran
        printError(QStringLiteral("%1 of %2 rows failed (see the table).").arg(failedRows).arg(rows.size()));
        return 3;
    }
    return 0;
}
