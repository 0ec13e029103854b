// gemmscope-bench's command line: every option declared once (QCommandLineParser prints them for
// --help in this order), the mode they choose, and the checks that several modes share. Each mode
// reads its options into its own command (ladder_mode.h, profile_mode.h, grid_sweep_mode.h,
// size_sweep_mode.h) before anything runs; a bad value is refused with an OptionError.
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
//                   (each stage and its cuBLAS baseline profiled with the runner's `profile`
//                   job: stall reasons, hot source lines, limiters; docs/protocol.md, "Profile")
//
//   gemmscope-bench --size-sweep --stages worklog-8,cublas_fp32 [--sizes square|aspect|512,1024x512x768,...]
//                   [--size-range 256-16384] [--powers-only] [--budget-ms 30] [runner options as --sweep]
//                   (TFLOP/s against problem size, with wave quantization: docs/sweeps.md)
#pragma once

#include "requests.h"
#include "stage_types.h"
#include "values.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>
#include <variant>
#include <vector>

class QCoreApplication;

namespace gemmscope::bench {

// Why the command line was refused, and the exit status that says so: 1 a bad option, 2 a --kernel
// file that cannot be measured.
struct OptionError {
    QString message;
    int exitCode = 1;
};

// A mode's command read from the command line, or why it was refused.
template <class Command> using Parsed = std::variant<Command, OptionError>;

struct BenchOptions {
    // The ladder (and what --profile and --kernel share with it).
    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Problem MxNxK (default 8192x4096x6144)."),
                            QStringLiteral("MxNxK"), QStringLiteral("8192x4096x6144")};
    QCommandLineOption stages{QStringLiteral("stages"),
                              QStringLiteral("Comma-separated preset and/or stage keys (default: worklog "
                                             "presets, cublas_fp32, cublas_tf32)."),
                              QStringLiteral("list")};
    QCommandLineOption budget{QStringLiteral("budget-ms"), QStringLiteral("Timing budget per stage."),
                              QStringLiteral("ms"), QStringLiteral("1000")};
    QCommandLineOption flush{QStringLiteral("flush-l2"), QStringLiteral("Flush L2 between repetitions.")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Write all results as JSON."),
                            QStringLiteral("file")};
    QCommandLineOption seed{QStringLiteral("seed"), QStringLiteral("Input seed."), QStringLiteral("n"),
                            QStringLiteral("1")};
    QCommandLineOption runner{QStringLiteral("runner"), QStringLiteral("Path of gemmscope-runner."),
                              QStringLiteral("path")};
    QCommandLineOption minReps{QStringLiteral("min-reps"), QStringLiteral("Fewest timed repetitions."),
                               QStringLiteral("n"), QStringLiteral("5")};
    QCommandLineOption warmup{QStringLiteral("warmup"), QStringLiteral("Untimed launches first."),
                              QStringLiteral("n"), QStringLiteral("2")};
    QCommandLineOption counters{
        QStringLiteral("counters"),
        QStringLiteral("Profile one extra launch per stage with CUPTI and show the measured DRAM arithmetic "
                       "intensity (needs permission to read GPU performance counters).")};
    QCommandLineOption build{
        QStringLiteral("build"),
        QStringLiteral(
            "Kernel build: release (default) or scalar_shared (inner-loop shared reads kept scalar, "
            "for comparing bank-conflict counters with the access model)."),
        QStringLiteral("build"), protocol::valueName(protocol::BuildKind::Release)};
    QCommandLineOption maxBlocks{
        QStringLiteral("max-blocks-per-sm"),
        QStringLiteral(
            "Give each block unused shared memory so that at most N blocks share an SM (not cuBLAS)."),
        QStringLiteral("N")};
    QCommandLineOption carveout{
        QStringLiteral("smem-carveout"),
        QStringLiteral(
            "Prefer P percent of the largest shared-memory share per SM; the rest is L1 (not cuBLAS)."),
        QStringLiteral("P")};
    QCommandLineOption listJobs{
        QStringLiteral("list-jobs"),
        QStringLiteral("Print the runner's run requests (JSON lines) instead of running them, e.g. to feed "
                       "gemmscope-runner under compute-sanitizer or ncu.")};
    QCommandLineOption regime{
        QStringLiteral("regime"),
        QStringLiteral(
            "burst (default: each stage from an idle, cool GPU) or sustained (after running at load "
            "until the clock settles, as a long GEMM workload sees it)."),
        QStringLiteral("regime"), protocol::valueName(protocol::TimingRegime::Burst)};
    QCommandLineOption bursts{
        QStringLiteral("bursts"),
        QStringLiteral("Burst regime: time each stage in N bursts, each from an idle GPU, and report the "
                       "burst in which its cuBLAS call ran fastest (1-%1, default 5): cuBLAS's figure varies "
                       "by up to 10 % from burst to burst.")
            .arg(protocol::kMaxBursts),
        QStringLiteral("N"), QStringLiteral("5")};
    QCommandLineOption maxNoise{
        QStringLiteral("max-noise"),
        QStringLiteral(
            "Stop timing once the samples' relative noise is at most P percent (above 0, at most 50)."),
        QStringLiteral("P"), QStringLiteral("0.5")};
    QCommandLineOption threshold{
        QStringLiteral("throttle-threshold"),
        QStringLiteral(
            "Leave out samples whose SM clock is below P percent of the starting clock (0-100; 0 keeps "
            "all)."),
        QStringLiteral("P"), QStringLiteral("90")};
    QCommandLineOption noBaseline{
        QStringLiteral("no-baseline"),
        QStringLiteral(
            "Do not time each GemmScope stage interleaved with its cuBLAS call (the percentages then "
            "come from the separate cuBLAS rows).")};
    QCommandLineOption rounding{
        QStringLiteral("tf32-rounding"),
        QStringLiteral(
            "How GemmScope's TF32 stages make TF32 of their inputs: rna (default: rounded to nearest "
            "in a pre-pass inside the timed launch, as cuBLAS does) or truncate (the tensor core "
            "drops the low bits)."),
        QStringLiteral("mode"), protocol::valueName(protocol::Tf32Rounding::Rna)};
    QCommandLineOption profile{
        QStringLiteral("profile"),
        QStringLiteral("Profile --stages (and the cuBLAS stage of each one's precision) at --size instead of "
                       "timing them: duration, samples, the top 5 stall reasons and source lines, the "
                       "limiters; --json writes the runner's profile events. Needs permission to read GPU "
                       "performance counters.")};
    QCommandLineOption period{
        QStringLiteral("sampling-period"),
        QStringLiteral("Profile: one PC sample every 2^N SM cycles (5-31; default: the runner's)."),
        QStringLiteral("N")};
    QCommandLineOption kernel{
        QStringLiteral("kernel"),
        QStringLiteral(
            "Measure your kernel (a .cuh with a gemmscope:kernel block: docs/custom-kernels.md) beside "
            "cuBLAS, after --stages (default: cuBLAS alone). A file that cannot be measured ends "
            "with status 2."),
        QStringLiteral("file")};
    QCommandLineOption params{
        QStringLiteral("params"),
        QStringLiteral("--kernel: its parameters, e.g. BM=64,BN=32 (default: the block's defaults)."),
        QStringLiteral("list")};

