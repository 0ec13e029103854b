// What a session already says about one run against cuBLAS without a profile: the run and the
// cuBLAS run of its precision at the same size, on the same GPU and in the same regime (measured
// time, TFLOP/s, the traffic counters, registers and occupancy), beside what the analytic traffic
// model expects of the run's tiling. "Why not cuBLAS?" shows it while no profile is there, and
// the Counters tab under its access table.
#pragma once

#include "run_record.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope {

// What pairs a run with the cuBLAS runs it may be held against: size, origin, GPU, the regime (a
// burst run against a burst cuBLAS run) and the cuBLAS stage. Compared field by field: written as
// one text, a session of 100,000 runs formatted ~9,000 keys each time it looked for a pair.
struct CublasPairing {
    long long m = 0, n = 0, k = 0;
    QString origin, gpuName;
    std::optional<protocol::TimingRegime> regime; // none: the run says nothing of how it was timed
    StageId baseline;
    friend bool operator==(const CublasPairing &, const CublasPairing &) = default;
};
size_t qHash(const CublasPairing &pairing, size_t seed = 0);
CublasPairing cublasPairingOf(const RunRecord &run, StageId baseline);

// cuBLAS TF32 for the stages that compute in TF32, else cuBLAS FP32.
StageId cublasStageFor(const RunRecord &run);

// The finished cuBLAS run `run` is held against (cublasPairingOf), nearest in time; nullptr where
// the session has none. A scan of every run: where it is asked again and again, CublasIndex.
const RunRecord *cublasRunFor(const RunRecord &run, const QList<RunRecord> &runs);

struct RunFactRow {
    QString quantity;           // "DRAM traffic (read + write)"
    QString run, cublas, model; // as shown; "—" where there is no value
    // The two measured values as numbers where both are there and comparable (bars); else empty.
    std::optional<double> runValue, cublasValue;
    // Whether the run's measured value agrees with the model's (agreesWithModel, the access
    // table's rule); empty where the row's model is no figure to hold a measurement against (a
    // bound, or what the model's intensity leaves out) or either is missing.
    std::optional<bool> runAgreesWithModel = {};
};

struct RunAgainstCublas {
    QString headline;       // the one sentence over the rows (or why there are none)
    QString runName;        // the run's column: "Stage 3", as the results table's Stage column names it
    QString cublasName;     // "cuBLAS FP32", "cuBLAS TF32"
    QList<RunFactRow> rows; // empty where there is no run to describe
    QString footnote;       // where the model's figures come from
};

// `label` names the run as the charts and the results table's Stage column do ("3", "+tuned"); the
// sentence adds the stage's name ("Stage 3 (Coalesced cooperative loads)"). `cublas` from
// cublasRunFor (nullptr: none).
RunAgainstCublas runAgainstCublas(const RunRecord *run, const RunRecord *cublas, const QString &label);

} // namespace gemmscope
