// gemmscope-bench --profile: each listed stage, and the cuBLAS stage of its precision
// at the same size (the "Why not cuBLAS?" baseline), profiled through the bench's runner session
// with the protocol's `profile` job. Prints per stage its duration, total samples, the top stall
// reasons with their shares, the hottest source lines and the limiters; --json writes a bench file
// whose "profiles" hold the runner's profile events as received (the GUI imports them).
#pragma once

#include "bench_options.h"
#include "runner_session.h"
#include "stage_types.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace gemmscope::bench {

struct ProfileTarget {
    QString label; // the preset or stage key as given
    QString stage;
    ParamValues params;
};

struct ProfileBenchOptions {
    ProblemSize size;
    int seed = 1;
    QString build;        // "release" or "scalar_shared" (GemmScope's kernels only)
    QString tf32Rounding; // "rna" or "truncate" (GemmScope's TF32 stages only)
    std::optional<int> samplingPeriod;
    QString jsonPath; // empty: none
    QString command;  // the bench's command line, for the JSON
};

// The listed stages with the cuBLAS baseline of each one's precision after them (once each),
// or the sentence that says which key is neither a preset nor a stage.
std::optional<QList<ProfileTarget>> profileTargets(const QString &list, QString *error);

// The `profile` request of `target` (what --list-jobs prints).
QJsonObject profileJob(const QString &id, const ProfileTarget &target, const ProfileBenchOptions &options);

// Runs every target on `runner` (started, with a GPU: `ready`'s gpu object). Exit status as the
// bench's: 0 every stage profiled, 1 the JSON could not be written, 3 some stages could not be
// profiled (each says why; the others are printed and written).
int runProfiles(RunnerSession &runner, const QJsonObject &gpu, const QList<ProfileTarget> &targets,
                const ProfileBenchOptions &options);

// gemmscope-bench --profile: its options read once (parse), then run: the requests printed with
// --list-jobs, or each target profiled on a runner with a GPU. Exit status as runProfiles', or 1 when
// the runner does not start or --json names what must not be replaced, 2 when it has no GPU.
struct ProfileCommand {
    ProfileBenchOptions options;
    QList<ProfileTarget> targets;
    QString sizeText; // as given, for the first line
    QString runnerPath;
    bool listJobs = false;

    static Parsed<ProfileCommand> parse(const BenchCommandLine &commandLine);
    int run() const;
};

} // namespace gemmscope::bench