    // --sweep, --size-sweep and --sweep-status.
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

enum class BenchMode { Ladder, Profile, Sweep, SizeSweep, SweepStatus };

class BenchCommandLine {
public:
    BenchCommandLine();

    // QCommandLineParser::process: --help prints and exits 0; an unknown option exits 1 with its
    // sentence.
    void process(const QCoreApplication &app);
    // The same for tests: false with the parser's sentence in `error`.
    bool parse(const QStringList &arguments, QString *error);

    // --sweep-status, --size-sweep and --sweep win over --profile, which wins over the ladder.
    BenchMode mode() const;

    bool isSet(const QCommandLineOption &option) const { return m_parser.isSet(option); }
    QString value(const QCommandLineOption &option) const { return m_parser.value(option); }
    QStringList values(const QCommandLineOption &option) const { return m_parser.values(option); }

    const BenchOptions options;

private:
    QCommandLineParser m_parser;
};

// What the ladder and --profile check before anything runs: a value the runner would clamp or
// refuse row by row (--budget-ms -1, --warmup -5, --size 0x0x0, "abc") is refused here, with its
// limits.
struct RunBasics {
    ProblemSize size;
    int budgetMs = 0;
    int minReps = 0;
    int warmup = 0;
    int seed = 1;
    QString build; // "release" or "scalar_shared"
};
Parsed<RunBasics> parseRunBasics(const BenchCommandLine &commandLine);

// --tf32-rounding: "rna" or "truncate"; otherwise the sentence.
std::optional<QString> tf32Rounding(const BenchCommandLine &commandLine, QString *error);

// A whole number from an option, within [min, max]; otherwise the sentence is set.
std::optional<long long> wholeNumber(const QString &text, long long min, long long max, const QString &option,
                                     QString *error);
// A whole number that fits an int; a number too large for one is "out of range" with the limit.
// Otherwise empty, with `error` set only for that case (the caller says what it takes).
std::optional<int> intValue(const QString &text, const QString &option, QString *error);
// Whole numbers separated by commas.
std::optional<std::vector<int>> intList(const QString &text, const QString &option, QString *error);

// --runner as given, else the runner beside the bench, else "gemmscope-runner" from PATH.
QString findRunner(const QString &given);

} // namespace gemmscope::bench
