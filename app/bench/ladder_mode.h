// gemmscope-bench's default mode: the worklog's ladder (or --stages, and a --kernel file) timed
// through gemmscope-runner, cuBLAS FP32 first (the 100 % line), then the table and --json.
#pragma once

#include "bench_options.h"
#include "kernel_option.h"
#include "requests.h"
#include "stage_types.h"
#include "timing_series.h"

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace gemmscope::bench {

struct LadderTarget {
    QString preset; // empty for a bare stage key
    QString stage;
    ParamValues params;
};

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

// Preset keys and stage keys, in the order given (empty: the worklog's ladder, the FP32 stages past
// it and both cuBLAS calls); cuBLAS FP32 is moved first. Otherwise the sentence naming the key that
// is neither a preset nor a stage.
std::optional<std::vector<LadderTarget>> resolveTargets(const QString &list, QString *error);

// One `run` request of the protocol for a target (what --list-jobs prints).
QJsonObject runJob(const QString &id, const LadderTarget &target, const JobOptions &options);

struct LadderCommand {
    std::vector<LadderTarget> targets;
    JobOptions job;
    NoiseCriterion noise;
    QString sizeText, budgetText; // as given, for the first line
    QString runnerPath;
    std::optional<QString> jsonPath; // --json
    bool listJobs = false;
    QString kernelLine; // with --kernel: which stage the file became

    // Every option checked before anything runs; a --kernel file is read and registered here.
    static Parsed<LadderCommand> parse(const BenchCommandLine &commandLine);
    // Exit status: 0 every row ran; 1 no runner or the JSON could not be written (an existing file
    // is then left as it was); 2 no GPU; 3 some rows failed (the table and the JSON hold every row).
    int run() const;
};

} // namespace gemmscope::bench
