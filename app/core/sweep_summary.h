// What a sweep's runs say about each cell of its plan: the best finished configuration (TFLOP/s,
// and % of cuBLAS measured on the same GPU), whether it spills, what limits its occupancy,
// wrong results, failures, and the catalog's sentence for cells that may not run. The heatmap,
// the CSV/JSON export and gemmscope-bench --sweep all read this; none computes it again.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace gemmscope {

struct SweepCellSummary {
    int cell = -1;
    int x = 0, y = 0;
    QString invalidReason; // the catalog's sentence: no point of the cell may run
    int validPoints = 0, answeredPoints = 0, wrongResults = 0, failures = 0;
    std::optional<RunRecord> best;       // the fastest correct run of the cell
    std::optional<double> pctOfCublas;   // of the best, against cuBLAS FP32 on its own GPU
    QString failureKind, failureMessage; // the first failure, when no run of the cell succeeded
    bool invalid() const { return !invalidReason.isEmpty(); }
    bool spills() const { return best && (best->spillStoreBytes > 0 || best->spillLoadBytes > 0); }
    double tflops() const { return best ? best->tflops : 0; }
};

struct SweepSummary {
    QVector<SweepCellSummary> cells; // as the plan's cells
    int bestCell = -1;               // highest TFLOP/s (or % of cuBLAS, see below)
    int validPoints = 0, answeredPoints = 0;
    QStringList gpus; // every GPU the sweep ran on, as "host: name"
};

// The cuBLAS FP32 baseline of each GPU and size, indexed once: what cublasMsOnSameGpu (sweep_record.h)
// answers for one run by scanning every run, in constant time per run, so that a summary of n runs
// takes time linear in n (a 10,000-series size sweep).
class CublasBaselines {
public:
    CublasBaselines() = default;
    explicit CublasBaselines(const QList<RunRecord> &runs);
    // A run answered after those it holds: true when it is a baseline (a successful cuBLAS FP32
    // run), which then replaces the one of its GPU and size.
    bool add(const RunRecord &run);
    // The median of the latest successful cuBLAS FP32 run at the run's size on the run's GPU.
    std::optional<double> msFor(const RunRecord &run) const;

private:
    QHash<QString, double> m_ms; // gpuIdentity + size -> median ms
};

// A GPU and the machine it is in, as the Sweep views say it: "NVIDIA H200 (machine “vm”)"; the GPU
// alone where the run names no machine. "(host vm)" read as a virtual machine, or as jargon, to a
// no-context reviewer: the machine's name is quoted as a name.
QString gpuOnMachineText(const QString &gpuName, const QString &host);

// Where and when a sweep's runs were measured, for the views' summary line and print layouts:
// "measured on NVIDIA H200 (machine “vm”), 2026-11-30 22:35–22:36 UTC". Empty when no run says.
QString sweepProvenance(const QList<RunRecord> &runs);

// The same sentence, kept up to date one run at a time (a running sweep's view: constant work per
// answered run, whatever the sweep's length).
class SweepProvenance {
public:
    void add(const RunRecord &run);
    QString text() const;

private:
    QStringList m_gpus; // in the order first seen
    QSet<QString> m_seen;
    QDateTime m_first, m_last;
};

// `byRatio`: choose the best cell by % of cuBLAS on its own GPU (a sweep on unlike GPUs) instead
// of by TFLOP/s.
SweepSummary summarizeSweep(const SweepPlan &plan, const QList<RunRecord> &runs, bool byRatio = false);

// Seconds the GPUs spent in kernels the runners report for these runs: for each successful run,
// (timed repetitions + warm-up launches + 1 verification launch) x its median. It leaves out what
// runners do not report (the cuBLAS reference launch, input generation, L2 flushes, copies), so
// divided by wall time it is a lower bound of the GPUs' busy fraction. docs/sweeps.md.
double gpuKernelSeconds(const QList<RunRecord> &runs);

// The cells as CSV (one row per cell, the best configuration's parameters and numbers) and as
// JSON (the plan, every cell with its best run and every answered run).
QString sweepCellsCsv(const SweepPlan &plan, const SweepSummary &summary);
QJsonObject sweepCellsJson(const SweepPlan &plan, const SweepSummary &summary);

} // namespace gemmscope
