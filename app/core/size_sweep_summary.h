// What a size sweep's runs say, point by point: for each series (a stage or preset, or cuBLAS) and
// size, the finished run (TFLOP/s, % of cuBLAS FP32 at that size on the same GPU when the sweep
// has it), the catalog's sentence for a size the stage refuses, and the launch's wave
// quantization (tiles / (SMs x resident blocks per SM), from the run's `compiled` occupancy and
// its GPU's SM count) with the sizes where the last wave barely started marked. The chart, the
// CSV/JSON export and gemmscope-bench --size-sweep all read this.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"
#include "wave_quantization.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>
#include <optional>

namespace gemmscope {

struct SizeSweepPoint {
    int series = 0, sizeIndex = 0;
    ProblemSize size;
    QString invalidReason;             // the catalog refuses this size for the stage: never run
    std::optional<RunRecord> run;      // the finished, correct run
    std::optional<double> pctOfCublas; // against cuBLAS FP32 at this size on the same GPU
    QString failureKind, failureMessage;
    std::optional<WaveQuantization> waves; // known for a catalog stage with blocks per SM and SMs
    bool waveStep = false;                 // the last wave barely started (WaveQuantization::tailIsSmall)
    double tflops() const { return run ? run->tflops : 0; }
};

struct SizeSweepSummary {
    QVector<SizeSweepPoint> points; // series-major, as the plan's cells
    int answered = 0, valid = 0;
    QStringList gpus; // "host: name"
};

SizeSweepSummary summarizeSizeSweep(const SweepPlan &plan, const QList<RunRecord> &runs);

QString seriesLabel(const SweepPlan &plan, int series);

// One line per marked size: "worklog-8 at 4224x4224x4224: 8.05 waves: the last wave runs 7 of 132 SMs ...".
QStringList sizeSweepWaveNotes(const SweepPlan &plan, const SizeSweepSummary &summary);

// One row per point: series, stage, size, status, TFLOP/s, % of cuBLAS, waves, ...
QString sizeSweepCsv(const SweepPlan &plan, const SizeSweepSummary &summary);
QJsonObject sizeSweepJson(const SweepPlan &plan, const SizeSweepSummary &summary);

} // namespace gemmscope
